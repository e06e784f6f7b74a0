package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"starlab/runs/figure"
	"starlab/search/bench"
	"starlab/selfplay"
)

var palette = []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255}, {140, 86, 75, 255}}

// nodesPlot draws each algorithm's mean nodes against depth on a log
// scale, as figure 5.1 of the thesis, and returns the PNG.
func nodesPlot(sum *bench.Summary) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Mean nodes to depth over the suite"
	p.X.Label.Text = "depth (plies, chance plies included)"
	p.Y.Label.Text = "mean nodes"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = powerTicks{}
	var depths depthTicks
	for _, d := range sum.Results {
		depths = append(depths, float64(d.Depth))
	}
	p.X.Tick.Marker = depths
	p.Add(plotter.NewGrid())
	var key figure.Key
	for k, algo := range sum.Algos {
		var xy plotter.XYs
		for _, d := range sum.Results {
			for _, a := range d.Algos {
				if m := float64(a.Nodes.Mean); a.Algo == algo && m > 0 && !math.IsInf(m, 0) {
					xy = append(xy, plotter.XY{X: float64(d.Depth), Y: m})
				}
			}
		}
		if len(xy) == 0 {
			continue
		}
		line, points, err := figure.LinePoints(xy, palette[k%len(palette)])
		if err != nil {
			return nil, err
		}
		points.Shape = draw.CircleGlyph{}
		p.Add(line, points)
		key.Add(algo, line, points)
	}
	// The end points inside the axes, not on their edges.
	p.X.Min, p.X.Max = p.X.Min-0.25, p.X.Max+0.25
	p.Y.Min, p.Y.Max = p.Y.Min/1.5, p.Y.Max*1.5
	return figure.PNG(6*vg.Inch, 4.5*vg.Inch, func(c draw.Canvas) { key.Draw(p, c) })
}

// powerTicks marks a log axis at the powers of ten, each labelled in one
// form, 10ⁿ, where plot.LogTicks mixes 100000 with 1e+07.
type powerTicks struct{}

// Ticks returns the powers of ten from min to max, labelled, and the
// multiples between them; on an axis of fewer than three powers, the
// multiples 2 and 5 are labelled too (2·10ⁿ, 5·10ⁿ).
func (powerTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	powers := 0
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = power(int(math.Round(math.Log10(ticks[i].Value))))
			if min <= ticks[i].Value && ticks[i].Value <= max {
				powers++ // on the axis
			}
		}
	}
	if powers >= 3 {
		return ticks
	}
	for i, t := range ticks {
		e := math.Floor(math.Log10(t.Value) + 1e-9)
		if m := math.Round(t.Value / math.Pow(10, e)); t.Label == "" && (m == 2 || m == 5) {
			ticks[i].Label = fmt.Sprintf("%.0f·%s", m, power(int(e)))
		}
	}
	return ticks
}

// power writes 10ⁿ with superscript digits.
func power(n int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var b strings.Builder
	b.WriteString("10")
	if n < 0 {
		b.WriteRune('⁻')
		n = -n
	}
	for _, c := range fmt.Sprint(n) {
		b.WriteRune(digits[c-'0'])
	}
	return b.String()
}

// tensTicks marks every multiple of ten, labelled as a whole number.
type tensTicks struct{}

// Ticks returns the multiples of ten from min to max.
func (tensTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for v := math.Ceil(min/10) * 10; v <= max; v += 10 {
		out = append(out, plot.Tick{Value: v, Label: fmt.Sprintf("%.0f", v)})
	}
	return out
}

// depthTicks labels each depth measured and marks the other whole numbers
// between them, so that no measured depth goes without its label.
type depthTicks []float64

// Ticks returns a labelled tick at each depth and a minor one at each other
// whole number from min to max.
func (ds depthTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for x := math.Ceil(min); x <= max; x++ {
		t := plot.Tick{Value: x}
		if slices.Contains(ds, x) {
			t.Label = strconv.Itoa(int(x))
		}
		out = append(out, t)
	}
	return out
}

