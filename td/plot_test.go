package td

import (
	"math"
	"testing"

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
		{Games: 1000, TDError: 0.0700, Score: nan, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan},
		{Games: 2000, TDError: 0.0620, Score: 0.55, ScoreCI95: 0.05, LuckScore: 0.54, LuckCI95: 0.03},
		{Games: 3000, TDError: math.NaN(), Score: 0.58, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan},
		{Games: 4000, TDError: 0.0575, Score: 0.60, ScoreCI95: 0.05, LuckScore: 0.61, LuckCI95: 0.03},
	}
	plots, err := curvePlots(curve)
	if err != nil {
		t.Fatal(err)
	}
	errAxis := plots[1].Y
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
		{{Games: 4000, TDError: 0.07, Score: nan, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan, MeanPlies: nan}},
		{{Games: 4000, TDError: 0.07, Score: nan, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan, MeanPlies: nan},
			{Games: 8000, TDError: 0.06, Score: 0.55, ScoreCI95: 0.05, LuckScore: 0.54, LuckCI95: 0.03},
			{Games: 12000, TDError: 0.05, Score: nan, ScoreCI95: nan, LuckScore: nan, LuckCI95: nan, MeanPlies: nan}},
	} {
		plots, err := curvePlots(curve)
		if err != nil {
			t.Fatal(err)
		}
		last := float64(curve[len(curve)-1].Games)
		for i, p := range plots {
			if p.X.Min != 0 || p.X.Max < last {
				t.Errorf("%d points, panel %d: games axis %g to %g, want 0 to at least %g", len(curve), i, p.X.Min, p.X.Max, last)
			}
		}
		if y := plots[0].Y; y.Min > 50 || y.Max < 50 {
			t.Errorf("%d points: score axis %g to %g leaves out the 50%% line", len(curve), y.Min, y.Max)
		}
		if _, err := CurvePNGData(curve); err != nil {
			t.Errorf("draw: %v", err)
		}
	}
}
