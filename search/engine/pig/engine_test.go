package pig

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"starlab/search"
	"starlab/search/game"
	rules "starlab/search/pig"
)

// TestClassicFigure: the first player's chance of winning the classic
// game, to 100, under optimal play is 0.5306 (Neller and Presser 2004).
func TestClassicFigure(t *testing.T) {
	s := newSolver(100, false)
	b, _ := rules.New(100, false)
	p := (1 + s.value(s.exact(), b)) / 2
	if got := math.Round(p * 1e4); got != 5306 {
		t.Fatalf("the first player wins %.6f of games to 100, want 0.5306", p)
	}
	t.Logf("the first player wins %.7f of games to 100 under optimal play", p)
}

// positions returns n positions of variant reached by random play from
// its start, decisions and chance nodes.
func positions(t *testing.T, variant string, n int, seed uint64) []*Board {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []*Board
	for len(out) < n {
		s, err := rules.Game{}.New(variant)
		if err != nil {
			t.Fatal(err)
		}
		for s.Kind() != game.Over && len(out) < n {
			if rng.IntN(4) == 0 {
				out = append(out, s.Clone().(*Board))
			}
			if s.Kind() == game.Decision {
				s.Play(game.Move(rng.IntN(2)))
			} else {
				events, total := s.Outcomes(nil)
				e, _ := game.EventAt(events, rng.IntN(total))
				s.Happen(e)
			}
		}
	}
	return out
}

// sound are the sound algorithms.
var sound = []search.Algorithm{search.Expectimax, search.Star1, search.Star2, search.StarETC}

// newEngine returns an engine of algo with eval and a table of ttMiB.
func newEngine(algo search.Algorithm, eval string, ttMiB int) *Engine {
	c := search.DefaultConfig(algo)
	c.Eval, c.TTMiB = eval, ttMiB
	return New(c.MustResolve())
}

// TestSearchesEqualSolver: with the table off, every sound algorithm's
// value at every iteration is the solver's depth-limited value to 1e-12,
// with both evaluators, on positions of two goals and the bag.
func TestSearchesEqualSolver(t *testing.T) {
	const depth = 5
	evals := map[string]func(i, j, total int) float64{
		"zero": func(int, int, int) float64 { return 0 },
	}
	for _, v := range []string{"12", "20", "bag12"} {
		goal, bag, _ := rules.ParseVariant(v)
		s := newSolver(goal, bag)
		evals["lead"] = func(i, j, total int) float64 { return float64(i+total-j) / float64(2*goal) }
		ps := positions(t, v, 8, uint64(goal))
		for eval, f := range evals {
			layers := s.limited(depth, f)
			for _, a := range sound {
				e := newEngine(a, eval, 0)
				for _, p := range ps {
					its := e.Search(context.Background(), p, search.Limits{Depth: depth}, nil).Iterations
					if len(its) != depth {
						t.Fatalf("%s eval=%s on %s: %d iterations, want %d", a, eval, p, len(its), depth)
					}
					for _, it := range its {
						if want := s.value(layers[it.Depth], p); math.Abs(it.Score-want) > 1e-12 {
							t.Fatalf("%s eval=%s on %s depth %d: %.15f, the solver's %.15f", a, eval, p, it.Depth, it.Score, want)
						}
					}
				}
			}
		}
	}
}

// TestTableOnEqualsSolver: with the table on, every sound algorithm's
// value is the solver's exact value to 1e-12 at a depth where the
// depth-limited values have converged to it: the table answers a search
// with values of other depths, each at least as deep as asked, so only
// there is a table-on value the depth-limited one.
func TestTableOnEqualsSolver(t *testing.T) {
	for _, tc := range []struct {
		variant string
		depth   int
	}{{"8", 50}, {"12", 70}, {"bag8", 50}} {
		goal, bag, _ := rules.ParseVariant(tc.variant)
		s := newSolver(goal, bag)
		exact := s.exact()
		last := s.limited(tc.depth, func(int, int, int) float64 { return 0 })[tc.depth]
		for _, p := range positions(t, tc.variant, 7, uint64(goal)+100) {
			want := s.value(exact, p)
			if d := math.Abs(s.value(last, p) - want); d > 1e-13 {
				t.Fatalf("%s: the solver's depth %d is %g from its exact value: too shallow for the check", p, tc.depth, d)
			}
			for _, a := range sound {
				e := newEngine(a, "zero", 4)
				lim := search.Limits{Depth: tc.depth, Nodes: 20_000_000} // a bound on the time a failure takes
				if v := e.Search(context.Background(), p, lim, nil).Last().Score; math.Abs(v-want) > 1e-12 {
					t.Fatalf("%s tt=4 on %s depth %d: %.15f, the solver's exact %.15f", a, p, tc.depth, v, want)
				}
			}
		}
	}
}

// TestTableGrowth: from the start of the race to 12, to depth 40 with the
// table on, no algorithm searches more than three times expectimax's
// nodes. Positions recur there at many depths, and a table that keeps
// bounds of windows later visits do not share made Star1 search a
// thousand times as many nodes, growing exponentially with depth where
// expectimax grows linearly (docs/search.md, "What the table keeps").
func TestTableGrowth(t *testing.T) {
	root, _ := rules.Parse("12 0 0 0 0")
	nodes := func(a search.Algorithm) int64 {
		c := search.DefaultConfig(a)
		c.Eval, c.TTMiB = "lead", 4
		lim := search.Limits{Depth: 40, Nodes: 10_000_000} // a bound on the time a failure takes
		return New(c.MustResolve()).Search(context.Background(), root, lim, nil).Last().Nodes
	}
	base := nodes(search.Expectimax)
	for _, a := range []search.Algorithm{search.Star1, search.Star2, search.StarETC, search.CPC} {
		if n := nodes(a); n > 3*base {
			t.Errorf("%s: %d nodes to depth 40, expectimax %d: more than three times", a, n, base)
		}
	}
}
