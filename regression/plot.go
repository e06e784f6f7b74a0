package regression

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"starlab/runs"
	"starlab/runs/figure"
	"starlab/search"
)

// ScatterName is the base name of a pair's scatter plot (.png and .svg).
func ScatterName(p Pair) string { return fmt.Sprintf("scatter-%d-%d", p.Shallow, p.Deep) }

// stackMin is the number of identical event values from which the
// scatter plot rings them and prints their count: at any transparency a
// stack of one value looks like one point (won positions stack at (1, 1)).
const stackMin = 5

// scatterPlot is a scatter plot with its legend, which is drawn under the
// axes rather than over the points and the band.
type scatterPlot struct {
	plot    *plot.Plot
	legend  plot.Legend
	stacked map[plotter.XY]int // the ringed values and their counts
}

// scatter draws the pairs (v_shallow, v_deep) of one depth pair with the
// fitted line and the band a*v + b ± t*sigma, as figures 5.11 and 5.12 of
// the chapter; values stacked at one point are ringed with their count.
func scatter(rows []Row, l Line, t float64, title string) (*scatterPlot, error) {
	pts := make(plotter.XYs, 0, len(rows))
	count := map[plotter.XY]int{}
	for _, r := range rows {
		if int(r.ShallowDepth) == l.Shallow && int(r.DeepDepth) == l.Deep {
			xy := plotter.XY{X: r.VShallow, Y: r.VDeep}
			pts = append(pts, xy)
			count[xy]++
		}
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = fmt.Sprintf("v_%d (shallow search value)", l.Shallow)
	p.Y.Label.Text = fmt.Sprintf("v_%d (deep search value)", l.Deep)
	// Room beyond ±1, where won and lost positions sit, for their rings.
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -1.12, 1.12, -1.12, 1.12
	p.Add(plotter.NewGrid())
	s, err := figure.Scatter(pts, draw.CircleGlyph{}, vg.Points(1.3), color.NRGBA{R: 31, G: 119, B: 180, A: 90})
	if err != nil {
		return nil, err
	}
	p.Add(s)
	fit := plotter.NewFunction(func(x float64) float64 { return l.A*x + l.B })
	fit.Color, fit.Width = color.RGBA{R: 214, G: 39, B: 40, A: 255}, vg.Points(1.6)
	lo := plotter.NewFunction(func(x float64) float64 { return l.A*x + l.B - t*l.Sigma })
	hi := plotter.NewFunction(func(x float64) float64 { return l.A*x + l.B + t*l.Sigma })
	for _, f := range []*plotter.Function{lo, hi} {
		f.Color, f.Width = color.RGBA{R: 214, G: 39, B: 40, A: 255}, vg.Points(1)
		f.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	p.Add(fit, lo, hi)
	sp := &scatterPlot{plot: p, legend: plot.NewLegend(), stacked: map[plotter.XY]int{}}
	sp.legend.Padding = vg.Points(3)
	sp.legend.Add(fmt.Sprintf("%d event values", len(pts)), s)
	sp.legend.Add(fitText(l), fit)
	sp.legend.Add(fmt.Sprintf("± %.1f σ, σ = %.3f", t, l.Sigma), lo)
	var stacks plotter.XYs
	var labels []string
	for _, xy := range pts {
		if n := count[xy]; n >= stackMin {
			stacks = append(stacks, xy)
			labels = append(labels, fmt.Sprintf("%d", n))
			sp.stacked[xy] = n
			count[xy] = 0 // once
		}
	}
	if len(stacks) > 0 {
		ring, err := figure.Scatter(stacks, draw.RingGlyph{}, vg.Points(5), color.RGBA{R: 0, G: 0, B: 0, A: 255})
		if err != nil {
			return nil, err
		}
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: stacks, Labels: labels})
		if err != nil {
			return nil, err
		}
		for i, xy := range stacks {
			lb.TextStyle[i].Font.Size = vg.Points(8)
			// Inward from the edge the value sits on, so that no count
			// leaves the axes.
			lb.TextStyle[i].XAlign, lb.TextStyle[i].YAlign = draw.XLeft, draw.YBottom
			if xy.X > 0 {
				lb.TextStyle[i].XAlign = draw.XRight
			}
			if xy.Y > 0 {
				lb.TextStyle[i].YAlign = draw.YTop
			}
		}
		p.Add(ring, stackLabels{lb})
		sp.legend.Add(fmt.Sprintf("%d or more identical values, ringed, with their count", stackMin), ring)
	}
	return sp, nil
}

