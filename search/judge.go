package search

import (
	"math"
	"slices"
)

// Judgement is how far an evaluator's values lie from the exact values
// of a suite's positions (gnubg's benchmark of rolled-out positions, on
// exact values): the mean absolute error over N positions and its
// standard error, the sample standard deviation of the absolute errors
// over √N.
type Judgement struct {
	Name string  `json:"name"`
	N    int     `json:"n"`
	MAE  float64 `json:"mae"`
	SE   float64 `json:"se"`
}

// Judge returns the judgement of values against exact, position by
// position (equal lengths).
func Judge(name string, values, exact []float64) Judgement {
	j := Judgement{Name: name, N: len(values)}
	if j.N == 0 {
		return j
	}
	errs := make([]float64, j.N)
	for i, v := range values {
		errs[i] = math.Abs(v - exact[i])
		j.MAE += errs[i]
	}
	j.MAE /= float64(j.N)
	if j.N > 1 {
		ss := 0.0
		for _, e := range errs {
			ss += (e - j.MAE) * (e - j.MAE)
		}
		j.SE = math.Sqrt(ss/float64(j.N-1)) / math.Sqrt(float64(j.N))
	}
	return j
}

// BestConstant returns the constant guess with the least mean absolute
// error against exact: its median (the mean of the two middle values
// for an even count). It is fitted on the values it is judged on, so its
// error is a floor for any constant, not a held-out figure.
func BestConstant(exact []float64) float64 {
	if len(exact) == 0 {
		return 0
	}
	s := append([]float64(nil), exact...)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