// scorePlot draws, for each pairing of a match, the first variant's score
// with its 95% interval over games, over pairs and, luck-adjusted, over
// pairs, against the even score: one row per pairing, named by the
// variants' numbers, the key under the axes. Intervals that are not
// finite are left out, and the others cut at 0% and 100%, the bounds of
// a score, beyond which the axis never runs; a luck-adjusted score
// beyond them (an estimate, not a score) is left out, its key saying how
// many were.
func scorePlot(pairings []selfplay.Summary, number map[string]int) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Score of the first variant of each pairing, with 95% intervals"
	p.X.Label.Text = "score (%)"
	p.Add(plotter.NewGrid())
	n := len(pairings)
	even := plotter.XYs{{X: 50, Y: -0.6}, {X: 50, Y: float64(n) - 0.4}}
	el, err := plotter.NewLine(even)
	if err != nil {
		return nil, err
	}
	el.Color = color.Gray{Y: 110}
	el.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(el)
	lo, hi := 50.0, 50.0
	var key figure.Key
	for k, kind := range scoreKinds {
		var xy plotter.XYs
		var xe plotter.XErrors
		outside := 0
		for i, s := range pairings {
			x, ci := kind.score(s)
			switch {
			case math.IsNaN(x) || math.IsInf(x, 0):
				continue
			case x < 0 || x > 1:
				outside++
				continue
			}
			if math.IsNaN(ci) || math.IsInf(ci, 0) {
				ci = 0
			}
			// Top to bottom in the order of the pairings, the three
			// kinds a little apart.
			xy = append(xy, plotter.XY{X: 100 * x, Y: float64(n-1-i) + 0.22*float64(1-k)})
			low, high := math.Min(ci, x), math.Min(ci, 1-x)
			xe = append(xe, struct{ Low, High float64 }{100 * low, 100 * high})
			lo, hi = math.Min(lo, 100*(x-low)), math.Max(hi, 100*(x+high))
		}
		name := kind.name
		if outside > 0 {
			name += fmt.Sprintf(" (%d outside 0-100%%, not drawn)", outside)
		}
		if len(xy) == 0 {
			if outside > 0 {
				key.Add(name)
			}
			continue
		}
		c := palette[k]
		pts, err := figure.Scatter(xy, kind.shape, vg.Points(3), c)
		if err != nil {
			return nil, err
		}
		bars, err := figure.XErrorBars(xy, xe, c)
		if err != nil {
			return nil, err
		}
		p.Add(bars, pts)
		key.Add(name, pts)
	}
	p.Y.Tick.Marker = plot.ConstantTicks(pairingTicks(pairings, number))
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	// Whole tens, the even score well inside.
	p.X.Min = math.Max(0, math.Min(40, math.Floor(lo/10)*10))
	p.X.Max = math.Min(100, math.Max(60, math.Ceil(hi/10)*10))
	p.X.Tick.Marker = tensTicks{}
	w := 7 * vg.Inch
	h := 1.3*vg.Inch + vg.Length(n)*0.55*vg.Inch
	h += key.Height(w - vg.Inch) // about the data area's width
	return figure.PNG(w, h, func(c draw.Canvas) { key.Draw(p, c) })
}

// scoreKinds are the scores scorePlot draws for each pairing, each with
// its interval and its glyph; a pairing without luck has no luck-adjusted
// score (NaN).
var scoreKinds = []struct {
	name  string
	score func(s selfplay.Summary) (float64, float64)
	shape draw.GlyphDrawer
}{
	{"over games", func(s selfplay.Summary) (float64, float64) { return s.Score, s.ScoreCI95 }, draw.CircleGlyph{}},
	{"over pairs", func(s selfplay.Summary) (float64, float64) { return s.Score, s.ScoreCI95Pairs }, draw.SquareGlyph{}},
	{"luck-adjusted, over pairs", func(s selfplay.Summary) (float64, float64) {
		if !s.Luck {
			return math.NaN(), math.NaN()
		}
		return float64(s.LuckScore), float64(s.LuckCI95)
	}, draw.TriangleGlyph{}},
}

// pairingTicks names the rows of scorePlot, top to bottom in the order of
// the pairings, by the variants' numbers.
func pairingTicks(pairings []selfplay.Summary, number map[string]int) []plot.Tick {
	n := len(pairings)
	var ticks []plot.Tick
	for i, s := range pairings {
		ticks = append(ticks, plot.Tick{Value: float64(n - 1 - i), Label: fmt.Sprintf("%d vs %d", number[s.A], number[s.B])})
	}
	return ticks
}
