package breakthrough

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search"
	rules "starlab/search/breakthrough"
	"starlab/search/engine/enginetest"
	"starlab/search/game"
)

// positions returns count positions of variant, none over, half of them
// chance nodes or so: those of the engine conformance test
// (enginetest.Positions).
func positions(variant string, count int, seed uint64) []*Board {
	var ps []*Board
	for _, s := range enginetest.Positions(Game(), variant, count, seed) {
		ps = append(ps, s.(*Board))
	}
	return ps
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

// smallBoards are the variants the engine conformance test runs on here,
// besides the registry's test at 8x8: on them the exact recursion reaches
// deeper, and games end.
var smallBoards = []string{"3x4", "4x5", "5x5"}

// TestConformsOnSmallBoards runs the engine conformance test
// (enginetest.Check) on the small boards, with a random net of each board
// as eval=mlp: the weighted chance windows, the roll as a move, depth
// counting decisions only and the network's accumulators following moves,
// events and take-backs, against the plain recursion of the rules.
func TestConformsOnSmallBoards(t *testing.T) {
	ns := newNets(t)
	for _, v := range smallBoards {
		enginetest.Check(t, Game(), enginetest.Options{Variant: v, Net: ns.file(v), Seed: 1})
	}
}

// TestPositionsCover: the positions of the conformance test on the small
// boards (the first 8 of each: those of -short) hold positions with
// captures to make and chance nodes with empty squares to roll onto, so
// that the test sees every kind of node of this game.
func TestPositionsCover(t *testing.T) {
	var nothing, captures int
	for _, v := range smallBoards {
		for _, s := range enginetest.Positions(Game(), v, 8, 1) {
			p := s.(*Board)
			if p.Pending() {
				if evs, _ := p.Outcomes(nil); evs[0].ID == rules.Nothing {
					nothing++
				}
				continue
			}
			for _, m := range p.Legal(nil) {
				if p.IsCapture(int(m)) {
					captures++
					break
				}
			}
		}
	}
	if captures < 3 || nothing < 3 {
		t.Fatalf("%d chance nodes with nothing to remove, %d decisions with a capture", nothing, captures)
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
