// Package selfplay plays games between players: self-play, matches,
// tournaments, and their statistics.
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
//     result; Zare, "Hedging Toward Skill"), for variance ratios between
//     estimators.
//
// Degenerate inputs never give NaN: no games give zeros (LOS ½), zero
// variance gives a zero-width interval, and infinities appear only where
// documented: Elo ±Inf for a side that won or lost every game, an Elo
// interval end (and half-width) of ±Inf when the score interval reaches 0 or
// 1, and MeanCI95's CI95 for a single sample.
package selfplay
