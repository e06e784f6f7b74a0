// Package regression collects paired shallow and deep searches of chance
// events into Parquet and fits ChanceProbCut's linear model
// v_deep ~ a*v_shallow + b with residual deviation sigma per depth pair
// (Buro 1995; Schadd et al. 2009, section 5.6.2), producing the files that
// search.LoadProbCut reads.
//
// Collect searches, for every position of a suite and every line the die
// can show there, the rolled position to the shallow and the deep depth of
// each pair, with a sound algorithm, a fresh table and a full window, and
// writes one Row per event and pair into Parquet part files (schema
// RowsFormat), one per chunk of positions, written whole or not at all, so
// that a resumed collect redoes only the chunks without a file.
//
// Fit fits each pair by least squares (gonum's stat.LinearRegression,
// which returns the intercept first), over all rows and per band of
// checkers on the board, cross-validated over folds of games; sigma is the
// largest of the residual deviation (divisor n-2), the cross-validated
// error and a floor.
//
// Tune measures ChanceProbCut against StarETC over a suite for a list of
// t, as tables 5.6 to 5.8 of the chapter: the nodes saved and the error of
// the value of the move cpc chooses against that move's value in the full
// search. Several cpc engines are measured over the same positions against
// one staretc search per position and depth (so they must share its
// options), and each engine after the first is compared with the first by
// the paired difference of their absolute errors. Every figure carries its
// standard error over the positions: the mean's, s/sqrt(n); DCPCME's, the
// sample standard deviation s (divisor n-1; the chapter says only "the
// standard deviation"), by the delta method, sqrt((m4 - s⁴)/n)/(2s); the
// reduction's as a ratio estimator's (Cochran 1977, section 6.3). The
// chapter's figures are given on our scale: its evaluation is bound to
// [-10, 10] (section 5.5.4), ours to [-1, 1], so its ACPCME and DCPCME are
// divided by 10 (ChapterScale), and they belong to its configuration,
// ChanceProbCut with R = 4 at depths 7 and 9 only (ChapterEngine).
package regression
