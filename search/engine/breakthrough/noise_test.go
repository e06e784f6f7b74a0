package breakthrough

import (
	"context"
	"math"
	"testing"

	"starlab/search"
	"starlab/search/game"
	"starlab/search/game/gametest"
)

// TestNoiseIsTheOraclesEvaluation: with noise=x, expectimax and Star2
// with the table off return the exact depth-limited value of an evaluator
// that adds search.Noisy of the position's key and the engine's salt to
// material, so the noise is one evaluation per position and game; another
// salt changes values, and noise=0 is material itself.
func TestNoiseIsTheOraclesEvaluation(t *testing.T) {
	const x = 0.02
	ps := positions("4x5", 12, 3)
	for _, salt := range []uint64{0, 99} {
		noisy := func(s game.State) float64 {
			return search.Noisy(s.(*Board).Evaluate(), s.(*Board).Key()^salt, x)
		}
		for _, algo := range []search.Algorithm{search.Expectimax, search.Star2} {
			c := search.DefaultConfig(algo)
			c.Eval, c.TTMiB, c.Noise = "material", 0, x
			e := New(c.MustResolve())
			e.SetSalt(salt)
			for _, p := range ps {
				for d := 1; d <= 3; d++ {
					got := e.Search(context.Background(), p, search.Limits{Depth: d}, nil).Last().Score
					if want := gametest.Value(p, d, false, noisy); math.Abs(got-want) > 1e-9 {
						t.Fatalf("%s noise=%g salt %d on %s depth %d: %v, exact %v", algo, x, salt, p, d, got, want)
					}
				}
			}
		}
	}
	// Another salt gives another evaluation of the same position.
	c := search.DefaultConfig(search.StarETC)
	c.Eval, c.Noise = "material", x
	e := New(c.MustResolve())
	differ := 0
	for _, p := range ps {
		if p.Pending() {
			continue
		}
		e.SetSalt(1)
		a := e.Evaluate(p)
		e.SetSalt(2)
		if b := e.Evaluate(p); a != b {
			differ++
		}
		if v := e.Evaluate(p); math.Abs(v-p.Evaluate()) > x {
			t.Errorf("%s: noisy %v is more than %g from material %v", p, v, x, p.Evaluate())
		}
	}
	if differ == 0 {
		t.Error("two salts gave every position the same evaluation")
	}
}

// TestNoisyBounds: the noise moves a value by at most x and keeps it in
// the evaluations' bounds.
func TestNoisyBounds(t *testing.T) {
	for key := uint64(0); key < 2000; key++ {
		for _, v := range []float64{-1, -0.999, 0, 0.5, 1} {
			n := search.Noisy(v, key*0x9e3779b97f4a7c15, 0.01)
			if n < -1 || n > 1 || math.Abs(n-v) > 0.01+1e-15 {
				t.Fatalf("Noisy(%v, key %d, 0.01) = %v", v, key, n)
			}
		}
	}
}
