package search

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search/dice"
)

// mirror is an Incremental evaluator that keeps its own board by the
// engine's hooks alone and checks, at every leaf, that it is the board the
// engine evaluates: the contract an incremental network relies on.
type mirror struct {
	t              *testing.T
	b              dice.Board
	makes, unmakes int
	leaves         int
}

func (m *mirror) Reset(b *dice.Board) { m.b = *b }

func (m *mirror) Make(b *dice.Board, cell int) {
	line := cell / b.N() // the mover's rolled line: its row for blue
	if b.SideToMove() == dice.Blue {
		line = cell % b.N() // red moved: its column
	}
	if m.b.Roll() == dice.NoRoll { // a rolled root keeps its roll
		m.b.SetRoll(line)
	}
	m.b.Make(cell)
	m.makes++
}

func (m *mirror) Unmake(b *dice.Board, cell int) {
	m.b.Unmake(cell)
	m.b.ClearRoll()
	m.unmakes++
}

func (m *mirror) Evaluate(b *dice.Board) float64 {
	m.leaves++
	w := m.b
	if b.Roll() != dice.NoRoll && w.Roll() == dice.NoRoll {
		w.SetRoll(b.Roll())
	}
	if w != *b {
		m.t.Fatalf("leaf %d: the evaluator follows %s, the engine evaluates %s", m.leaves, w.DPN(), b.DPN())
	}
	return Pairs{}.Evaluate(b)
}

// TestIncrementalHooks: an incremental evaluator sees every make and
// unmake of the search, in step with the engine's board, and the search
// with it is the search with the plain evaluator, node for node.
func TestIncrementalHooks(t *testing.T) {
	ps, err := ReadSuite("testdata/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	for _, algo := range []Algorithm{Expectimax, StarETC, CPC} {
		c := DefaultConfig(algo)
		c.TTMiB, c.Eval = 1, "pairs" // the mirror evaluates with pairs
		plain := NewEngine(c.MustResolve())
		m := &mirror{t: t}
		r := c.MustResolve()
		r.kind, r.newEval = evalOther, func() Evaluator { return m }
		hooked := NewEngine(r)
		for _, p := range ps[:15] {
			plain.ClearTT()
			hooked.ClearTT()
			want := plain.Search(context.Background(), p.Board, Limits{Depth: 6}, nil).Last()
			got := hooked.Search(context.Background(), p.Board, Limits{Depth: 6}, nil).Last()
			if got.Score != want.Score || got.Nodes != want.Nodes {
				t.Fatalf("%s on %s: hooked %v (%d nodes), plain %v (%d nodes)", algo, p.Board.DPN(), got.Score, got.Nodes, want.Score, want.Nodes)
			}
		}
		if m.makes == 0 || m.makes != m.unmakes || m.leaves == 0 {
			t.Fatalf("%s: %d makes, %d unmakes, %d leaves", algo, m.makes, m.unmakes, m.leaves)
		}
	}
}

// BenchmarkSearchMLP is StarETC to depth 9 over the suite's first twenty
// positions with a random 5x5/4 network (as costly as a trained one),
// beside BenchmarkSearchPairs9, the same with pairs.
func BenchmarkSearchMLP(b *testing.B) { benchEval(b, "mlp") }

func BenchmarkSearchPairs9(b *testing.B) { benchEval(b, "pairs") }

func benchEval(b *testing.B, eval string) {
	ps, err := ReadSuite("testdata/dice5x5-4.suite")
	if err != nil {
		b.Fatal(err)
	}
	c := DefaultConfig(StarETC)
	c.Eval = eval
	if eval == "mlp" {
		net, err := dice.NewNet(5, 4, rand.New(rand.NewPCG(1, 2)), 0.3)
		if err != nil {
			b.Fatal(err)
		}
		c.Net = b.TempDir() + "/net.json"
		if err := runs.WriteFileAtomic(c.Net, net.Write); err != nil {
			b.Fatal(err)
		}
	}
	e := NewEngine(c.MustResolve())
	var nodes int64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for _, p := range ps[:20] {
			e.ClearTT()
			nodes += e.Search(context.Background(), p.Board, Limits{Depth: 9}, nil).Last().Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestResolveChecksLikeTheGrammar: a configuration built in Go is checked
// by the grammar's own parsers, in its words.
func TestResolveChecksLikeTheGrammar(t *testing.T) {
	for _, c := range []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.TTMiB = 0 }, "tt=0"},
		{func(c *Config) { c.TTMiB = MaxTTMiB + 1 }, "at most"},
		{func(c *Config) { c.Eval = "" }, "eval="},
		{func(c *Config) { c.Eval = "nn" }, "unknown evaluator"},
		{func(c *Config) { c.ProbCutT = math.NaN() }, "t=NaN"},
		{func(c *Config) { c.ProbingFactor = 0 }, "k=0"},
		{func(c *Config) { c.CPCMinDepth, c.CPCMaxDepth = 9, 3 }, "above cpcmax"},
	} {
		cfg := DefaultConfig(CPC)
		c.mod(&cfg)
		if _, err := cfg.Resolve(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", cfg, err, c.want)
		}
	}
}
