package search

import (
	"fmt"
	"math"
)

// Chapter is what the ChanceProbCut chapter (Schadd et al. 2009) gives of
// tuning t on one board of one game: which tables, for which configuration
// (as our spec) over how many of its positions, and its evaluation's
// bound, by which its errors are divided to be on our scale, [-1, 1]. A
// game gives it for the boards the chapter measured (Kit.Chapter), so
// that its figures are shown beside a tune of that board and no other.
type Chapter struct {
	Tables    string // "tables 5.6-5.8"
	Engine    string // its configuration, as a cpc spec without limits
	Positions string // "1,000 other positions"
	Points    int    // its evaluation is on [-Points, Points]
	Depths    []int  // the depths of its tables
	// Rows holds the tables as printed, per depth and t: the reduction in
	// tenths of a percent, ACPCME and DCPCME in hundredths of the
	// chapter's points.
	Rows map[int]map[float64][3]int
}

// Scale says on what scale the chapter's errors are given beside ours:
// its points divided by its bound, Points; its reductions are shares and
// need nothing.
func (c *Chapter) Scale() string {
	return fmt.Sprintf("the chapter's points / %d: its evaluation is on [-%d, %d], ours on [-1, 1]", c.Points, c.Points, c.Points)
}

// Figures returns the chapter's reduction (a share), ACPCME and DCPCME at
// depth d and width t, its errors on our scale (Scale), or NaN where the
// chapter has no figure (or c is nil).
func (c *Chapter) Figures(d int, t float64) (reduction, acpcme, dcpcme float64) {
	var f [3]int
	ok := false
	if c != nil {
		f, ok = c.Rows[d][t]
	}
	if !ok {
		return math.NaN(), math.NaN(), math.NaN()
	}
	// Integers divided once, so that 0.01 of its points is 0.001 exactly
	// as JSON writes it, not 0.0010000000000000002.
	div := float64(100 * c.Points)
	return float64(f[0]) / 1000, float64(f[1]) / div, float64(f[2]) / div
}

// ChapterOf returns the chapter's tuning tables of g's variant, nil when
// the chapter did not measure that board or g gives no chapter.
func (g Kit) ChapterOf(variant string) *Chapter {
	if g.Chapter == nil {
		return nil
	}
	return g.Chapter(variant)
}
