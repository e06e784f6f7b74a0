// Package enginetest is the conformance test of a game's search engine
// (package starlab/search/engine): one test, run over every registered
// game and the toy game by this package's own tests, and from an engine's
// tests over the variants and networks that engine wants checked as well,
// as gametest.Check is for the game contract.
//
// Check holds an engine, through search.Kit only, to the plain recursion
// of gametest.Value with the table off (tt=0), over positions reached by
// random play through the contract, decisions and chance nodes alike, with
// every evaluator the game accepts for the variant (zero, the hand
// evaluator, and mlp where the game has a network for it):
//
//   - expectimax, Star1, Star2 and StarETC (probing factors 1 and 2)
//     return the exact depth-limited value to 1e-9 at every iteration,
//     each position searched as deep as the recursion can afford (a
//     budget of leaves), and complete every iteration they are asked for;
//   - Evaluate is the value of depth 0;
//   - ChanceProbCut with bounds too wide to cut (t=1e6) returns the exact
//     value and cuts nothing;
//   - with the table on and cleared, the first iteration is exact and
//     every iteration's value lies in [L, U] (an entry of a deeper search
//     may answer a shallower one where positions recur at other depths,
//     so deeper iterations are not held to the depth-limited value);
//   - the positions hold decisions and chance nodes, and Star1 and Star2
//     cut weighted chance nodes, so the agreement is not that of searches
//     that never cut.
//
// The leaf values of the recursion are the engine's own Evaluate, which
// reads each position afresh: the search, which keeps an incremental
// evaluator through moves, events and take-backs, must agree with it.
package enginetest

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"starlab/search"
	"starlab/search/game"
	"starlab/search/game/gametest"
)

// Options says what Check searches; the zero value checks the game's
// default variant with its built-in network.
type Options struct {
	// Variant is the variant the positions are of; "" is the default.
	Variant string
	// Net is the net=FILE of eval=mlp; "" the game's built-in network of
	// the variant, if it has one (else eval=mlp is not checked).
	Net string
	// Positions is the number of positions; 0 is 24, or 8 with -short.
	Positions int
	// Leaves bounds the recursion's evaluations per position and depth:
	// each position is searched to the deepest depth (at most MaxDepth)
	// whose exact value costs no more. 0 is 20,000, or 4,000 with -short.
	Leaves int
	// MaxDepth is the deepest depth searched; 0 is 6.
	MaxDepth int
	// Seed picks the positions.
	Seed uint64
	// States, when given, are the positions instead of random play's
	// (a game's small positions, whose exact values reach deeper).
	States []game.State
	// Evals, when given, are the evaluators checked instead of zero, the
	// game's hand evaluator and mlp where it has a net.
	Evals []string
}

// tol is how close the sound algorithms' values must be to the exact ones.
const tol = 1e-9