// fitText is the legend of a fitted line: v_deep = (a ± SE) v_shallow ±
// (|b| ± SE), the standard errors clustered by position (Line.ASE), and
// R².
func fitText(l Line) string {
	f := func(x runs.Num) string { return x.Format("%.3f") }
	sign, b := "+", runs.Num(l.B)
	if f(b)[0] == '-' {
		sign, b = "−", -b
	}
	return fmt.Sprintf("v_%d = (%s ± %s) v_%d %s (%s ± %s)  (± SE over positions; R² %s)",
		l.Deep, f(runs.Num(l.A)), f(l.ASE), l.Shallow, sign, f(b), f(l.BSE), l.R2.Format("%.3f"))
}

// stackLabels draws each count beside its ring: 6 points inward, toward
// the middle of the plot.
type stackLabels struct{ *plotter.Labels }

func (l stackLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, xy := range l.XYs {
		st := l.TextStyle[i]
		dx, dy := vg.Points(7), vg.Points(7)
		if st.XAlign == draw.XRight {
			dx = -dx
		}
		if st.YAlign == draw.YTop {
			dy = -dy
		}
		c.FillText(st, vg.Point{X: trX(xy.X) + dx, Y: trY(xy.Y) + dy}, l.Labels.Labels[i])
	}
}

// draw draws the axes above and the legend in a strip below them.
func (sp *scatterPlot) draw(c draw.Canvas) {
	r := sp.legend.Rectangle(c)
	strip := r.Max.Y - r.Min.Y + vg.Points(14)
	sp.plot.Draw(draw.Crop(c, 0, 0, strip, 0))
	leg := draw.Crop(c, vg.Points(10), 0, vg.Points(6), -(c.Max.Y - c.Min.Y - strip))
	sp.legend.Top, sp.legend.Left = true, true
	sp.legend.Draw(leg)
}

