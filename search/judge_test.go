package search

import (
	"math"
	"testing"
)

// TestJudge checks the mean absolute error and its standard error on
// figures worked by hand, and the best constant (the median).
func TestJudge(t *testing.T) {
	exact := []float64{0.5, -0.5, 0.25, 1}
	values := []float64{0.25, 0, 0.25, 0.5} // errors 0.25, 0.5, 0, 0.5
	j := Judge("x", values, exact)
	// mean 0.3125; deviations -0.0625, 0.1875, -0.3125, 0.1875; sum of squares 0.171875; sd √(0.171875/3)
	if j.N != 4 || math.Abs(j.MAE-0.3125) > 1e-15 || math.Abs(j.SE-math.Sqrt(0.171875/3)/2) > 1e-15 {
		t.Errorf("Judge: %+v", j)
	}
	if c := BestConstant(exact); c != 0.375 {
		t.Errorf("best constant of %v: %v, want the median 0.375", exact, c)
	}
	if c := BestConstant([]float64{3, -1, 2}); c != 2 {
		t.Errorf("best constant of an odd count: %v, want 2", c)
	}
	if j := Judge("none", nil, nil); j.N != 0 || j.MAE != 0 || j.SE != 0 {
		t.Errorf("no positions: %+v", j)
	}
}
