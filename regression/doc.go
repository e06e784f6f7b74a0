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
// search.
package regression