// WriteScatterPlots draws every pair's scatter plot (its "all" line) into
// the run directory as scatter-S-D.png and .svg, and returns the base
// names.
func WriteScatterPlots(run *runs.Run, rows []Row, f FitResult, t float64) ([]string, error) {
	var names []string
	for _, l := range f.Lines {
		if l.Band != "all" {
			continue
		}
		title := fmt.Sprintf("Depths %d and %d, %s %s, eval=%s", l.Shallow, l.Deep, f.Game, f.Variant, f.Eval)
		sp, err := scatter(rows, l, t, title)
		if err != nil {
			return nil, fmt.Errorf("scatter %d:%d: %v", l.Shallow, l.Deep, err)
		}
		name := ScatterName(Pair{l.Shallow, l.Deep})
		if err := figure.Write(run, name, 6*vg.Inch, 6.8*vg.Inch, sp.draw); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

// engineStyles tell the engines of a tune plot apart, the first engine's
// first; the depths are told apart by colour.
var engineStyles = []struct {
	dashes []vg.Length
	glyph  draw.GlyphDrawer
}{
	{nil, draw.CircleGlyph{}},
	{[]vg.Length{vg.Points(1.5), vg.Points(2)}, draw.BoxGlyph{}},
	{[]vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}, draw.PyramidGlyph{}},
	{[]vg.Length{vg.Points(8), vg.Points(3)}, draw.CrossGlyph{}},
}

// errorPoints are a line's points with ACPCME ± its standard error, for
// plotter.NewXErrorBars; an undefined error draws no bar.
type errorPoints struct {
	plotter.XYs
	se []float64
}

func (e errorPoints) XError(i int) (float64, float64) {
	if math.IsNaN(e.se[i]) {
		return 0, 0
	}
	return e.se[i], e.se[i]
}

// shortSpec is an engine's spec with the paths it names cut to their
// base names, for a legend.
func shortSpec(spec string) string { return search.MapSpecFiles(spec, filepath.Base) }

// minTuneAxis is the least right edge of the tune plot's error axis.
const minTuneAxis = 0.001

// tunePlot draws the reduction in nodes against the mean move error, one
// line per depth and engine with a point per t and the error's standard
// error as a bar, beside the chapter's figures on our scale; the t of
// each point is written beside the first engine's.
func tunePlot(res *TuneResult) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "ChanceProbCut: nodes saved against move error"
	p.X.Label.Text = "ACPCME ± SE, on [-1, 1]"
	ch := res.Chapter()
	if ch != nil {
		p.X.Label.Text += fmt.Sprintf(" (the chapter's: its points / %d)", ch.Points)
	}
	p.Y.Label.Text = "nodes saved against staretc (%)"
	p.Add(plotter.NewGrid())
	colors := []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255}}
	var depths []int
	for _, r := range res.Rows {
		if !slices.Contains(depths, r.Depth) {
			depths = append(depths, r.Depth)
		}
	}
	engines := res.CPC
	if len(engines) == 0 { // rows alone, as tests make them
		for _, r := range res.Rows {
			if !slices.Contains(engines, r.Engine) {
				engines = append(engines, r.Engine)
			}
		}
	}
	chapter := false // whether the chapter has figures in the plot
	ts := &tLabels{}
	for k, d := range depths {
		c := colors[k%len(colors)]
		for e, name := range engines {
			var ours errorPoints
			var tsOf []float64
			for _, r := range res.Rows {
				if r.Depth != d || r.Engine != name || math.IsNaN(float64(r.ACPCME)) || math.IsNaN(float64(r.Reduction)) {
					continue
				}
				ours.XYs = append(ours.XYs, plotter.XY{X: float64(r.ACPCME), Y: 100 * float64(r.Reduction)})
				ours.se = append(ours.se, float64(r.ACPCMESE))
				tsOf = append(tsOf, r.T)
			}
			if len(ours.XYs) == 0 {
				continue
			}
			st := engineStyles[e%len(engineStyles)]
			line, points, err := figure.LinePoints(ours.XYs, c)
			if err != nil {
				return nil, err
			}
			line.Dashes = st.dashes
			points.Shape = st.glyph
			bars, err := figure.XErrorBars(ours.XYs, ours, c)
			if err != nil {
				return nil, err
			}
			bars.CapWidth = vg.Points(4)
			p.Add(bars, line, points)
			ts.avoid = append(ts.avoid, ours.XYs...)
			if e > 0 {
				continue
			}
			ts.xys = append(ts.xys, ours.XYs...)
			ts.ts = append(ts.ts, tsOf...)
			for range ours.XYs {
				ts.depths = append(ts.depths, d)
				ts.colors = append(ts.colors, c)
			}
		}
		// The chapter's figures, once per depth and t.
		var theirs plotter.XYs
		for _, r := range res.Rows {
			if red, acpcme, _ := ch.Figures(r.Depth, r.T); r.Depth == d && (len(engines) == 0 || r.Engine == engines[0]) && !math.IsNaN(red) {
				theirs = append(theirs, plotter.XY{X: acpcme, Y: 100 * red})
			}
		}
		if len(theirs) > 0 {
			tl, tp, err := figure.LinePoints(theirs, c)
			if err != nil {
				return nil, err
			}
			tl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			tp.Shape = draw.TriangleGlyph{}
			p.Add(tl, tp)
			ts.avoid = append(ts.avoid, theirs...)
			chapter = true
		}
		p.Legend.Add(fmt.Sprintf("depth %d", d), &plotter.Line{LineStyle: draw.LineStyle{Color: c, Width: vg.Points(2)}})
	}
	p.Add(ts)
	// The legend names the depths by colour and the engines by line and
	// marker, one entry each, rather than every pair of them.
	black := color.Black
	for e, name := range engines {
		st := engineStyles[e%len(engineStyles)]
		p.Legend.Add(fmt.Sprintf("%d: %s", e+1, shortSpec(name)),
			&plotter.Line{LineStyle: draw.LineStyle{Color: black, Width: vg.Points(1), Dashes: st.dashes}},
			&plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: black, Radius: vg.Points(2.5), Shape: st.glyph}})
	}
	if chapter && ch != nil {
		p.Legend.Add("the chapter, "+ch.Engine,
			&plotter.Line{LineStyle: draw.LineStyle{Color: black, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}},
			&plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: black, Radius: vg.Points(2.5), Shape: draw.TriangleGlyph{}}})
	}
	// Every point (the chapter's too), its error bar and its t label
	// inside the axes: the right edge a fifth beyond the largest error.
	low, right := 0.0, 0.0
	for _, r := range res.Rows {
		if x := 100 * float64(r.Reduction); !math.IsNaN(x) {
			low = math.Min(low, x)
		}
		if x := float64(r.ACPCME); !math.IsNaN(x) {
			if se := float64(r.ACPCMESE); !math.IsNaN(se) {
				x += se
			}
			right = math.Max(right, x)
		}
		if _, c, _ := ch.Figures(r.Depth, r.T); !math.IsNaN(c) {
			right = math.Max(right, c)
		}
	}
	// At least 0.001 wide: errors that are rounding (1e-16, where cpc cut
	// nothing that mattered) are drawn at 0, not on an axis of 1e-16.
	p.X.Min, p.Y.Min, p.Y.Max = 0, math.Floor(low/10)*10, 100
	p.X.Max = max(1.2*right, minTuneAxis)
	// Top left, where the curves, rising from no error and no saving,
	// seldom are.
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(6), -vg.Points(6)
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	return p, nil
}

// tLabels writes the t of each of the first engine's points beside the
// point, in its depth's colour, where the labels neither overprint one
// another nor cover a point (layoutTLabels).
type tLabels struct {
	xys    plotter.XYs // the labelled points, each depth's in order of t
	ts     []float64
	depths []int
	colors []color.Color
	avoid  plotter.XYs // every point drawn, labelled or not
}

