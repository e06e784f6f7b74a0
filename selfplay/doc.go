// Package selfplay plays games between players: self-play, matches,
// tournaments, and their statistics.
//
// # Games
//
// Play(ctx, start, players, dice, observe) plays one game: a Player chooses
// each move of a rolled position (and takes the context, so a cancelled
// match stops the search in progress), and an Observer sees every ply: the
// position before the roll, the roll, the player's choice and value, the
// position after. Luck valuation is an observer (Luck.Observer); a trainer
// is another. Plies are stored as cells; notation is made by the writers.
// A DiceStream gives each colour its own stream per game seed, so the two
// games of a pair share their dice by seat and turn.
//
// # The match stage
//
// RunMatch(ctx, settings, run, progress) is the match stage: variants
// (canonical search specs; ParseVariant refuses a depth that ends on a
// chance ply) play pairs of games, one pairing at a time, on the runs
// worker pool, every worker with its own engines. Each pairing has dice of
// its own (PairSeed; pairing 0 has those of two-variant matches). Every
// finished pair is a MatchRecord in the run's journal; a run resumed after
// a kill or Ctrl-C plays only the missing pairs, an SPRT stops a pairing at
// the first prefix of pairs where it decides, and a Shard plays only its
// share. Report is a pure function from finished records to the statistics,
// so resumed, uninterrupted and merged runs report alike; GameRows gives
// games.parquet. SampleSuite samples test suites from self-play.
//
// The statistics are pure functions of result counts, taken from the
// match-testing tools of computer chess (cutechess-cli, fastchess, fishtest):
//
//   - Trinomial: win/draw/loss counts of games. Score with the normal
//     (Wald) 95 % interval μ ± 1.959964·σ/√N on the per-game variance, the
//     form the papers report ("50.6% ± 0.5% on 40,000 games"), its logistic
//     Elo −400·log10(1/μ − 1) and interval (cutechess-cli elo.cpp, fastchess
//     EloWDL, fishtest stat_util.get_elo), normalized Elo (fastchess), and
//     cutechess-cli's likelihood of superiority ½(1 + erf((W − L)/√(2(W + L)))).
//   - Pentanomial: counts of colour-swapped game pairs by pair score 0, ½, 1,
//     1½, 2. The same quantities with the variance taken over pairs, so the
//     correlation between the two games of a pair (same start, same dice)
//     counts (fastchess EloPentanomial, fishtest since issue #348); LOS is
//     Φ((μ − ½)/SE).
//   - SPRT: Wald's bounds ln(β/(1 − α)), ln((1 − β)/α) and the generalised
//     log-likelihood ratio in normalized Elo, fishtest's default model
//     (fishtest LLRcalc.LLR_normalized; M. Van den Bergh, "Comments on
//     Normalized Elo", Section 4.1, and "Support for the MLE of a
//     multinomial", Proposition 1.1), for trinomials and pentanomials, with
//     the constrained maximum-likelihood distributions solved exactly.
//   - MeanCI95: mean, unbiased variance and normal 95 % half-width of
//     per-pair values such as luck-adjusted scores (gnubg's luck-adjusted
//     result; Zare, "Hedging Toward Skill"); PopMeanCI95 the same with the
//     variance divided by n, as the trinomial and pentanomial figures are,
//     which the summary uses so that its variance ratios compare like with
//     like.
//
// Degenerate inputs never give NaN: no games give zeros (LOS ½), zero
// variance gives a zero-width interval, and infinities appear only where
// documented: Elo ±Inf for a side that won or lost every game, an Elo
// interval end (and half-width) of ±Inf when the score interval reaches 0 or
// 1, and MeanCI95's CI95 for a single sample.
package selfplay
