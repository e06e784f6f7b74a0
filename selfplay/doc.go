// Package selfplay plays games between players: self-play, matches,
// tournaments, and their statistics. It sees a game only through the game
// contract (package starlab/search/game) and its engines through
// search.Engine: the caller hands it a search.Kit, and it imports no game.
//
// # Games
//
// Play(ctx, g, start, players, chance, observe) plays one game by looping
// on the state's kind: at a decision the mover's Player chooses a move
// (and takes the context, so a cancelled match stops the search in
// progress); at a chance node a ChanceStream draws the event by its weight;
// an Observer sees every action before it is taken. Luck valuation is an
// observer (Luck.Observer): the luck of an event is the reference value of
// the state after it minus the weighted mean over the node's events. A
// game's record (Record) is its start, its variant and its actions, moves
// and events in order; Replay replays it through the contract and refuses
// an impossible record in one line, and notation is made by the writers.
// A ChanceStream gives each side its own stream per game seed, so the two
// games of a pair share their chance events by seat and turn (for Dice,
// by colour and roll: today's duplicate dice).
//
// # The match stage
//
// RunMatch(ctx, settings, run, progress) is the match stage: engines
// (canonical search specs; ParseEngine refuses a depth that ends on a
// chance ply, where the game says one does) of the settings' game play
// pairs of games, one pairing at a time, on the runs worker pool, every
// worker with its own engines. Each pairing has dice of its own (PairSeed;
// pairing 0 has those of two-variant matches). Every finished pair is a
// MatchRecord in the run's journal; a run resumed after a kill or Ctrl-C
// plays only the missing pairs, an SPRT stops a pairing at the first
// prefix of pairs where it decides, and a Shard plays only its share.
// Report is a pure function from finished records to the statistics, so
// resumed, uninterrupted and merged runs report alike; GameRows gives
// games.parquet, whose key-value metadata names the game and variant.
// SampleSuite samples test suites from self-play, by the game's phase.
//
// # Outside engines
//
// A variant may be a program rather than one of starlab's engines
// (outside.Engine, package starlab/outside): "ext:cmd=PATH,..." speaks
// starlab's engine protocol on its standard input and output
// (docs/protocol.md), "gnubg:..." is GNU Backgammon; the kinds are the
// table of package starlab/outside/engines, so every program that plays
// matches knows them all. Each match worker starts its own instance
// (outsidePlayer); starlab stays the referee and checks every reply
// against the game's rules. A reply that cannot be played (illegal,
// malformed, late, or the program gone) is a Choice with a Forfeit: the
// game ends there, lost by the side to move, its record keeps the forfeit,
// and the program is stopped with its whole process group and started
// again before the next game; a start that fails forfeits that game, and
// maxStartFailures in a row stop the match. engines.log is bounded
// (outside.BoundedLog). MatchSettings.Prepare finds every program, records where (Programs, so
// that a resumed run runs the same one) and starts each once, so that a
// match whose outside engine cannot start is refused with a usage error
// (exit 2) before its run directory exists.
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
