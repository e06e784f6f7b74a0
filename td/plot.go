package td

import (
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io/fs"
	"math"
	"os"
	"path/filepath"

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

// panel is one panel of the learning curve: its plot, and its key drawn
// under it (figure.Key), where no entry covers a point.
type panel struct {
	plot *plot.Plot
	key  figure.Key
}

// curvePlots returns the two panels of the learning curve: the score
// against the game's hand evaluator (Dice's pairs, ChanceBreakthrough's
// material) with its 95% interval over pairs of games and the luck-adjusted
// score, and the mean training error (TD's, or the fit's to search
// targets), both against games trained.
func curvePlots(curve []CurvePoint) ([]*panel, error) {
	top, err := scorePanel(curve)
	if err != nil {
		return nil, err
	}
	bottom, err := errorPanel(curve, top.plot.X.Max)
	if err != nil {
		return nil, err
	}
	return []*panel{top, bottom}, nil
}

// scorePanel returns the learning curve's score panel.
//
// The score axis runs over what the scores and their intervals cover,
// with the 50% line, and never beyond 0% and 100%, the bounds of a score:
// an interval is cut there, and a luck-adjusted score outside them (the
// results minus the rolls' luck is an estimate, not a score) is left out,
// its key saying how many were.
func scorePanel(curve []CurvePoint) (*panel, error) {
	score, errs, luck, outside := scorePoints(curve)
	top := &panel{plot: plot.New()}
	top.plot.Title.Text = "Score against the hand evaluator at depth 1 (duplicate dice)"
	top.plot.Y.Label.Text = "score (%)"
	top.plot.X.Label.Text = "games trained"
	top.plot.Add(plotter.NewGrid())
	even := plotter.NewFunction(func(float64) float64 { return 50 })
	even.LineStyle.Color = color.Gray{Y: 120}
	even.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	top.plot.Add(even)
	top.key.Add("50%", even)
	if len(score) > 0 {
		line, points, bars, err := figure.YErrorLine(score, errs, color.RGBA{R: 31, G: 119, B: 180, A: 255})
		if err != nil {
			return nil, err
		}
		top.plot.Add(line, points, bars)
		top.key.Add("score ± 95%, duplicate dice", line, points)
	}
	if len(luck) > 0 {
		l, err := plotter.NewLine(luck)
		if err != nil {
			return nil, err
		}
		l.Color = color.RGBA{R: 214, G: 39, B: 40, A: 255}
		l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		top.plot.Add(l)
		name := "luck-adjusted score"
		if outside > 0 {
			name += fmt.Sprintf(" (%d outside 0-100%%, not drawn)", outside)
		}
		top.key.Add(name, l)
	}
	// The scores, their intervals and the 50% line (in sight, measured or
	// not) in whole tens, a point's width inside.
	low, high := 50.0, 50.0
	for i, p := range score {
		low, high = math.Min(low, p.Y-errs[i].Low), math.Max(high, p.Y+errs[i].High)
	}
	for _, p := range luck {
		low, high = math.Min(low, p.Y), math.Max(high, p.Y)
	}
	top.plot.Y.Min = math.Max(0, math.Floor((low-1)/10)*10)
	top.plot.Y.Max = math.Min(100, math.Ceil((high+1)/10)*10)
	// Every point's games on the axis, measured or not (an unfinished
	// run's last checkpoint may be unmeasured), and 0 games at the left.
	top.plot.X.Min = 0
	for _, p := range curve {
		top.plot.X.Max = math.Max(top.plot.X.Max, float64(p.Games))
	}
	return top, nil
}

// scorePoints returns the measured points of the curve in percent: the
// scores with their intervals cut at 0% and 100%, the luck-adjusted
// scores within them, and how many of those fell outside.
func scorePoints(curve []CurvePoint) (score plotter.XYs, errs plotter.YErrors, luck plotter.XYs, outside int) {
	for _, p := range curve {
		g := float64(p.Games)
		if s := float64(p.Score); finite(s) {
			score = append(score, plotter.XY{X: g, Y: 100 * s})
			ci := 100 * float64(p.ScoreCI95)
			if !finite(ci) {
				ci = 0 // no interval to draw
			}
			y := 100 * s
			errs = append(errs, struct{ Low, High float64 }{math.Min(ci, y), math.Min(ci, 100-y)})
			switch l := 100 * float64(p.LuckScore); {
			case !finite(l):
			case l < 0 || l > 100:
				outside++
			default:
				luck = append(luck, plotter.XY{X: g, Y: l})
			}
		}
	}
	return score, errs, luck, outside
}

// trainingError returns the curve's training error and its name: TD's,
// or the fit's where the run fitted search targets (a run has one of
// them, the other NaN).
func trainingError(curve []CurvePoint) (plotter.XYs, string) {
	var tdErr, fitErr plotter.XYs
	for _, p := range curve {
		g := float64(p.Games)
		if e := float64(p.TDError); finite(e) {
			tdErr = append(tdErr, plotter.XY{X: g, Y: e})
		}
		if e := float64(p.FitError); finite(e) {
			fitErr = append(fitErr, plotter.XY{X: g, Y: e})
		}
	}
	if len(fitErr) > len(tdErr) {
		return fitErr, "fit error"
	}
	return tdErr, "TD error"
}

// errorPanel returns the learning curve's error panel, its games axis
// from 0 to xMax, the score panel's.
func errorPanel(curve []CurvePoint, xMax float64) (*panel, error) {
	trainErr, name := trainingError(curve)
	exact, exactErrs := withInterval(curve, func(p CurvePoint) (runs.Num, float64) { return p.ExactMAE, 1.96 * float64(p.ExactSE) })
	judged, judgedErrs := withInterval(curve, func(p CurvePoint) (runs.Num, float64) { return p.JudgeLoss, float64(p.JudgeCI95) })
	bottom := &panel{plot: plot.New()}
	bottom.plot.Title.Text = "Mean |" + name + "| since the previous point"
	bottom.plot.X.Label.Text = "games trained"
	bottom.plot.Y.Label.Text = "|" + name + "|"
	bottom.plot.Add(plotter.NewGrid())
	if len(trainErr) > 0 {
		line, points, err := figure.LinePoints(trainErr, color.RGBA{R: 44, G: 160, B: 44, A: 255})
		if err != nil {
			return nil, err
		}
		bottom.plot.Add(line, points)
		if len(exact) > 0 || len(judged) > 0 {
			bottom.key.Add("|"+name+"|", line, points)
		}
	}
	if len(exact) > 0 {
		// The held-out suite's exact values (-judge): the same units, a
		// value's distance, so the two errors share the panel.
		bottom.plot.Title.Text += ", and the static error against exact values"
		bottom.plot.Y.Label.Text = "mean absolute error"
		if err := bottom.addInterval(exact, exactErrs, color.RGBA{R: 148, G: 103, B: 189, A: 255}, "|net - exact| on the held-out suite ± 95%"); err != nil {
			return nil, err
		}
	}
	if len(judged) > 0 {
		// The judge's loss per decision of the net's play (-judge-by): in
		// points, which are value units except where a value stands for
		// more (backgammon's money play: 3 points).
		bottom.plot.Title.Text += ", and the judged loss per decision"
		bottom.plot.Y.Label.Text = "error (value units; the judged loss in points)"
		if err := bottom.addInterval(judged, judgedErrs, color.RGBA{R: 214, G: 39, B: 40, A: 255}, "loss per decision in points, judged, ± 95%"); err != nil {
			return nil, err
		}
	}
	// The error from 0, so that its fall reads as a proportion, and the
	// games of both panels on one scale.
	bottom.plot.Y.Min = 0
	for _, p := range trainErr {
		bottom.plot.Y.Max = math.Max(bottom.plot.Y.Max, 1.1*p.Y) // the highest point inside
	}
	bottom.plot.X.Min, bottom.plot.X.Max = 0, xMax
	return bottom, nil
}

// withInterval returns the curve's points where fig gives a finite figure,
// with its interval's half-width (0 where that is not finite).
func withInterval(curve []CurvePoint, fig func(CurvePoint) (runs.Num, float64)) (plotter.XYs, plotter.YErrors) {
	var xy plotter.XYs
	var errs plotter.YErrors
	for _, p := range curve {
		v, half := fig(p)
		if !finite(float64(v)) {
			continue
		}
		if !finite(half) {
			half = 0
		}
		xy = append(xy, plotter.XY{X: float64(p.Games), Y: float64(v)})
		errs = append(errs, struct{ Low, High float64 }{half, half})
	}
	return xy, errs
}

// addInterval adds a line of points with their intervals to the panel,
// named in its key, and raises the panel's top to show them.
func (pn *panel) addInterval(xy plotter.XYs, errs plotter.YErrors, c color.RGBA, name string) error {
	line, points, bars, err := figure.YErrorLine(xy, errs, c)
	if err != nil {
		return err
	}
	pn.plot.Add(line, points, bars)
	pn.key.Add(name, line, points)
	for i, p := range xy {
		pn.plot.Y.Max = math.Max(pn.plot.Y.Max, 1.1*(p.Y+errs[i].High))
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// drawCurve draws the panels one above the other on c, each with its key
// under it.
func drawCurve(panels []*panel, c draw.Canvas) {
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(12), PadY: vg.Points(18)}
	cs := plot.Align([][]*plot.Plot{{panels[0].plot}, {panels[1].plot}}, tiles, c)
	for i, p := range panels {
		p.key.Draw(p.plot, cs[i][0])
	}
}

// curveSize is the learning curve's canvas.
const curveSize = 7 * vg.Inch

// CurvePNGData draws the learning curve and returns it as PNG data, for a
// page that shows a curve the run has not drawn yet (an interrupted run's).
func CurvePNGData(curve []CurvePoint) ([]byte, error) {
	plots, err := curvePlots(curve)
	if err != nil {
		return nil, fmt.Errorf("learning curve: %v", err)
	}
	return figure.PNG(curveSize, curveSize, func(c draw.Canvas) { drawCurve(plots, c) })
}

// ReadCurve reads the learning curve of the train run in dir: curve.parquet
// when the run has finished, else the points its state file holds so far
// (an unfinished run's checkpoints). A run with neither has no curve: an
// error wrapping fs.ErrNotExist. Files of earlier formats are read as
// this format's (see Format): format 1's without the opponent's name and
// the counts of pairs, and format 3's error put in the column of the
// target the run's manifest records.
func ReadCurve(dir string) ([]CurvePoint, error) {
	fit := func() (bool, error) { return recordedFit(dir) }
	curve, err := readCurveFile(filepath.Join(dir, CurveFile), fit)
	if !errors.Is(err, fs.ErrNotExist) {
		return curve, err
	}
	path := filepath.Join(dir, StateFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var st state
	if err := st.parse(data, fit); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return st.Curve, nil
}

// recordedFit says whether the train run in dir fitted search targets, as
// the settings of its manifest record. A directory without a manifest
// holds no record of its target: its curve is taken for TD's, the target
// of every run before search targets.
func recordedFit(dir string) (bool, error) {
	run, err := runs.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var set struct {
		Target string `json:"target"`
	}
	if err := json.Unmarshal(run.Manifest().Settings, &set); err != nil {
		return false, fmt.Errorf("%s: settings: %v", run.Path(runs.ManifestName), err)
	}
	return set.Target == TargetSearch, nil
}

// readCurveFile reads the curve.parquet at path, of Format or an earlier
// format; fit says, for format 3, whether the run fitted search targets.
func readCurveFile(path string, fit func() (bool, error)) ([]CurvePoint, error) {
	curve, err := runs.ReadParquet[CurvePoint](path, Format)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return curve, err
	}
	format, ferr := runs.ParquetFormat(path)
	lacks, old := oldLacks[format]
	if ferr != nil || !old {
		return nil, err
	}
	points, err := runs.ReadOldParquet[curvePointOld](path, format, lacks...)
	if err != nil {
		return nil, err
	}
	return upgrade(points, format, fit)
}

// WriteCurvePlots draws the learning curve as curve.png and curve.svg in
// the run directory.
func WriteCurvePlots(run *runs.Run, curve []CurvePoint) error {
	plots, err := curvePlots(curve)
	if err != nil {
		return fmt.Errorf("learning curve: %v", err)
	}
	return figure.Write(run, curveName, curveSize, curveSize, func(c draw.Canvas) { drawCurve(plots, c) })
}
