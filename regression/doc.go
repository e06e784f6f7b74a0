// Package regression will collect paired shallow and deep searches into
// Parquet and fit the ChanceProbCut parameters a, b and sigma per depth pair
// (Buro 1995; Schadd et al. 2009), producing the files that search.LoadProbCut
// reads. It has no code yet; until then ChanceProbCut runs on
// search.DefaultProbCut, which says it is not a fit.
package regression