// Check runs the conformance test of g's engine (see the package
// documentation) and fails t at the first disagreement, naming the game,
// the algorithm, the evaluator, the position and the depth.
func Check(t *testing.T, g search.Kit, o Options) {
	t.Helper()
	o = o.withDefaults(g)
	ps := o.States
	if ps == nil {
		ps = Positions(g, o.Variant, o.Positions, o.Seed)
	}
	var chance, decision int
	for _, p := range ps {
		if p.Kind() == game.Chance {
			chance++
		} else {
			decision++
		}
	}
	if chance == 0 || decision == 0 {
		t.Fatalf("%s %s: %d chance nodes and %d decisions among the positions: the check would miss a kind of node", g.Name(), o.Variant, chance, decision)
	}
	var cuts search.Stats
	evals := o.Evals
	if evals == nil {
		evals = evaluators(g, o, ps[0])
	}
	for _, eval := range evals {
		x := newExact(g, o, eval, ps)
		t.Logf("%s %s eval=%s: %d positions (%d chance nodes) searched to depths %d to %d", g.Name(), o.Variant, eval, len(ps), chance, slices.Min(x.depth), slices.Max(x.depth))
		for _, a := range []search.Algorithm{search.Expectimax, search.Star1, search.Star2, search.StarETC} {
			for _, k := range []int{1, 2} {
				if k > 1 && !a.Techniques().Star2Probing {
					continue // only Star2's probing reads the probing factor
				}
				e := newEngine(g, a, eval, o.Net, 0, func(c *search.Config) { c.ProbingFactor = k })
				for i, p := range ps {
					if v, want := e.Evaluate(p), x.value(i, 0); math.Abs(v-want) > tol {
						t.Fatalf("%s %s eval=%s on %s: Evaluate %v, exact depth 0 %v", g.Name(), a, eval, p, v, want)
					}
					res := e.Search(context.Background(), p, search.Limits{Depth: x.depth[i]}, nil)
					if want := min(x.depth[i], g.MaxDepth(p)); len(res.Iterations) != want {
						t.Fatalf("%s %s eval=%s on %s: %d iterations, want %d", g.Name(), a, eval, p, len(res.Iterations), want)
					}
					for _, it := range res.Iterations {
						if want := x.value(i, it.Depth); math.Abs(it.Score-want) > tol {
							t.Fatalf("%s %s eval=%s k=%d on %s depth %d: %v, exact %v", g.Name(), a, eval, k, p, it.Depth, it.Score, want)
						}
					}
					if a != search.Expectimax {
						cuts.Star1Cut += res.Last().Stats.Star1Cut
						cuts.Star2Cut += res.Last().Stats.Star2Cut
					}
				}
			}
		}
		wideCPC(t, g, o, eval, x, ps)
		tableOn(t, g, o, eval, x, ps)
	}
	if cuts.Star1Cut == 0 || cuts.Star2Cut == 0 {
		t.Fatalf("%s %s: %d Star1 and %d Star2 cut-offs: the agreement is that of searches that never cut", g.Name(), o.Variant, cuts.Star1Cut, cuts.Star2Cut)
	}
}

// wideCPC: ChanceProbCut with bounds too wide to cut returns the exact
// value with the table off, and cuts nothing.
func wideCPC(t *testing.T, g search.Kit, o Options, eval string, x *exact, ps []game.State) {
	t.Helper()
	e := newEngine(g, search.CPC, eval, o.Net, 0, func(c *search.Config) { c.ProbCutT = 1e6 })
	for i, p := range ps {
		res := e.Search(context.Background(), p, search.Limits{Depth: x.depth[i]}, nil)
		for _, it := range res.Iterations {
			if want := x.value(i, it.Depth); math.Abs(it.Score-want) > tol || it.Stats.CPCCut != 0 {
				t.Fatalf("%s cpc t=1e6 eval=%s on %s depth %d: %v (%d cuts), exact %v", g.Name(), eval, p, it.Depth, it.Score, it.Stats.CPCCut, want)
			}
		}
	}
}

// tableOn: with the table on, each position searched afresh (ClearTT) gets
// the exact value of depth 1, and every iteration's value lies in [L, U].
func tableOn(t *testing.T, g search.Kit, o Options, eval string, x *exact, ps []game.State) {
	t.Helper()
	for _, a := range []search.Algorithm{search.Expectimax, search.StarETC} {
		e := newEngine(g, a, eval, o.Net, 1, nil)
		for i, p := range ps {
			e.ClearTT()
			for _, it := range e.Search(context.Background(), p, search.Limits{Depth: x.depth[i]}, nil).Iterations {
				if it.Depth == 1 {
					if want := x.value(i, 1); math.Abs(it.Score-want) > tol {
						t.Fatalf("%s %s eval=%s tt=1 on %s depth 1: %v, exact %v", g.Name(), a, eval, p, it.Score, want)
					}
				}
				if it.Score < search.L || it.Score > search.U {
					t.Fatalf("%s %s eval=%s tt=1 on %s depth %d: %v out of [L, U]", g.Name(), a, eval, p, it.Depth, it.Score)
				}
			}
		}
	}
}

// withDefaults fills the options left zero.
func (o Options) withDefaults(g search.Kit) Options {
	if o.Variant == "" {
		o.Variant = g.DefaultVariant()
	}
	if o.Positions == 0 {
		o.Positions = 24
		if testing.Short() {
			o.Positions = 8
		}
	}
	if o.Leaves == 0 {
		o.Leaves = 20000
		if testing.Short() {
			o.Leaves = 4000
		}
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = 6
	}
	return o
}

