package toy

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/search"
	"starlab/search/game"
	"starlab/search/game/gametest"
	rules "starlab/search/game/toy"
)

// positions returns count random toy positions (decisions and chance
// nodes, none over) of targets 4 to 8.
func positions(count int, seed uint64) []*Board {
	rng := rand.New(rand.NewPCG(seed, 7))
	var ps []*Board
	for len(ps) < count {
		target := 4 + rng.IntN(5)
		text := []string{"0", "1", "r0", "r1"}[rng.IntN(4)]
		b, err := rules.Parse(itoa(target) + " " + itoa(rng.IntN(target)) + " " + itoa(rng.IntN(target)) + " " + text)
		if err != nil {
			panic(err)
		}
		ps = append(ps, b)
	}
	return ps
}

func itoa(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }

// engine returns an engine of algo and eval with a table of ttMiB (0: off).
func engine(algo search.Algorithm, eval string, ttMiB, k int) *Engine {
	c := search.DefaultConfig(algo)
	c.Eval, c.TTMiB, c.ProbingFactor = eval, ttMiB, k
	return New(c.MustResolve())
}

// evals are the evaluators an engine can name without a net file, with
// the oracle's evaluation of each: "race" is the game's hand evaluator.
// The net, which needs a file, is checked by TestNetAgreeWithExact.
var evals = map[string]func(game.State) float64{
	"zero": func(game.State) float64 { return 0 },
	"race": func(s game.State) float64 { return s.(*Board).Evaluate() },
}

// TestSoundAgreeWithExact: with the table off, expectimax, Star1, Star2
// and StarETC return the exact depth-limited value (gametest.Value) to
// 1e-9 at every depth from 1 to 6, over decisions and chance nodes, with
// every evaluator and probing factors 1 and 2: the weighted chance
// windows, the optional chance after a roll and the depth that counts
// decisions only, checked against the plain recursion.
func TestSoundAgreeWithExact(t *testing.T) {
	ps := positions(40, 1)
	for eval, ev := range evals {
		for _, algo := range []search.Algorithm{search.Expectimax, search.Star1, search.Star2, search.StarETC} {
			for _, k := range []int{1, 2} {
				e := engine(algo, eval, 0, k)
				for _, p := range ps {
					res := e.Search(context.Background(), p, search.Limits{Depth: 6}, nil)
					for _, it := range res.Iterations {
						want := gametest.Value(p, it.Depth, false, ev)
						if math.Abs(it.Score-want) > 1e-9 {
							t.Fatalf("%s eval=%s k=%d on %s depth %d: %v, exact %v", algo, eval, k, p, it.Depth, it.Score, want)
						}
					}
					if len(res.Iterations) != 6 {
						t.Fatalf("%s on %s: %d iterations", algo, p, len(res.Iterations))
					}
				}
			}
		}
	}
}

// TestCutsHappen: Star1, Star2 and StarETC do cut the weighted chance
// nodes, so the agreement above is not that of searches that never cut.
func TestCutsHappen(t *testing.T) {
	for _, algo := range []search.Algorithm{search.Star1, search.Star2, search.StarETC} {
		e := engine(algo, "race", 0, 1)
		var s search.Stats
		for _, p := range positions(40, 2) {
			it := e.Search(context.Background(), p, search.Limits{Depth: 7}, nil).Last()
			s.Star1Cut += it.Stats.Star1Cut
			s.Star2Cut += it.Stats.Star2Cut
		}
		if s.Star1Cut == 0 || (algo != search.Star1 && s.Star2Cut == 0) {
			t.Fatalf("%s: %d Star1 and %d Star2 cut-offs", algo, s.Star1Cut, s.Star2Cut)
		}
	}
}

// TestCPCWideIsExact: ChanceProbCut with bounds too wide to cut returns
// the exact value with the table off (its Star1 phase then searches every
// event with the full window, so it is not StarETC node for node).
func TestCPCWideIsExact(t *testing.T) {
	c := search.DefaultConfig(search.CPC)
	c.Eval, c.TTMiB, c.ProbCutT = "race", 0, 1e6
	cpc := New(c.MustResolve())
	for _, p := range positions(20, 3) {
		res := cpc.Search(context.Background(), p, search.Limits{Depth: 6}, nil)
		for _, it := range res.Iterations {
			want := gametest.Value(p, it.Depth, false, evals["race"])
			if math.Abs(it.Score-want) > 1e-9 || it.Stats.CPCCut != 0 {
				t.Fatalf("on %s depth %d: cpc %v (%d cuts), exact %v", p, it.Depth, it.Score, it.Stats.CPCCut, want)
			}
		}
	}
}

