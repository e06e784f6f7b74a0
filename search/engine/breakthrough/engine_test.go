package breakthrough

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search"
	rules "starlab/search/breakthrough"
	"starlab/search/game"
	"starlab/search/game/gametest"
)

// positions returns count positions of variant reached by random play from
// the start, drawn with a PCG seeded by seed: a random number of plies,
// moves uniform and events by weight, then, one time in two, the roll, so
// that half are chance nodes; none is over.
func positions(variant string, count int, seed uint64) []*Board {
	rng := rand.New(rand.NewPCG(seed, 17))
	g := rules.Game{}
	var ps []*Board
	for len(ps) < count {
		s, err := g.New(variant)
		if err != nil {
			panic(err)
		}
		for range rng.IntN(16) {
			if s.Kind() == game.Over {
				break
			}
			step(s, rng)
		}
		if s.Kind() == game.Decision && rng.IntN(2) == 0 {
			s.Play(rules.Roll)
		}
		if s.Kind() != game.Over {
			ps = append(ps, s.(*Board))
		}
	}
	return ps
}

// step plays a move drawn uniformly or an event drawn by weight.
func step(s game.State, rng *rand.Rand) {
	if s.Kind() == game.Decision {
		ms := s.Legal(nil)
		s.Play(ms[rng.IntN(len(ms))])
		return
	}
	evs, total := s.Outcomes(nil)
	r := rng.IntN(total)
	for _, e := range evs {
		if r < int(e.Weight) {
			s.Happen(e)
			return
		}
		r -= int(e.Weight)
	}
}

// engine returns an engine of algo and eval with a table of ttMiB (0: off)
// and probing factor k.
func engine(algo search.Algorithm, eval string, ttMiB, k int) *Engine {
	return engineNet(algo, eval, "", ttMiB, k)
}

// engineNet is engine with the net=FILE net.
func engineNet(algo search.Algorithm, eval, net string, ttMiB, k int) *Engine {
	c := search.DefaultConfig(algo)
	c.Eval, c.Net, c.TTMiB, c.ProbingFactor = eval, net, ttMiB, k
	return New(c.MustResolve())
}

// nets are random nets of the variants, written to files: the net=FILE of
// an engine of eval=mlp, and the oracle's evaluation of the same.
type nets struct {
	dir   string
	files map[string]string
	eval  map[string]func(game.State) float64
}

func newNets(t testing.TB) *nets {
	return &nets{dir: t.TempDir(), files: map[string]string{}, eval: map[string]func(game.State) float64{}}
}

// file returns the path of the random net of variant, writing it the first
// time: weights of half-width 0.5, so that the values spread over (-1, 1).
func (n *nets) file(variant string) string {
	if f, ok := n.files[variant]; ok {
		return f
	}
	w, h, err := rules.ParseVariant(variant)
	if err != nil {
		panic(err)
	}
	net, err := rules.NewNet(w, h, rand.New(rand.NewPCG(uint64(w), uint64(h))), 0.5)
	if err != nil {
		panic(err)
	}
	f := filepath.Join(n.dir, variant+".json")
	if err := runs.WriteFileAtomic(f, net.Write); err != nil {
		panic(err)
	}
	ev, err := rules.NewNetEvaluator(net)
	if err != nil {
		panic(err)
	}
	n.files[variant], n.eval[variant] = f, func(s game.State) float64 { return ev.Value(s.(*Board)) }
	return f
}

// evalFunc returns the oracle's evaluation of eval on variant: "material" is
// the game's hand evaluator, material; "mlp" the net of variant, from
// scratch (breakthrough.NetEvaluator.Value).
func (n *nets) evalFunc(eval, variant string) func(game.State) float64 {
	switch eval {
	case "zero":
		return func(game.State) float64 { return 0 }
	case "material":
		return func(s game.State) float64 { return s.(*Board).Evaluate() }
	}
	n.file(variant)
	return n.eval[variant]
}

// engineFor is an engine of algo and eval for positions of variant: with
// eval=mlp, the variant's net.
func (n *nets) engineFor(algo search.Algorithm, eval, variant string, ttMiB, k int) *Engine {
	if eval != "mlp" {
		return engine(algo, eval, ttMiB, k)
	}
	return engineNet(algo, eval, n.file(variant), ttMiB, k)
}

