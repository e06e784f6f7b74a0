package dice

import (
	"starlab/runs"
	"starlab/search"

	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"starlab/nn"
	"starlab/search/dice"
)

// fullNet evaluates with the network's full forward pass at every leaf,
// reading nothing kept from an earlier position.
type fullNet struct{ ev *dice.NetEvaluator }

func (f fullNet) Evaluate(b *dice.Board) float64 { return f.ev.Value(b) }

// TestNetFollowsTheBoard: the network's accumulators, kept in step by the
// engine through every move and take-back, give the value of a search
// whose every leaf is evaluated afresh (the reference recursion with the
// full forward pass), for the sound algorithms at depths 1 to 5 over the
// suite's first 15 positions and a random net (as costly as a trained
// one, and with no symmetry to hide a missed update).
func TestNetFollowsTheBoard(t *testing.T) {
	ps, err := search.ReadSuite(Game(), "../../dice/suites/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	net, err := dice.NewNet(5, 4, rand.New(rand.NewPCG(1, 2)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	file := t.TempDir() + "/net.json"
	if err := runs.WriteFileAtomic(file, net.Write); err != nil {
		t.Fatal(err)
	}
	ev, err := dice.NewNetEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	full := fullNet{ev}
	for _, algo := range []search.Algorithm{search.Expectimax, search.Star1, search.StarETC} {
		c := search.DefaultConfig(algo)
		c.TTMiB, c.Eval, c.Net = 1, "mlp", file
		e := New(c.MustResolve())
		for _, p := range ps[:15] {
			e.ClearTT()
			for _, it := range e.Search(context.Background(), p.Pos.(*dice.Board), search.Limits{Depth: 5}, nil).Iterations {
				want := refValue(p.Pos.(*dice.Board), full, it.Depth)
				if math.Abs(it.Score-want) > tol {
					t.Fatalf("%s on %s depth %d: %v, with every leaf evaluated afresh %v", algo, p.Pos.(*dice.Board).DPN(), it.Depth, it.Score, want)
				}
			}
		}
	}
}

// BenchmarkSearchMLP is StarETC to depth 9 over the suite's first twenty
// positions with a random 5x5/4 network (as costly as a trained one),
// beside BenchmarkSearchPairs9, the same with pairs.
func BenchmarkSearchMLP(b *testing.B) { benchEval(b, "mlp") }

func BenchmarkSearchPairs9(b *testing.B) { benchEval(b, "pairs") }

// BenchmarkSearchMLPThreats is BenchmarkSearchMLP with a random net of
// the input set "threats".
func BenchmarkSearchMLPThreats(b *testing.B) { benchEval(b, "threats") }

func benchEval(b *testing.B, eval string) {
	ps, err := search.ReadSuite(Game(), "../../dice/suites/dice5x5-4.suite")
	if err != nil {
		b.Fatal(err)
	}
	c := search.DefaultConfig(search.StarETC)
	c.Eval = eval
	if eval == "mlp" || eval == "threats" {
		c.Eval = "mlp"
		in, _ := dice.SetInputs(5, "")
		if eval == "threats" {
			in, _ = dice.SetInputs(5, eval)
		}
		net, err := nn.New(in, dice.HiddenSize(5), rand.New(rand.NewPCG(1, 2)), 0.3)
		if err != nil {
			b.Fatal(err)
		}
		net.Game, net.Variant, net.VariantKey = dice.NetGame, dice.NetVariant(5, 4), []int{5, 4}
		c.Net = b.TempDir() + "/net.json"
		if err := runs.WriteFileAtomic(c.Net, net.Write); err != nil {
			b.Fatal(err)
		}
	}
	e := New(c.MustResolve())
	var nodes int64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for _, p := range ps[:20] {
			e.ClearTT()
			nodes += e.Search(context.Background(), p.Pos.(*dice.Board), search.Limits{Depth: 9}, nil).Last().Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestResolveChecksLikeTheGrammar: a configuration built in Go is checked
// by the grammar's own parsers, in its words.
func TestResolveChecksLikeTheGrammar(t *testing.T) {
	for _, c := range []struct {
		mod  func(*search.Config)
		want string
	}{
		{func(c *search.Config) { c.TTMiB = -1 }, "tt=-1"},
		{func(c *search.Config) { c.TTMiB = search.MaxTTMiB + 1 }, "at most"},
		{func(c *search.Config) { c.Eval = "" }, "eval="},
		{func(c *search.Config) { c.Eval = "NN" }, "not an evaluator name"},
		{func(c *search.Config) { c.ProbCutT = math.NaN() }, "t=NaN"},
		{func(c *search.Config) { c.ProbingFactor = 0 }, "k=0"},
		{func(c *search.Config) { c.CPCMinDepth, c.CPCMaxDepth = 9, 3 }, "above cpcmax"},
	} {
		cfg := search.DefaultConfig(search.CPC)
		c.mod(&cfg)
		if _, err := cfg.Resolve(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", cfg, err, c.want)
		}
	}
}
