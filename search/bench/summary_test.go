package bench

import (
	"math"
	"path/filepath"
	"testing"

	"starlab/runs"
)

// TestSummaryFileKeepsUndefinedFigures: summary.json, written as the
// bench writes it and read back as the pipeline and the report read it,
// keeps the undefined standard deviation of one position, the unbounded
// rate of a search measured in no time and an undefined ratio, instead of
// reading them as 0.
func TestSummaryFileKeepsUndefinedFigures(t *testing.T) {
	nan, inf := runs.Num(math.NaN()), runs.Num(math.Inf(1))
	a := AlgoSummary{Algo: "staretc", Nodes: Dist{Min: 5, Max: 5, Mean: 5, Median: 5, Std: nan},
		TimeMS: Dist{Min: 0, Max: 0, Mean: 0, Median: 0, Std: nan}, NodesPerS: inf, MeanRatio: nan,
		RatioOfMeans: map[string]runs.Num{"star1": -inf, "star2": nan}}
	sum := &Summary{Format: Format, Positions: 1, Results: []DepthSummary{{Depth: 3, Algos: []AlgoSummary{a}}}}
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "b"), "bench", nil, Settings{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if err := runs.WriteJSON(run, SummaryFile, sum); err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := runs.ReadJSON(run.Path(SummaryFile), &back); err != nil {
		t.Fatal(err)
	}
	g := back.Results[0].Algos[0]
	for _, c := range []struct {
		name      string
		got, want runs.Num
	}{
		{"nodes std", g.Nodes.Std, nan}, {"nodes mean", g.Nodes.Mean, 5}, {"time std", g.TimeMS.Std, nan},
		{"nodes per s", g.NodesPerS, inf}, {"mean ratio", g.MeanRatio, nan},
		{"ratio of means star1", g.RatioOfMeans["star1"], -inf}, {"ratio of means star2", g.RatioOfMeans["star2"], nan},
	} {
		x, y := float64(c.got), float64(c.want)
		if !(x == y || math.IsNaN(x) && math.IsNaN(y)) {
			t.Errorf("%s read back as %v, want %v", c.name, x, y)
		}
	}
}
