package bench

import (
	"testing"

	"starlab/runs"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{1, 9}, 5},
		{[]float64{1, 2, 10}, 2},
		{[]float64{1, 2, 4, 10}, 3},
	} {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
	d := distribution([]float64{4, 1, 3, 2})
	if d.Min != 1 || d.Max != 4 || d.Mean != 2.5 || d.Median != 2.5 {
		t.Errorf("distribution %+v", d)
	}
	if s := float64(d.Std); s < 1.2909 || s > 1.2910 { // sample std of 1..4: sqrt(5/3)
		t.Errorf("std %v, want sqrt(5/3)", s)
	}
}

func TestFmtNum(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{5813, "5813"}, {3.58e6, "3.58e+06"}, {99.8, "99.8"}, {219, "219"}, {0.0123, "0.0123"},
	} {
		if got := fmtNum(runs.Num(tc.x)); got != tc.want {
			t.Errorf("fmtNum(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}
