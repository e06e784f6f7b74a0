// Package regression collects paired shallow and deep searches of chance
// events into Parquet and fits ChanceProbCut's linear model
// v_deep ~ a*v_shallow + b with residual deviation sigma per depth pair
// (Buro 1995; Schadd et al. 2009, section 5.6.2), producing the files that
// search.LoadProbCut reads.
//
// The stages work over the game contract (package starlab/search/game):
// the caller looks a game up (package starlab/search/games) and hands it
// over as a search.Kit, whose engines search the positions; this package
// imports no game and no engine. Settings record the game's name and the
// variant, never the game itself.
//
// Collect takes, for every position of a suite, a chance node: the
// position itself when it is one, else the one the game puts in its place
// (search.Kit.ChanceNode: in Dice the position before its roll, in
// ChanceBreakthrough the chance node its roll leads to); a finished
// position, or one without a chance node, is refused. For every event of
// the chance node it searches the state after the event to the shallow and
// the deep depth of each pair, with a sound algorithm, a fresh table and a
// full window, and writes one Row per event and pair (the game, variant,
// chance node, its phase, the event with its weight and the node's total
// weight, the values, nodes and times) into Parquet part files (schema
// RowsFormat, starlab-collect/2, whose metadata name the game and the
// variant), one per chunk of positions, written whole or not at all, so
// that a resumed collect redoes only the chunks without a file. Part files
// of schema starlab-collect/1, Dice's (dpn, n, m, checkers, roll), are
// still read, as Dice rows of weight 1 and an unrecorded total.
//
// Fit fits each pair by least squares (gonum's stat.LinearRegression,
// which returns the intercept first), over all rows and per band of phases
// (search/game.Game.Phase: the checkers on the board in Dice),
// cross-validated over folds of games; sigma is the largest of the
// residual deviation (divisor n-2), the cross-validated error and a floor.
// Every row is one sample, whatever its event's weight. The rows must be
// of one game and variant, and the parameter file (search.ProbCutParams,
// version 2) names them.
//
// Tune measures ChanceProbCut against StarETC over a suite of one variant
// for a list of t, as tables 5.6 to 5.8 (Dice) and 5.10 (ChanceBreakthrough)
// of the chapter: the nodes saved and the error of the value of the move
// cpc chooses against that move's value in the full search (at a decision;
// at a chance node, the root's values). Several cpc engines are measured
// over the same positions against one staretc search per position and
// depth (so they must share its options), and each engine after the first
// is compared with the first by the paired difference of their absolute
// errors. Every figure carries its standard error over the positions: the
// mean's, s/sqrt(n); DCPCME's, the sample standard deviation s (divisor
// n-1; the chapter says only "the standard deviation"), by the delta
// method, sqrt((m4 - s⁴)/n)/(2s); the reduction's as a ratio estimator's
// (Cochran 1977, section 6.3). The chapter's figures are the game's
// (search.Kit.Chapter, per variant) and are shown beside a tune of the
// boards the chapter measured only, Dice 5x5-4 and ChanceBreakthrough 8x8;
// a result read back gets them through the registry from the game and
// variant it names (TuneResult.Chapter). They are given on our scale: its
// Dice evaluation is bound to [-10, 10] and its ChanceBreakthrough
// evaluation to [-1500, 1500] (section 5.5.4), ours to [-1, 1], so its
// ACPCME and DCPCME are divided by 10 and by 1,500 (search.Chapter.Scale),
// and they belong to its configurations: in Dice R = 4 at depths 7 and 9
// only (search.ChapterCPC), in ChanceBreakthrough R = 2 at depths 3 and 5
// (search/breakthrough.ChapterCPC).
package regression
