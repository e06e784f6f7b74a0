package td

import (
	"math"
	"testing"

	"gonum.org/v1/plot/vg/draw"

	"starlab/runs"
)

// TestCurvePlotAxes checks the learning curve's panels: the TD error from
// 0 with its highest point inside the axes (it started at the lowest
// error, which made a fall of a few percent look like a plunge), and
// points without a measurement or an error left out rather than failing
// the plot.
func TestCurvePlotAxes(t *testing.T) {
	nan := runs.Num(math.NaN())
	curve := []CurvePoint{
		{Games: 1000, TDError: 0.0700, FitError: nan, Score: nan, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan},
		{Games: 2000, TDError: 0.0620, FitError: nan, Score: 0.55, ScoreCI95: 0.05, LuckScore: 0.54, LuckCI95: 0.03},
		{Games: 3000, TDError: nan, FitError: nan, Score: 0.58, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan},
		{Games: 4000, TDError: 0.0575, FitError: nan, Score: 0.60, ScoreCI95: 0.05, LuckScore: 0.61, LuckCI95: 0.03},
	}
	plots, err := curvePlots(curve)
	if err != nil {
		t.Fatal(err)
	}
	errAxis := plots[1].plot.Y
	if errAxis.Min != 0 {
		t.Errorf("TD error axis starts at %g, want 0", errAxis.Min)
	}
	if errAxis.Max <= 0.0700 {
		t.Errorf("TD error axis ends at %g, at or below the highest error 0.07", errAxis.Max)
	}
	if _, err := CurvePNGData(curve); err != nil {
		t.Errorf("draw: %v", err)
	}
}

// TestCurvePlotUnfinished checks the curve of a run stopped after
// checkpoints without a measurement: every point's games are on both
// panels' axes, and the score panel shows its 50% line.
func TestCurvePlotUnfinished(t *testing.T) {
	nan := runs.Num(math.NaN())
	for _, curve := range [][]CurvePoint{
		{{Games: 4000, TDError: 0.07, FitError: nan, Score: nan, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan, MeanPlies: nan}},
		{{Games: 4000, TDError: 0.07, FitError: nan, Score: nan, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan, MeanPlies: nan},
			{Games: 8000, TDError: 0.06, FitError: nan, Score: 0.55, ScoreCI95: 0.05, LuckScore: 0.54, LuckCI95: 0.03},
			{Games: 12000, TDError: 0.05, FitError: nan, Score: nan, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan, MeanPlies: nan}},
	} {
		plots, err := curvePlots(curve)
		if err != nil {
			t.Fatal(err)
		}
		last := float64(curve[len(curve)-1].Games)
		for i, p := range plots {
			if p.plot.X.Min != 0 || p.plot.X.Max < last {
				t.Errorf("%d points, panel %d: games axis %g to %g, want 0 to at least %g", len(curve), i, p.plot.X.Min, p.plot.X.Max, last)
			}
		}
		if y := plots[0].plot.Y; y.Min > 50 || y.Max < 50 {
			t.Errorf("%d points: score axis %g to %g leaves out the 50%% line", len(curve), y.Min, y.Max)
		}
		if _, err := CurvePNGData(curve); err != nil {
			t.Errorf("draw: %v", err)
		}
	}
}

// TestCurvePlotScoreAxisAndKey: the score axis never runs beyond 0% or
// 100% (it ran to -10% under scores near 0 to make room for a legend),
// an interval is cut at those bounds and a luck-adjusted score beyond
// them is left out, its key entry saying so; and no panel draws a legend
// inside its axes, over the data: each has its key under it.
func TestCurvePlotScoreAxisAndKey(t *testing.T) {
	nan := runs.Num(math.NaN())
	for _, c := range []struct {
		name     string
		curve    []CurvePoint
		min, max float64
	}{
		{"losing", []CurvePoint{
			{Games: 1000, TDError: 0.07, FitError: nan, Score: 0.02, ScoreCI95: 0.05, LuckScore: -0.03, LuckCI95: 0.02},
			{Games: 2000, TDError: 0.06, FitError: nan, Score: 0.10, ScoreCI95: 0.05, LuckScore: 0.08, LuckCI95: 0.02},
		}, 0, 60},
		{"winning", []CurvePoint{
			{Games: 1000, TDError: 0.07, FitError: nan, Score: 0.97, ScoreCI95: 0.05, LuckScore: 1.02, LuckCI95: 0.02},
			{Games: 2000, TDError: 0.06, FitError: nan, Score: 0.93, ScoreCI95: nan, LuckScore: 0.95, LuckCI95: nan, ExactMAE: 0.2, ExactSE: 0.01, JudgeLoss: nan, JudgeCI95: nan},
		}, 40, 100},
	} {
		panels, err := curvePlots(c.curve)
		if err != nil {
			t.Fatal(err)
		}
		if y := panels[0].plot.Y; y.Min != c.min || y.Max != c.max {
			t.Errorf("%s: score axis %g to %g, want %g to %g", c.name, y.Min, y.Max, c.min, c.max)
		}
		if got := panels[0].key.Len(); got != 3 {
			t.Errorf("%s: score panel's key has %d entries, want 3 (50%%, score, luck-adjusted)", c.name, got)
		}
		for i, p := range panels {
			if r := p.plot.Legend.Rectangle(draw.Canvas{}); r.Size().X != 0 {
				t.Errorf("%s: panel %d draws a legend inside its axes", c.name, i)
			}
		}
		if _, err := CurvePNGData(c.curve); err != nil {
			t.Errorf("%s: draw: %v", c.name, err)
		}
	}
}

// TestCurvePlotFitError: the error panel of a run of search targets draws
// its fit error, named as such, from 0 with its highest point inside; a
// TD run's names the TD error.
func TestCurvePlotFitError(t *testing.T) {
	nan := runs.Num(math.NaN())
	for _, c := range []struct {
		curve []CurvePoint
		name  string
	}{
		{[]CurvePoint{
			{Games: 20, TDError: nan, FitError: 0.30, Score: 0.5, ScoreCI95: 0.1, LuckScore: 0.5, LuckCI95: 0.1, ExactMAE: nan, ExactSE: nan, JudgeLoss: nan, JudgeCI95: nan},
			{Games: 40, TDError: nan, FitError: 0.20, Score: 0.6, ScoreCI95: 0.1, LuckScore: 0.5, LuckCI95: 0.1, ExactMAE: nan, ExactSE: nan, JudgeLoss: nan, JudgeCI95: nan},
		}, "fit error"},
		{[]CurvePoint{
			{Games: 20, TDError: 0.30, FitError: nan, Score: 0.5, ScoreCI95: 0.1, LuckScore: 0.5, LuckCI95: 0.1, ExactMAE: nan, ExactSE: nan, JudgeLoss: nan, JudgeCI95: nan},
		}, "TD error"},
	} {
		plots, err := curvePlots(c.curve)
		if err != nil {
			t.Fatal(err)
		}
		p := plots[1].plot
		if p.Title.Text != "Mean |"+c.name+"| since the previous point" || p.Y.Label.Text != "|"+c.name+"|" {
			t.Errorf("error panel titled %q, its axis %q: want the %s", p.Title.Text, p.Y.Label.Text, c.name)
		}
		if p.Y.Min != 0 || p.Y.Max <= 0.30 {
			t.Errorf("%s axis %g to %g, want 0 to above the highest error 0.30", c.name, p.Y.Min, p.Y.Max)
		}
	}
}
