package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTanh: tanh is within 1e-15 of math.Tanh over [-25, 25], on a fine
// grid, at random points of every scale and around the points where its
// table's index changes; it is ±1 from 20 on and NaN at NaN.
func TestTanh(t *testing.T) {
	worst := 0.0
	check := func(x float64) {
		got, want := tanh(x), math.Tanh(x)
		worst = max(worst, math.Abs(got-want))
		if math.Abs(got-want) > 1e-15 {
			t.Fatalf("tanh(%.17g) = %.17g, math.Tanh %.17g", x, got, want)
		}
	}
	for x := -25.0; x <= 25; x += 1.0 / 4096 {
		check(x)
	}
	rng := rand.New(rand.NewPCG(20, 21))
	for i := 0; i < 1_000_000; i++ {
		check((rng.Float64()*2 - 1) * math.Pow(10, rng.Float64()*5-4))
	}
	for k := 0; k < 64*30; k++ { // where k, the rounding of 2|x|·64/ln2, changes
		for _, x := range []float64{(float64(k) + 0.5) * math.Ln2 / 128, -(float64(k) + 0.5) * math.Ln2 / 128} {
			check(math.Nextafter(x, 0))
			check(x)
			check(math.Nextafter(x, 2*x))
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1e-300, 20, -20, 1e300, math.Inf(1), math.Inf(-1)} {
		check(x)
	}
	if !math.IsNaN(tanh(math.NaN())) {
		t.Errorf("tanh(NaN) = %v", tanh(math.NaN()))
	}
	t.Logf("largest difference from math.Tanh: %.3g", worst)
}
