package regression

import (
	"math"
	"math/rand/v2"
	"strings"
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
	res.Bind(diceGame)
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

// TestTLabelsDoNotOverprint lays out the t labels of a tune plot where one
// depth's points all coincide (cpc cut nothing at any t) and another's
// crowd together: the coinciding points get one label naming the first
// and last t, and no two labels overlap, none covers another point, and
// none leaves the canvas.
func TestTLabelsDoNotOverprint(t *testing.T) {
	ts := []float64{3.2, 1.6, 0.8, 0.4, 0.2, 0.1, 0.05}
	var pts []vg.Point
	var tt []float64
	var depths []int
	for _, x := range ts {
		pts, tt, depths = append(pts, vg.Point{X: 50, Y: 50}), append(tt, x), append(depths, 7)
	}
	for i, x := range ts {
		pts = append(pts, vg.Point{X: 50 + vg.Length(3*i), Y: 60 + vg.Length(4*i)})
		tt, depths = append(tt, x), append(depths, 9)
	}
	size := func(s string) (vg.Length, vg.Length) { return vg.Length(4 * len([]rune(s))), 7 }
	bounds := vg.Rectangle{Max: vg.Point{X: 400, Y: 400}}
	labels := layoutTLabels(pts, tt, depths, pts, size, bounds)
	if len(labels) == 0 || labels[0].text != "t=3.2…0.05" || len(labels) > 1 && labels[1].point < 7 {
		t.Fatalf("the coinciding points are labelled %v, want one label t=3.2…0.05", labels)
	}
	box := func(l tLabel) vg.Rectangle {
		w, h := size(l.text)
		return vg.Rectangle{Min: l.at, Max: vg.Point{X: l.at.X + w, Y: l.at.Y + h}}
	}
	for i, a := range labels {
		ra := box(a)
		if ra.Min.X < bounds.Min.X || ra.Min.Y < bounds.Min.Y || ra.Max.X > bounds.Max.X || ra.Max.Y > bounds.Max.Y {
			t.Errorf("label %q leaves the canvas: %v", a.text, ra)
		}
		for _, b := range labels[i+1:] {
			if rb := box(b); ra.Min.X < rb.Max.X && rb.Min.X < ra.Max.X && ra.Min.Y < rb.Max.Y && rb.Min.Y < ra.Max.Y {
				t.Errorf("labels %q %v and %q %v overlap", a.text, ra, b.text, rb)
			}
		}
		for k, p := range pts {
			if k != a.point && p != pts[a.point] && p.X > ra.Min.X && p.X < ra.Max.X && p.Y > ra.Min.Y && p.Y < ra.Max.Y {
				t.Errorf("label %q %v covers point %d at %v", a.text, ra, k, p)
			}
		}
	}
	if len(labels) < 6 {
		t.Errorf("%d labels of 8 placed: %v", len(labels), labels)
	}
}

// TestFitTextHasIntervals: the scatter plot's fitted line carries the
// standard errors of a and b, and a negative intercept its own sign.
func TestFitTextHasIntervals(t *testing.T) {
	l := Line{Shallow: 3, Deep: 7, A: 0.9, B: -0.02, ASE: 0.01, BSE: 0.005, R2: 0.9}
	if got, want := fitText(l), "v_7 = (0.900 ± 0.010) v_3 − (0.020 ± 0.005)  (± SE over positions; R² 0.900)"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
	l.B = -0.0004 // rounds to 0: no minus
	if got := fitText(l); !strings.Contains(got, "v_3 + (0.000 ± 0.005)") {
		t.Errorf("legend %q", got)
	}
}
