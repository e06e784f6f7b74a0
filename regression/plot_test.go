package regression

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"starlab/runs"
)

// TestScatterStacksAndLegend draws a pair's scatter plot where 86 of the
// event values sit on (1, 1), as won positions do: the stack is ringed and
// counted inside the axes, and the legend is kept off the axes, where it
// covered the band.
func TestScatterStacksAndLegend(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []Row
	for i := range 1479 {
		x, y := 1.0, 1.0
		if i >= 86 {
			x = 2*rng.Float64() - 1
			y = math.Max(-1, math.Min(1, 0.8*x+0.2*rng.NormFloat64()))
		}
		rows = append(rows, Row{ShallowDepth: 1, DeepDepth: 3, VShallow: x, VDeep: y})
	}
	sp, err := scatter(rows, Line{Shallow: 1, Deep: 3, A: 0.8, Sigma: 0.2}, 1.6, "test")
	if err != nil {
		t.Fatal(err)
	}
	c := draw.New(vgimg.New(6*vg.Inch, 6*vg.Inch))
	if r := sp.plot.Legend.Rectangle(c); r.Max.Y > r.Min.Y {
		t.Errorf("a legend %v high is drawn over the axes, want none", r.Max.Y-r.Min.Y)
	}
	if r := sp.legend.Rectangle(c); r.Max.Y <= r.Min.Y {
		t.Error("no legend under the axes")
	}
	if sp.plot.X.Max <= 1 || sp.plot.Y.Max <= 1 {
		t.Errorf("axes end at (%g, %g): the stack at (1, 1) sits on their edge", sp.plot.X.Max, sp.plot.Y.Max)
	}
	if n := sp.stacked[plotter.XY{X: 1, Y: 1}]; n != 86 {
		t.Errorf("stack at (1, 1) ringed with count %d, want 86 (all ringed: %v)", n, sp.stacked)
	}
}

// TestTunePlotHoldsTheChapter checks that the chapter's points, whose
// errors reach beyond ours, lie inside the tune plot rather than on its
// edge.
func TestTunePlotHoldsTheChapter(t *testing.T) {
	res := &TuneResult{Game: "dice", Variant: "5x5-4"}
	ch := diceGame.ChapterOf(res.Variant)
	for _, tt := range ChapterTs {
		cr, ca, _ := ch.Figures(9, tt)
		res.Rows = append(res.Rows, TuneRow{Depth: 9, T: tt, Engine: "cpc:eval=mlp", Reduction: runs.Num(cr * 0.9), ACPCME: runs.Num(ca * 0.5), ACPCMESE: runs.Num(ca * 0.1),
			ChapterFigures: chapterFigures(ch, 9, tt)})
	}
	p, err := tunePlot(res)
	if err != nil {
		t.Fatal(err)
	}
	if _, top, _ := ch.Figures(9, 0.05); p.X.Max < 1.1*top {
		t.Errorf("error axis ends at %g, on or inside the chapter's largest error %g plus a tenth", p.X.Max, top)
	}
}

// TestTunePlotRoundingErrors: errors that are rounding (cpc cut nothing
// that changed a value) are drawn on an axis at least minTuneAxis wide,
// not on one of 1e-16.
func TestTunePlotRoundingErrors(t *testing.T) {
	res := &TuneResult{Rows: []TuneRow{{Depth: 7, T: 1.6, Engine: "cpc:eval=mlp", Reduction: 0.04, ACPCME: 1.5e-16, ACPCMESE: 1e-16}}}
	p, err := tunePlot(res)
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Max < minTuneAxis {
		t.Errorf("error axis ends at %g, want at least %g", p.X.Max, minTuneAxis)
	}
}