func (l *tLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(xys plotter.XYs) []vg.Point {
		pts := make([]vg.Point, len(xys))
		for i, xy := range xys {
			pts[i] = vg.Point{X: trX(xy.X), Y: trY(xy.Y)}
		}
		return pts
	}
	sty := draw.TextStyle{Font: font.From(plot.DefaultFont, vg.Points(7)), Handler: plot.DefaultTextHandler}
	size := func(s string) (vg.Length, vg.Length) { return sty.Width(s), sty.Height(s) }
	for _, lb := range layoutTLabels(at(l.xys), l.ts, l.depths, at(l.avoid), size, c.Rectangle) {
		st := sty
		st.Color = l.colors[lb.point]
		c.FillText(st, lb.at, lb.text)
	}
}

// A tLabel is a t label placed: its text, the lower left corner of its
// box, and the index of the point it labels.
type tLabel struct {
	text  string
	at    vg.Point
	point int
}

// layoutTLabels places the t labels of the points pts (canvas positions)
// with their ts and depths. A run of points of one depth that lie within
// a point's glyph of one another (a t that cut no more than the one
// before it) is labelled once, with the first and last t ("t=3.2…0.05").
// Each label goes to the first of its point's right-above, right-below,
// left-above and left-below corners, level with it on the right or the
// left, or above or below it, near and then three times as far, where its
// box, of the size size gives, lies inside bounds and
// clear of the labels placed before it and
// of every point in avoid but its own; a label with no such place is left
// out, its neighbours' t telling it.
func layoutTLabels(pts []vg.Point, ts []float64, depths []int, avoid []vg.Point, size func(string) (w, h vg.Length), bounds vg.Rectangle) []tLabel {
	const (
		near = vg.Length(3)   // points closer than this coincide on the page
		gap  = vg.Length(2.5) // between a point and its label; a glyph's radius
	)
	coincide := func(a, b vg.Point) bool {
		return math.Abs(float64(a.X-b.X)) < float64(near) && math.Abs(float64(a.Y-b.Y)) < float64(near)
	}
	overlaps := func(a, b vg.Rectangle) bool {
		return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
	}
	var placed []vg.Rectangle
	var out []tLabel
	for i := 0; i < len(pts); {
		j := i + 1
		for j < len(pts) && depths[j] == depths[i] && coincide(pts[j], pts[i]) {
			j++
		}
		text := fmt.Sprintf("t=%g", ts[i])
		if j-i > 1 {
			text = fmt.Sprintf("t=%g…%g", ts[i], ts[j-1])
		}
		w, h := size(text)
		p := pts[i]
		var corners []vg.Point
		for _, g := range []vg.Length{gap, 3 * gap} {
			corners = append(corners,
				vg.Point{X: p.X + g, Y: p.Y + g}, vg.Point{X: p.X + g, Y: p.Y - g - h}, vg.Point{X: p.X - g - w, Y: p.Y + g}, vg.Point{X: p.X - g - w, Y: p.Y - g - h},
				vg.Point{X: p.X + 2*g, Y: p.Y - h/2}, vg.Point{X: p.X - 2*g - w, Y: p.Y - h/2},
				vg.Point{X: p.X - w/2, Y: p.Y + 2*g}, vg.Point{X: p.X - w/2, Y: p.Y - 2*g - h})
		}
		for _, corner := range corners {
			box := vg.Rectangle{Min: corner, Max: vg.Point{X: corner.X + w, Y: corner.Y + h}}
			free := box.Min.X >= bounds.Min.X && box.Max.X <= bounds.Max.X && box.Min.Y >= bounds.Min.Y && box.Max.Y <= bounds.Max.Y
			for _, r := range placed {
				free = free && !overlaps(box, r)
			}
			for _, q := range avoid {
				dot := vg.Rectangle{Min: vg.Point{X: q.X - gap, Y: q.Y - gap}, Max: vg.Point{X: q.X + gap, Y: q.Y + gap}}
				free = free && (coincide(q, p) || !overlaps(box, dot))
			}
			if free {
				placed = append(placed, box)
				out = append(out, tLabel{text: text, at: corner, point: i})
				break
			}
		}
		i = j
	}
	return out
}

// WriteTunePlot draws the tune table as tune.png and tune.svg.
func WriteTunePlot(run *runs.Run, res *TuneResult) error {
	p, err := tunePlot(res)
	if err != nil {
		return fmt.Errorf("tune plot: %v", err)
	}
	return writePlot(run, TunePlot, p)
}

// writePlot writes p as name.png and name.svg in the run directory.
func writePlot(run *runs.Run, name string, p *plot.Plot) error {
	return figure.Write(run, name, 6*vg.Inch, 6*vg.Inch, p.Draw)
}
