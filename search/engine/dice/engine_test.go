package dice

import (
	"starlab/search"

	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"starlab/search/dice"
)

func mustDPN(t testing.TB, s string) *dice.Board {
	t.Helper()
	b, err := dice.ParseDPN(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const example = "5 4 b 1 - - - - - b - - r - r b - - - r - b - - - - - - -"

// TestCPCPrunesAndStaysClose: with the default parameters ChanceProbCut cuts
// (it must do something) and its values stay in [L, U] and near the sound
// value; the error is measured here, not hidden.
func TestCPCPrunesAndStaysClose(t *testing.T) {
	ps, err := search.ReadSuite(Game(), "../../dice/suites/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	var cuts int64
	var sumErr, maxErr float64
	var nCPC, nETC int64
	for _, p := range ps[:30] {
		etc := newEngine(search.StarETC, "pairs", 4)
		cpc := newEngine(search.CPC, "pairs", 4)
		want := etc.Search(context.Background(), p.Pos.(*dice.Board), search.Limits{Depth: 7}, nil).Last()
		got := cpc.Search(context.Background(), p.Pos.(*dice.Board), search.Limits{Depth: 7}, nil).Last()
		if got.Score < L || got.Score > U {
			t.Fatalf("cpc score %v outside [L, U] on %q", got.Score, p.Pos.(*dice.Board).DPN())
		}
		cuts += got.Stats.CPCCut
		d := got.Score - want.Score
		if d < 0 {
			d = -d
		}
		sumErr += d
		maxErr = max(maxErr, d)
		nCPC += got.Nodes
		nETC += want.Nodes
	}
	t.Logf("cpc depth 7 over 30 positions: %d cuts, mean |error| %.4f, max %.4f, nodes %.3f of staretc", cuts, sumErr/30, maxErr, float64(nCPC)/float64(nETC))
	if cuts == 0 {
		t.Fatal("ChanceProbCut never cut off")
	}
	if sumErr/30 > 0.05 {
		t.Fatalf("cpc mean error %.4f is larger than expected from sigma %.2f", sumErr/30, search.DefaultProbCutSigma)
	}
}

// TestBestMoveIsOptimal: the best move of a full-depth search is worth the
// root value.
func TestBestMoveIsOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	for p := 0; p < 30; p++ {
		b := randomPosition(rng, 5, 4, 15+rng.IntN(4), true)
		solver := exactSolver{}
		want := solver.value(b)
		for _, a := range []search.Algorithm{search.Expectimax, search.Star1, search.Star2, search.StarETC} {
			e := newEngine(a, "zero", 1)
			it := e.Search(context.Background(), b, search.Limits{}, nil).Last()
			c := *b
			c.Make(it.BestMove)
			if got := -solver.value(&c); got < want-tol {
				t.Fatalf("%s on %q: best move %s is worth %.9f, root %.9f", a, b.DPN(), dice.FormatMove(it.BestMove, 5), got, want)
			}
		}
	}
}

// TestNodeLimitDeterministic: a node-limited search stops within the
// budget, keeps the deepest completed iteration, and repeats exactly.
func TestNodeLimitDeterministic(t *testing.T) {
	b := mustDPN(t, example)
	run := func() search.Result {
		e := newEngine(search.StarETC, "pairs", 4)
		return e.Search(context.Background(), b, search.Limits{Nodes: 20000}, nil)
	}
	r1, r2 := run(), run()
	if !r1.Stopped {
		t.Fatal("node-limited search did not report a stop")
	}
	if r1.Last().Nodes > 20000 {
		t.Fatalf("last completed iteration used %d nodes, over the budget of 20000", r1.Last().Nodes)
	}
	l1, l2 := r1.Last(), r2.Last()
	l1.Time, l2.Time = 0, 0
	if l1 != l2 || len(r1.Iterations) != len(r2.Iterations) {
		t.Fatalf("node-limited searches differ: %+v vs %+v", r1.Last(), r2.Last())
	}
}

// TestMoveTimeStops: a time-limited search stops and still returns the last
// completed iteration (the size of the overshoot is measured by the bench
// command, not asserted here).
func TestMoveTimeStops(t *testing.T) {
	b := mustDPN(t, "5 4 b -1 - - - - - - - - - - - - - - - - - - - - - - - - -")
	e := newEngine(search.StarETC, "pairs", 4)
	r := e.Search(context.Background(), b, search.Limits{MoveTime: 30 * time.Millisecond}, nil)
	if !r.Stopped || len(r.Iterations) == 0 {
		t.Fatalf("time-limited search: stopped=%v, %d iterations", r.Stopped, len(r.Iterations))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = e.Search(ctx, b, search.Limits{}, nil)
	if len(r.Iterations) == 0 || !r.Stopped {
		t.Fatalf("cancelled search: stopped=%v, %d iterations", r.Stopped, len(r.Iterations))
	}
}

// TestSearchAllocations: the search allocates nothing per node; only the
// result slice grows.
func TestSearchAllocations(t *testing.T) {
	b := mustDPN(t, example)
	e := newEngine(search.CPC, "pairs", 1)
	var nodes int64
	allocs := testing.AllocsPerRun(3, func() {
		nodes = e.Search(context.Background(), b, search.Limits{Depth: 9}, nil).Last().Nodes
	})
	if allocs > 10 {
		t.Fatalf("search of %d nodes made %.0f allocations", nodes, allocs)
	}
}

func TestProbCutFile(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]string{
		"json":    `{`,
		"format":  `{"format":"x","version":1,"pairs":[{"shallow":1,"deep":3,"a":1,"b":0,"sigma":0.1}]}`,
		"version": `{"format":"starlab-probcut","version":9,"pairs":[{"shallow":1,"deep":3,"a":1,"b":0,"sigma":0.1}]}`,
		"empty":   `{"format":"starlab-probcut","version":1,"pairs":[]}`,
		"depths":  `{"format":"starlab-probcut","version":1,"pairs":[{"shallow":3,"deep":3,"a":1,"b":0,"sigma":0.1}]}`,
		"sigma":   `{"format":"starlab-probcut","version":1,"pairs":[{"shallow":1,"deep":3,"a":1,"b":0,"sigma":-1}]}`,
	}
	for name, text := range bad {
		path := dir + "/" + name + ".json"
		if err := writeFile(path, text); err != nil {
			t.Fatal(err)
		}
		if _, err := search.LoadProbCut(path); err == nil {
			t.Errorf("%s: bad file accepted", name)
		}
	}
	if _, err := search.LoadProbCut(dir + "/missing.json"); err == nil {
		t.Error("missing file accepted")
	}
	good := dir + "/good.json"
	if err := writeFile(good, `{"format":"starlab-probcut","version":1,"source":"test","pairs":[{"shallow":1,"deep":3,"a":0.9,"b":0.01,"sigma":0.05}]}`); err != nil {
		t.Fatal(err)
	}
	p, err := search.LoadProbCut(good)
	if err != nil {
		t.Fatal(err)
	}
	if dp, ok := p.Lookup(1, 3); !ok || dp.A != 0.9 || dp.Sigma != 0.05 {
		t.Fatalf("lookup: %+v %v", dp, ok)
	}
	if _, ok := p.Lookup(2, 4); ok {
		t.Fatal("lookup of a missing pair succeeded")
	}
}

func TestParseAlgorithm(t *testing.T) {
	for i, name := range search.AlgorithmNames() {
		a, err := search.ParseAlgorithm(name)
		if err != nil || int(a) != i || a.String() != name {
			t.Fatalf("ParseAlgorithm(%q) = %v, %v", name, a, err)
		}
	}
	if _, err := search.ParseAlgorithm("star3"); err == nil {
		t.Fatal("star3 accepted")
	}
}

func BenchmarkSearch(b *testing.B) {
	ps, err := search.ReadSuite(Game(), "../../dice/suites/dice5x5-4.suite")
	if err != nil {
		b.Fatal(err)
	}
	for _, a := range []search.Algorithm{search.Expectimax, search.Star1, search.Star2, search.StarETC, search.CPC} {
		b.Run(a.String(), func(b *testing.B) {
			e := newEngine(a, "pairs", 16)
			var nodes int64
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p := ps[i%len(ps)]
				e.ClearTT()
				nodes += e.Search(context.Background(), p.Pos.(*dice.Board), search.Limits{Depth: 7}, nil).Last().Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

var evalSink float64

func BenchmarkEval(b *testing.B) {
	ps, err := search.ReadSuite(Game(), "../../dice/suites/dice5x5-4.suite")
	if err != nil {
		b.Fatal(err)
	}
	var ev Evaluator = dice.Pairs{} // through the interface, as the search calls it
	b.ReportAllocs()
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += ev.Evaluate(ps[i%len(ps)].Pos.(*dice.Board))
	}
	evalSink = s
}

// TestClearForgets: after ClearTT a search repeats a fresh engine's search
// node for node, whatever the table held before.
func TestClearForgets(t *testing.T) {
	b := mustDPN(t, example)
	fresh := newEngine(search.StarETC, "pairs", 1).Search(context.Background(), b, search.Limits{Depth: 9}, nil).Last()
	e := newEngine(search.StarETC, "pairs", 1)
	other := mustDPN(t, "5 4 b -1 - - - - - - - - - - - - - - - - - - - - - - - - -")
	for i := 0; i < 3; i++ {
		e.Search(context.Background(), other, search.Limits{Depth: 7}, nil)
		e.ClearTT()
		got := e.Search(context.Background(), b, search.Limits{Depth: 9}, nil).Last()
		got.Time, fresh.Time = 0, 0
		if got != fresh {
			t.Fatalf("after ClearTT: %+v, fresh engine: %+v", got, fresh)
		}
		e.ClearTT()
	}
}

func TestTTEntrySize(t *testing.T) {
	if s := unsafe.Sizeof(search.Entry{}); s != 32 {
		t.Fatalf("search.Entry is %d bytes, want 32 (four to two cache lines)", s)
	}
}

func FuzzParseSuite(f *testing.F) {
	f.Add(example + "\n# comment\n\n" + example + " ; exact=0.5\n")
	f.Add("5 4 b -1 - - - - - - - - - - - - - - - - - - - - - - - - - ; exact=2")
	f.Add("; exact=")
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := search.ParseSuite(dice.Game{}, strings.NewReader(text))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		for _, p := range ps {
			if p.HasExact && (p.Exact < L || p.Exact > U) {
				t.Fatalf("exact value %v accepted", p.Exact)
			}
		}
	})
}

// BenchmarkStarETC13 is the speed figure of the thesis's table: StarETC to
// depth 13 on the first ten positions of the committed suite, a fresh
// 16 MiB table per position.
func BenchmarkStarETC13(b *testing.B) {
	ps, err := search.ReadSuite(Game(), "../../dice/suites/dice5x5-4.suite")
	if err != nil {
		b.Fatal(err)
	}
	e := newEngine(search.StarETC, "pairs", 16)
	var nodes int64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, p := range ps[:10] {
			e.ClearTT()
			nodes += e.Search(context.Background(), p.Pos.(*dice.Board), search.Limits{Depth: 13}, nil).Last().Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