// TestTableAcrossDepths: with the table on, the sound algorithms search
// each position afresh (ClearTT) to the exact value of the depth in the
// first iteration, and every iteration's value stays within [L, U]; an
// entry of a deeper search may answer a shallower one where positions
// recur at other depths, so the deeper iterations are not held to the
// depth-limited value (the package search doc says what the table
// promises).
func TestTableAcrossDepths(t *testing.T) {
	differ := 0
	for _, algo := range []search.Algorithm{search.Expectimax, search.StarETC} {
		e := engine(algo, "race", 1, 1)
		for _, p := range positions(40, 4) {
			e.ClearTT()
			res := e.Search(context.Background(), p, search.Limits{Depth: 6}, nil)
			for _, it := range res.Iterations {
				want := gametest.Value(p, it.Depth, false, evals["race"])
				if it.Depth == 1 && math.Abs(it.Score-want) > 1e-9 {
					t.Fatalf("%s on %s depth 1: %v, exact %v", algo, p, it.Score, want)
				}
				if it.Score < search.L || it.Score > search.U {
					t.Fatalf("%s on %s: %v out of bounds", algo, p, it.Score)
				}
				if math.Abs(it.Score-want) > 1e-9 {
					differ++
				}
			}
		}
	}
	t.Logf("%d iterations differ from the depth-limited value with the table on", differ)
}

// TestEvaluateIsDepthZero: Evaluate is the depth-0 value at decisions and
// chance nodes alike (at a chance node, the weighted mean of its events'
// evaluations, since depth does not count chance nodes), for every
// evaluator.
func TestEvaluateIsDepthZero(t *testing.T) {
	for eval, ev := range evals {
		e := engine(search.StarETC, eval, 0, 1)
		for _, p := range positions(40, 5) {
			if got, want := e.Evaluate(p), gametest.Value(p, 0, false, ev); math.Abs(got-want) > 1e-12 {
				t.Fatalf("eval=%s on %s: Evaluate %v, depth-0 value %v", eval, p, got, want)
			}
		}
	}
}

// TestNetAgreeWithExact: with eval=mlp and a net file, the sound
// algorithms return the exact value with the net's evaluation as the
// oracle's, over positions of the net's target: the evaluator follows
// every move and event (it panics where it does not) and its value is the
// net's of the position alone.
func TestNetAgreeWithExact(t *testing.T) {
	net, err := rules.NewNet(6, rand.New(rand.NewPCG(3, 4)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "net.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := net.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	val := newNetEval(net)
	oracle := func(s game.State) float64 { return val.Value(s.(*Board)) }
	var ps []*Board
	for _, p := range positions(200, 6) {
		if p.Target() == 6 {
			ps = append(ps, p)
		}
	}
	for _, algo := range []search.Algorithm{search.Expectimax, search.Star1, search.Star2, search.StarETC} {
		c := search.DefaultConfig(algo)
		c.Eval, c.Net, c.TTMiB = "mlp", path, 0
		r := c.MustResolve()
		if err := Game().Check(r, ps[0]); err != nil {
			t.Fatal(err)
		}
		e := New(r)
		for _, p := range ps {
			if got, want := e.Evaluate(p), gametest.Value(p, 0, false, oracle); math.Abs(got-want) > 1e-12 {
				t.Fatalf("%s on %s: Evaluate %v, depth-0 value %v", algo, p, got, want)
			}
			for _, it := range e.Search(context.Background(), p, search.Limits{Depth: 5}, nil).Iterations {
				if want := gametest.Value(p, it.Depth, false, oracle); math.Abs(it.Score-want) > 1e-9 {
					t.Fatalf("%s on %s depth %d: %v, exact %v", algo, p, it.Depth, it.Score, want)
				}
			}
		}
	}
	c := search.DefaultConfig(search.StarETC)
	if err := Game().Check(c.MustResolve(), ps[0]); err == nil || !strings.Contains(err.Error(), "no built-in net") {
		t.Fatalf("eval=mlp without a net file: %v, want a refusal", err)
	}
}