// suite are the positions of the exact checks, each with the deepest depth
// it is searched to: the oracle's recursion is exponential in depth.
type suite struct {
	variant string
	count   int
	depth   int
}

func suites() []suite {
	if testing.Short() {
		return []suite{{"3x4", 12, 4}, {"4x5", 6, 3}, {"5x5", 4, 3}}
	}
	return []suite{{"3x4", 24, 4}, {"3x4", 4, 5}, {"4x5", 8, 4}, {"5x5", 6, 3}, {"5x5", 3, 4}}
}

// exact caches the oracle's values: one per position, depth and evaluator
// (mlp's with the net of the position's variant).
type exact struct {
	values map[string]float64
	nets   *nets
}

func newExact(t testing.TB) exact { return exact{map[string]float64{}, newNets(t)} }

func (x exact) value(p *Board, depth int, eval string) float64 {
	k := fmt.Sprint(p, depth, eval)
	v, ok := x.values[k]
	if !ok {
		v = gametest.Value(p, depth, false, x.nets.evalFunc(eval, rules.Variant(p.W(), p.H())))
		x.values[k] = v
	}
	return v
}

// TestSoundAgreeWithExact: with the table off, expectimax, Star1, Star2
// and StarETC return the exact depth-limited value of the rules
// (gametest.Value) to 1e-9 at every depth of their iterations, over
// decisions and chance nodes of 3x4, 4x5 and 5x5 boards, with every
// evaluator (mlp a random net of the variant, evaluated from scratch by the
// oracle, searched to depth 3 at most) and probing factors 1 and 2 (Star2 and StarETC): the weighted
// chance windows, the roll as a move, depth counting decisions only and
// the network's accumulators following moves, events and take-backs,
// checked against the plain recursion. The engine's Evaluate is the value
// of depth 0.
func TestSoundAgreeWithExact(t *testing.T) {
	x := newExact(t)
	for _, s := range suites() {
		ps := positions(s.variant, s.count, 1)
		for _, eval := range []string{"zero", "material", "mlp"} {
			depth := s.depth
			if eval == "mlp" {
				// The oracle's net evaluations are most of the test's time;
				// the net's hooks are as well exercised at depth 3.
				depth = min(depth, 3)
			}
			for _, algo := range []search.Algorithm{search.Expectimax, search.Star1, search.Star2, search.StarETC} {
				for _, k := range []int{1, 2} {
					if k > 1 && algo < search.Star2 {
						continue // only Star2's probing reads the probing factor
					}
					e := x.nets.engineFor(algo, eval, s.variant, 0, k)
					for _, p := range ps {
						if v, want := e.Evaluate(p), x.value(p, 0, eval); math.Abs(v-want) > 1e-9 {
							t.Fatalf("%s eval=%s on %s: Evaluate %v, exact depth 0 %v", algo, eval, p, v, want)
						}
						res := e.Search(context.Background(), p, search.Limits{Depth: depth}, nil)
						if len(res.Iterations) != depth {
							t.Fatalf("%s on %s: %d iterations, want %d", algo, p, len(res.Iterations), depth)
						}
						for _, it := range res.Iterations {
							if want := x.value(p, it.Depth, eval); math.Abs(it.Score-want) > 1e-9 {
								t.Fatalf("%s eval=%s k=%d on %s depth %d: %v, exact %v", algo, eval, k, p, it.Depth, it.Score, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestPositionsCover: the positions of the exact checks hold decisions and
// chance nodes, positions with captures to make and with empty squares to
// roll onto, so the checks above see every kind of node.
func TestPositionsCover(t *testing.T) {
	var chance, decision, captures, nothing int
	for _, s := range suites() {
		for _, p := range positions(s.variant, s.count, 1) {
			if p.Pending() {
				chance++
				if evs, _ := p.Outcomes(nil); evs[0].ID == rules.Nothing {
					nothing++
				}
				continue
			}
			decision++
			for _, m := range p.Legal(nil) {
				if p.IsCapture(int(m)) {
					captures++
					break
				}
			}
		}
	}
	if chance < 5 || decision < 5 || captures < 3 || nothing < 3 {
		t.Fatalf("%d chance nodes (%d with nothing), %d decisions (%d with a capture)", chance, nothing, decision, captures)
	}
}

// TestCutsHappen: Star1, Star2 and StarETC do cut the weighted chance
// nodes, so the agreement above is not that of searches that never cut.
func TestCutsHappen(t *testing.T) {
	for _, algo := range []search.Algorithm{search.Star1, search.Star2, search.StarETC} {
		e := engine(algo, "material", 0, 1)
		var s search.Stats
		for _, p := range positions("4x5", 20, 2) {
			it := e.Search(context.Background(), p, search.Limits{Depth: 4}, nil).Last()
			s.Star1Cut += it.Stats.Star1Cut
			s.Star2Cut += it.Stats.Star2Cut
		}
		if s.Star1Cut == 0 || (algo != search.Star1 && s.Star2Cut == 0) {
			t.Fatalf("%s: %d Star1 and %d Star2 cut-offs", algo, s.Star1Cut, s.Star2Cut)
		}
	}
}

// TestCPCWideIsExact: ChanceProbCut with bounds too wide to cut returns
// the exact value with the table off.
func TestCPCWideIsExact(t *testing.T) {
	c := search.DefaultConfig(search.CPC)
	c.Eval, c.TTMiB, c.ProbCutT = "material", 0, 1e6
	cpc := New(c.MustResolve())
	x := newExact(t)
	searches := int64(0)
	for _, p := range positions("3x4", 16, 3) {
		res := cpc.Search(context.Background(), p, search.Limits{Depth: 4}, nil)
		for _, it := range res.Iterations {
			want := x.value(p, it.Depth, "material")
			if math.Abs(it.Score-want) > 1e-9 || it.Stats.CPCCut != 0 {
				t.Fatalf("on %s depth %d: cpc %v (%d cuts), exact %v", p, it.Depth, it.Score, it.Stats.CPCCut, want)
			}
		}
		searches += res.Last().Stats.CPCSearches
	}
	if searches == 0 {
		t.Fatal("ChanceProbCut made no shallow search: the check above checks nothing of it")
	}
}

// TestTableAcrossDepths: with the table on, each position searched afresh
// (ClearTT) gets the exact value of depth 1 (no entry exists yet that a
// deeper search wrote), and every iteration's value stays within [L, U];
// an entry of a deeper search may answer a shallower one where positions
// recur at other depths, so the deeper iterations are not held to the
// depth-limited value (the package doc says what the table promises).
func TestTableAcrossDepths(t *testing.T) {
	x := newExact(t)
	for _, algo := range []search.Algorithm{search.Expectimax, search.StarETC} {
		e := engine(algo, "material", 1, 1)
		for _, p := range positions("3x4", 20, 4) {
			e.ClearTT()
			res := e.Search(context.Background(), p, search.Limits{Depth: 5}, nil)
			for _, it := range res.Iterations {
				if it.Depth == 1 {
					if want := x.value(p, 1, "material"); math.Abs(it.Score-want) > 1e-9 {
						t.Fatalf("%s on %s depth 1: %v, exact %v", algo, p, it.Score, want)
					}
				}
				if it.Score < search.L || it.Score > search.U {
					t.Fatalf("%s on %s: %v out of bounds", algo, p, it.Score)
				}
			}
		}
	}
}

// TestBestMoveIsLegal: the best move a search reports at a decision is one
// of its legal moves, and -1 at a chance node.
func TestBestMoveIsLegal(t *testing.T) {
	e := engine(search.StarETC, "material", 1, 1)
	for _, p := range positions("5x5", 20, 5) {
		it := e.Search(context.Background(), p, search.Limits{Depth: 3}, nil).Last()
		if p.Pending() {
			if it.BestMove != -1 {
				t.Fatalf("%s: best move %d at a chance node", p, it.BestMove)
			}
			continue
		}
		if _, err := rules.ParseMove(p, rules.FormatMove(p, it.BestMove)); err != nil {
			t.Fatalf("%s: best move %d: %v", p, it.BestMove, err)
		}
	}
}

// TestCheck: Game's Check refuses in one line eval=mlp without net=FILE
// (no net is built in), a net file that is not a ChanceBreakthrough net or
// is one of another size, a Dice fit and a fit of another variant; it
// takes the hand evaluator, zero, a net of the position's variant, whose
// id is NetID's, and a fit of the variant.
func TestCheck(t *testing.T) {
	g := Game()
	pos, _ := g.New("8x8")
	ns := newNets(t)
	net8, net56 := ns.file("8x8"), ns.file("5x6")
	diceNet := "../../dice/nets/5x5-4.json"
	fit := func(variant string) string {
		path := filepath.Join(t.TempDir(), "probcut.json")
		text := `{"format":"starlab-probcut","version":2,"source":"test","eval":"material","game":"breakthrough","variant":"` + variant + `","pairs":[{"shallow":1,"deep":3,"a":1,"b":0,"sigma":0.1}]}`
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	fit8x8, fit4x5 := fit("8x8"), fit("4x5")
	for _, tc := range []struct {
		algo            search.Algorithm
		eval, net, file string
		want            string
	}{
		{search.StarETC, "material", "", "", ""},
		{search.StarETC, "zero", "", "", ""},
		{search.CPC, "material", "", "", ""},
		{search.StarETC, "mlp", net8, "", ""},
		{search.StarETC, "mlp", "", "", ""}, // the built-in 8x8 net
		{search.CPC, "mlp", "", "../../dice/fits/5x5-4.json", "probcut ../../dice/fits/5x5-4.json was fitted for dice, not breakthrough"},
		{search.StarETC, "mlp", diceNet, "", "net file " + diceNet + `: a net for the game "dice", not "breakthrough"`},
		{search.StarETC, "mlp", net56, "", "net " + net56 + ": made for 5x6 boards, not 8x8"},
		{search.CPC, "material", "", "../../dice/fits/5x5-4.json", "probcut ../../dice/fits/5x5-4.json was fitted for dice, not breakthrough"},
		{search.CPC, "material", "", fit8x8, ""},
		{search.CPC, "material", "", fit4x5, "probcut " + fit4x5 + " was fitted for breakthrough variant 4x5, not 8x8"},
	} {
		c := search.DefaultConfig(tc.algo)
		c.Eval, c.Net, c.ProbCutFile = tc.eval, tc.net, tc.file
		r, err := c.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		err = g.Check(r, pos)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("eval=%s net=%q probcut=%q: %v", tc.eval, tc.net, tc.file, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.ContainsAny(err.Error(), "\n\r")):
			t.Errorf("eval=%s net=%q probcut=%q: error %v, want one line with %q", tc.eval, tc.net, tc.file, err, tc.want)
		}
		id := g.NetID(r, pos)
		switch {
		case tc.eval != "mlp":
			if id != "" {
				t.Errorf("eval=%s net=%q: NetID %q, want none", tc.eval, tc.net, id)
			}
		case tc.net == "":
			if builtin, _ := rules.EmbeddedNet(8, 8); id != builtin.ID() {
				t.Errorf("eval=mlp: NetID %q, want the built-in net's %q", id, builtin.ID())
			}
		case id != r.NetFile().ID() || id == "":
			t.Errorf("eval=%s net=%q: NetID %q, want the net's %q", tc.eval, tc.net, id, r.NetFile().ID())
		}
	}
	// No net is built in for 5x6.
	c := search.DefaultConfig(search.StarETC)
	c.Eval = "mlp"
	pos56, _ := g.New("5x6")
	if err := g.Check(c.MustResolve(), pos56); err == nil || !strings.Contains(err.Error(), "no network is built in for breakthrough 5x6; give net=FILE") {
		t.Errorf("eval=mlp on 5x6 without a net: %v", err)
	}
	// Without a file cpc uses the built-in 8x8 fit with the built-in net
	// (eval=mlp, the default), and the defaults with material.
	if src := g.ProbCutSource(search.DefaultConfig(search.CPC).MustResolve(), pos); !strings.HasPrefix(src, "built-in fit search/breakthrough/fits/8x8.json") {
		t.Errorf("ProbCutSource of eval=mlp without a file: %q, want the built-in fit", src)
	}
	mat := search.DefaultConfig(search.CPC)
	mat.Eval = "material"
	if src := g.ProbCutSource(mat.MustResolve(), pos); !strings.Contains(src, "defaults") {
		t.Errorf("ProbCutSource of eval=material without a file: %q, want the defaults", src)
	}
}

// TestNetKit: Game's Net is the network of package breakthrough as
// training sees it: New makes a net of the variant that Check takes and
// refuses for another, Evaluator's value is the forward pass of Features
// at decisions and chance nodes, and Rate is DefaultRate, 10/(4w *
// hidden units), 0 for a variant that is not one.
func TestNetKit(t *testing.T) {
	kit := Game().Net
	net, err := kit.New("4x5", rand.New(rand.NewPCG(1, 2)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if err := kit.Check(net, "4x5"); err != nil {
		t.Fatal(err)
	}
	if err := kit.Check(net, "5x4"); err == nil || !strings.Contains(err.Error(), "made for 4x5 boards, not 5x4") {
		t.Errorf("a 4x5 net checked for 5x4: %v", err)
	}
	if _, err := kit.New("2x5", rand.New(rand.NewPCG(1, 2)), 0.5); err == nil {
		t.Error("a net for 2x5")
	}
	val, err := kit.Evaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	x, h := make([]float64, net.In), make([]float64, net.H)
	ps := positions("4x5", 40, 6)
	for i, p := range ps {
		v := val.Value(p)
		if i%2 == 1 {
			v = val.Clone().Value(p)
		}
		kit.Features(p, x)
		if want := net.Forward(x, h); math.Abs(v-want) > 1e-12 {
			t.Fatalf("%s: value %v, forward pass %v", p, v, want)
		}
	}
	for variant, want := range map[string]float64{"8x8": 10.0 / (32 * 32), "5x6": 10.0 / (20 * 15), "3x4": 10.0 / (12 * 8), "8x9": 0} {
		if got := kit.Rate(variant); math.Abs(got-want) > 1e-15 {
			t.Errorf("rate of %s: %v, want %v", variant, got, want)
		}
	}
}

// midgame is an 8x8 position after some play, with captures made and a
// piece ahead on each side.
const midgame = "8 8 w bb.bbbb./b.bb..bb/..b...../...w.b../.w....../..w..w../ww.w.www/w.wwww.w"

// TestSearchAllocations: a StarETC search allocates nothing per node, with
// the material evaluator or the network: a handful of allocations for the
// iterations' list over a search of tens of thousands of nodes.
func TestSearchAllocations(t *testing.T) {
	net := newNets(t).file("8x8")
	for _, text := range []string{"", midgame} {
		var p game.State
		if text == "" {
			p, _ = rules.Game{}.New("8x8")
		} else {
			var err error
			if p, err = rules.Parse(text); err != nil {
				t.Fatal(err)
			}
		}
		for _, e := range []*Engine{
			engine(search.StarETC, "material", 16, search.DefaultProbingFactor),
			engineNet(search.StarETC, "mlp", net, 16, search.DefaultProbingFactor),
		} {
			var nodes int64
			allocs := testing.AllocsPerRun(2, func() {
				e.ClearTT()
				nodes = e.Search(context.Background(), p, search.Limits{Depth: 4}, nil).Last().Nodes
			})
			if nodes < 10000 || allocs > 10 {
				t.Fatalf("%s eval=%s: a search of %d nodes made %.0f allocations", p, e.Config().Eval, nodes, allocs)
			}
		}
	}
}

// BenchmarkSearch is StarETC with the material evaluator and with a
// random net to depth 4 from the 8x8 start and from a middlegame position,
// the table cleared before each search.
func BenchmarkSearch(b *testing.B) {
	start, _ := rules.New(8, 8)
	mid, err := rules.Parse(midgame)
	if err != nil {
		b.Fatal(err)
	}
	net := newNets(b).file("8x8")
	for _, tc := range []struct {
		name string
		pos  *Board
		eval string
	}{{"start", start, "material"}, {"midgame", mid, "material"}, {"start-mlp", start, "mlp"}, {"midgame-mlp", mid, "mlp"}} {
		b.Run(tc.name, func(b *testing.B) {
			e := engine(search.StarETC, "material", 16, search.DefaultProbingFactor)
			if tc.eval == "mlp" {
				e = engineNet(search.StarETC, "mlp", net, 16, search.DefaultProbingFactor)
			}
			var nodes int64
			b.ReportAllocs()
			for b.Loop() {
				e.ClearTT()
				nodes += e.Search(context.Background(), tc.pos, search.Limits{Depth: 4}, nil).Last().Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
