package td

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"starlab/runs"
	"starlab/runs/figure"
)

// The learning curve's pictures in the run directory.
const (
	CurvePNG  = curveName + ".png"
	CurveSVG  = curveName + ".svg"
	curveName = "curve"
)

// curvePlots returns the two panels of the learning curve: the score
// against pairs with its 95% interval over pairs and the luck-adjusted
// score, and the mean TD error, both against games trained.
func curvePlots(curve []CurvePoint) ([]*plot.Plot, error) {
	var score, luck plotter.XYs
	var errs plotter.YErrors
	var tdErr plotter.XYs
	for _, p := range curve {
		g := float64(p.Games)
		tdErr = append(tdErr, plotter.XY{X: g, Y: p.TDError})
		if s := float64(p.Score); !math.IsNaN(s) {
			score = append(score, plotter.XY{X: g, Y: 100 * s})
			ci := 100 * float64(p.ScoreCI95)
			errs = append(errs, struct{ Low, High float64 }{ci, ci})
			if l := float64(p.LuckScore); !math.IsNaN(l) {
				luck = append(luck, plotter.XY{X: g, Y: 100 * l})
			}
		}
	}
	top := plot.New()
	top.Title.Text = "Score against pairs at depth 1 (duplicate dice)"
	top.Y.Label.Text = "score (%)"
	top.X.Label.Text = "games trained"
	top.Add(plotter.NewGrid())
	even := plotter.NewFunction(func(float64) float64 { return 50 })
	even.LineStyle.Color = color.Gray{Y: 120}
	even.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	top.Add(even)
	top.Legend.Add("50%", even)
	if len(score) > 0 {
		line, points, err := plotter.NewLinePoints(score)
		if err != nil {
			return nil, err
		}
		line.Color, points.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}, color.RGBA{R: 31, G: 119, B: 180, A: 255}
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{score, errs})
		if err != nil {
			return nil, err
		}
		bars.Color = line.Color
		top.Add(line, points, bars)
		top.Legend.Add("score ± 95% over pairs", line, points)
	}
	if len(luck) > 0 {
		l, err := plotter.NewLine(luck)
		if err != nil {
			return nil, err
		}
		l.Color = color.RGBA{R: 214, G: 39, B: 40, A: 255}
		l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		top.Add(l)
		top.Legend.Add("luck-adjusted score", l)
	}
	// Room under the data for the legend, and 0 games at the left.
	low := 50.0
	for i, p := range score {
		low = math.Min(low, p.Y-errs[i].Low)
	}
	top.Y.Min = math.Floor(low/5)*5 - 10
	top.X.Min = 0
	top.Legend.Top, top.Legend.Left = false, false
	top.Legend.YPosition = draw.PosBottom

	bottom := plot.New()
	bottom.Title.Text = "Mean |TD error| since the previous point"
	bottom.X.Label.Text = "games trained"
	bottom.Y.Label.Text = "|TD error|"
	bottom.Add(plotter.NewGrid())
	if len(tdErr) > 0 {
		line, points, err := plotter.NewLinePoints(tdErr)
		if err != nil {
			return nil, err
		}
		line.Color, points.Color = color.RGBA{R: 44, G: 160, B: 44, A: 255}, color.RGBA{R: 44, G: 160, B: 44, A: 255}
		bottom.Add(line, points)
	}
	bottom.X.Min, bottom.X.Max = 0, top.X.Max
	return []*plot.Plot{top, bottom}, nil
}

// drawCurve draws the panels one above the other on c.
func drawCurve(plots []*plot.Plot, c draw.Canvas) {
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(12), PadY: vg.Points(18)}
	cs := plot.Align([][]*plot.Plot{{plots[0]}, {plots[1]}}, tiles, c)
	plots[0].Draw(cs[0][0])
	plots[1].Draw(cs[1][0])
}

// WriteCurvePlots draws the learning curve as curve.png and curve.svg in
// the run directory.
func WriteCurvePlots(run *runs.Run, curve []CurvePoint) error {
	plots, err := curvePlots(curve)
	if err != nil {
		return fmt.Errorf("learning curve: %v", err)
	}
	return figure.Write(run, curveName, 7*vg.Inch, 7*vg.Inch, func(c draw.Canvas) { drawCurve(plots, c) })
}