// evaluators returns the evaluators g's engines take for positions like
// pos: zero, the hand evaluator, and mlp when the game has a network for
// the variant (or o.Net is one).
func evaluators(g search.Kit, o Options, pos game.State) []string {
	evals := []string{"zero", g.HandEval}
	c := search.DefaultConfig(search.StarETC)
	c.Eval, c.Net = "mlp", o.Net
	if r, err := c.Resolve(); err == nil && g.Check(r, pos) == nil {
		evals = append(evals, "mlp")
	}
	return evals
}

// newEngine returns an engine of g: algo with eval (and net for mlp), a
// table of ttMiB (0: off), and whatever set changes.
func newEngine(g search.Kit, algo search.Algorithm, eval, net string, ttMiB int, set func(*search.Config)) search.Engine {
	c := search.DefaultConfig(algo)
	c.Eval, c.TTMiB = eval, ttMiB
	if eval == "mlp" {
		c.Net = net
	}
	if set != nil {
		set(&c)
	}
	return g.NewEngine(c.MustResolve())
}

// exact holds the recursion's values of the positions under one
// evaluator, and the depth each position is searched to.
type exact struct {
	g      search.Kit
	eval   func(game.State) float64
	ps     []game.State
	depth  []int
	values []map[int]float64
}

// newExact picks each position's depth: the deepest, up to o.MaxDepth,
// whose exact value takes at most o.Leaves evaluations (and at least 1).
func newExact(g search.Kit, o Options, eval string, ps []game.State) *exact {
	leaf := newEngine(g, search.Expectimax, eval, o.Net, 0, nil)
	evals := 0
	x := &exact{g: g, ps: ps, eval: func(s game.State) float64 { evals++; return leaf.Evaluate(s) }}
	for i := range ps {
		x.values = append(x.values, map[int]float64{})
		d := 1
		for ; d <= o.MaxDepth; d++ {
			evals = 0
			x.value(i, d)
			if evals > o.Leaves {
				break
			}
		}
		x.depth = append(x.depth, max(d-1, 1))
	}
	return x
}

// value is gametest.Value of position i at depth, remembered.
func (x *exact) value(i, depth int) float64 {
	v, ok := x.values[i][depth]
	if !ok {
		v = gametest.Value(x.ps[i], depth, x.g.CountsChance(), x.eval)
		x.values[i][depth] = v
	}
	return v
}

// Positions returns count positions of variant of g reached by random
// play from its start through the contract, drawn with a PCG seeded by
// seed: a random number of plies (moves uniform, events by weight), then,
// one time in two at a decision, a move drawn among those that lead to a
// chance node (a roll, where rolling is a move), so that both kinds of
// node come up; none is over.
func Positions(g search.Kit, variant string, count int, seed uint64) []game.State {
	rng := rand.New(rand.NewPCG(seed, 0x656e67696e65)) // "engine"
	var ps []game.State
	for tries := 0; len(ps) < count; tries++ {
		if tries > 100*count {
			panic("enginetest: random play from " + g.Name() + " " + variant + " ends too soon for positions")
		}
		s, err := g.New(variant)
		if err != nil {
			panic(err)
		}
		for range rng.IntN(24) {
			if s.Kind() == game.Over {
				break
			}
			step(s, rng)
		}
		if s.Kind() == game.Decision && rng.IntN(2) == 0 {
			toChance(s, rng)
		}
		if s.Kind() != game.Over {
			ps = append(ps, s)
		}
	}
	return ps
}

// toChance plays, at a decision, a move drawn uniformly among those whose
// child is a chance node, if there is one.
func toChance(s game.State, rng *rand.Rand) {
	var rolls []game.Move
	for _, m := range s.Legal(nil) {
		c := s.Clone()
		c.Play(m)
		if c.Kind() == game.Chance {
			rolls = append(rolls, m)
		}
	}
	if len(rolls) > 0 {
		s.Play(rolls[rng.IntN(len(rolls))])
	}
}

// step plays a move drawn uniformly or an event drawn by weight.
func step(s game.State, rng *rand.Rand) {
	if s.Kind() == game.Decision {
		ms := s.Legal(nil)
		s.Play(ms[rng.IntN(len(ms))])
		return
	}
	evs, total := s.Outcomes(nil)
	if e, ok := game.EventAt(evs, rng.IntN(total)); ok {
		s.Happen(e)
	}
}
