// Package backgammon is the engine of backgammon (package
// search/backgammon): the *-minimax algorithms of package search over its
// board. This file is its own; every other non-test file is generated from
// the Dice engine's source (package search/engine) by go generate
// ./search/engine, and is never edited by hand.
//
// A move is a whole play for the roll, known by its code (package
// search/backgammon), and the roll is a chance node before every decision,
// its 21 rolls weighted 1 (doubles) or 2 out of 36. Depth counts chance
// plies, as Hauk does: gnubg's 0-ply (every play of the roll evaluated) is
// depth 1 from a rolled position, its 1-ply depth 3 and its 2-ply depth 5.
package backgammon

import (
	"fmt"
	"math/rand/v2"

	"starlab/nn"
	"starlab/search"
	rules "starlab/search/backgammon"
	"starlab/search/game"
)

// gameName names the game in messages; handName is its default hand
// evaluator (eval=contact), and eval=race the other.
const (
	gameName = "backgammon"
	handName = "contact"
)

// Board is the position the engine searches.
type Board = rules.Board

type (
	undo       = rules.Undo // what a play changes that its take-back restores
	eventUndo  = struct{}   // a roll is taken back by clearing it
	netEval    = rules.NetEvaluator
	move       = int16         // a play's code
	event      = int8          // a roll, 0 to 20
	variantKey = rules.Variant // the scoring: nets differ by it
)

const (
	maxMoves  = rules.MaxPlays
	maxEvents = rules.Rolls
	moveIDs   = rules.PlayCodes
	// maxPly bounds the distance from the root, and maxDepth, the
	// deepest search, keeps within it.
	maxPly   = 128
	maxDepth = maxPly - 8
	// alternating: every play leads to the opponent's roll.
	alternating = true
	// uniformChance: doubles weigh 1 and other rolls 2.
	uniformChance = false
	// countsChance: depth counts chance plies, as Hauk does.
	countsChance = true
	// eventsTouchEval: no evaluator reads the dice.
	eventsTouchEval = false
	// evalNoise: no evaluation noise.
	evalNoise = false
)

func isChance(b *Board) bool { return !b.Rolled() }

func chanceEvents(b *Board, ev *[maxEvents]event, w *[maxEvents]float64) (n, total int) {
	return b.Events(ev, w)
}

func happen(b *Board, ev event, _ *eventUndo) {
	hi, lo := rules.RollDice(int(ev))
	b.Roll(hi, lo)
}
func unhappen(b *Board, _ event, _ *eventUndo)        { b.ClearRoll() }
func keyAfterEvent(b *Board, ev event) uint64         { return b.KeyAfterRoll(int(ev)) }
func netHappen(*netEval, *Board, event, *eventUndo)   {}
func netUnhappen(*netEval, *Board, event, *eventUndo) {}

// moveCount is an upper bound: counting the plays means generating them,
// so Star2's probe is never taken as complete before it has searched.
func moveCount(*Board) int                         { return maxMoves }
func mover(b *Board) int                           { return b.SideToMove() }
func handEval(b *Board, h int8) float64            { return b.Hand(h) }
func handOf(name string) int8                      { return rules.HandOf(name) }
func endsOnChance(chanceRoot bool, depth int) bool { return search.EndsOnChance(!chanceRoot, depth) }

// MaxDepth returns the depth after which searching root deeper changes
// nothing, capped at maxDepth: in a race (no contact) nothing blocks, so
// every roll plays both dice and moves at least 2 pips of the side to
// move (a 6-5 with every checker on the 1 point bears off two) until it
// has borne off, and the game ends within the turns of the side with
// fewer.
func MaxDepth(root *Board) int {
	if root.Contact() {
		return maxDepth
	}
	turns := func(s int) int { return (root.Pips(s) + 1) / 2 }
	t := min(turns(root.SideToMove()), turns(1-root.SideToMove()))
	d := 4*t + 2
	if root.Rolled() {
		d--
	}
	return max(1, min(d, maxDepth))
}

// setBoard makes the evaluator and ChanceProbCut models those of b's
// variant.
func (e *Engine) setBoard(b *Board) {
	v := b.Variant()
	if e.variant == v {
		return
	}
	e.variant = v
	if e.kind == evalNet {
		e.net = rules.NewNetEvaluator(netFor(e.res, v))
	}
	if e.cpcOn {
		e.setModels(e.res.ProbCutFor(rules.BuiltinFit(v.String()), gameName, v.String(), netID(e.res, v)))
	}
}

// otherEvals are backgammon's hand evaluators beside contact.
var otherEvals = []string{rules.HandNames[rules.HandRace]}

// Game is backgammon as the stages use it.
func Game() search.Kit {
	return search.Kit{
		Game:       rules.Game{},
		HandEval:   handName,
		OtherEvals: []string{rules.HandNames[rules.HandRace]},
		// The luck reference values rolls with the built-in net where the
		// variant has one: over the same 2,000 games (net against
		// contact at depth 1) the luck-adjusted interval's variance was
		// 1.71 times smaller than over pairs with it, and 2.4 times larger
		// with contact.
		LuckEval: func(variant string) string {
			if v, err := rules.ParseVariant(variant); err == nil {
				if _, err := rules.EmbeddedNet(v); err == nil {
					return "mlp"
				}
			}
			return handName
		},
		DefaultEval: defaultEval(),
		Defaults: search.Defaults{
			Suite:         "search/testdata/backgammon.suite",
			BenchDepths:   []int{1, 3, 5},
			TuneDepths:    []int{5},
			CollectPairs:  [][2]int{{1, 3}, {3, 5}},
			CollectPhases: [2]int{10, 40},
			SampleCount:   200,
			LuckDepth:     1,
			GenPhases:     [2]int{10, 40},
		},
		Notation: "position",
		// One search meets a position at several depths: a double against
		// two other rolls, two empty plays, a hit sending checkers back.
		DepthTranspositions: true,
		NewEngine:           func(r *search.Resolved) search.Engine { return New(r) },
		MaxDepth:            func(root game.State) int { return searchDepth(boardOf(root)) },
		EndsOnChance:        func(root game.State, depth int) bool { return endsOnChance(isChance(boardOf(root)), depth) },
		Check: func(r *search.Resolved, pos game.State) error {
			c := r.Config()
			if err := search.CheckNoise(c, gameName, evalNoise); err != nil {
				return err
			}
			if err := (search.Kit{Game: rules.Game{}, HandEval: handName, OtherEvals: otherEvals}).CheckEval(c); err != nil {
				return err
			}
			v := boardOf(pos).Variant()
			if net := r.NetFile(); net != nil {
				if err := rules.CheckNet(net, v); err != nil {
					return fmt.Errorf("net %s: %v", c.Net, err)
				}
			} else if c.Eval == "mlp" {
				if _, err := rules.EmbeddedNet(v); err != nil {
					return fmt.Errorf("eval=mlp: %v", err)
				}
			}
			return r.CheckProbCut(gameName, v.String(), netID(r, v))
		},
		NetID: func(r *search.Resolved, pos game.State) string { return netID(r, boardOf(pos).Variant()) },
		ProbCutSource: func(r *search.Resolved, pos game.State) string {
			v := boardOf(pos).Variant()
			return r.ProbCutSource(rules.BuiltinFit(v.String()), gameName, v.String(), netID(r, v))
		},
		ChanceNode: func(pos game.State) (game.State, bool) {
			b := *boardOf(pos)
			if b.Kind() != game.Decision {
				return nil, false
			}
			b.ClearRoll() // the chance node before the roll
			return &b, true
		},
		Net: &search.NetKit{
			New: func(variant string, rng *rand.Rand, scale float64) (*nn.Net, error) {
				v, err := rules.ParseVariant(variant)
				if err != nil {
					return nil, err
				}
				return rules.NewNet(v, 0, rng, scale)
			},
			Check: func(net *nn.Net, variant string) error {
				v, err := rules.ParseVariant(variant)
				if err != nil {
					return err
				}
				return rules.CheckNet(net, v)
			},
			Features: func(pos game.State, x []float64) { rules.Features(boardOf(pos), x) },
			Evaluator: func(net *nn.Net) (search.NetValue, error) {
				if net.Game != rules.NetGame {
					return nil, fmt.Errorf("a net for the game %q, not %q", net.Game, rules.NetGame)
				}
				return netValue{rules.NewNetEvaluator(net)}, nil
			},
			Rate: func(string) float64 { return 0.1 },
		},
	}
}

// defaultEval is mlp where the default variant has a built-in net, else
// the contact evaluator.
func defaultEval() string {
	if _, err := rules.EmbeddedNet(rules.OnePoint); err == nil {
		return "mlp"
	}
	return handName
}

// netID returns the id of the net engines of r evaluate variant v with,
// "" when they evaluate otherwise.
func netID(r *search.Resolved, v rules.Variant) string {
	if r.Config().Eval != "mlp" {
		return ""
	}
	if net := r.NetFile(); net != nil {
		return net.ID()
	}
	if net, err := rules.EmbeddedNet(v); err == nil {
		return net.ID()
	}
	return ""
}

// netFor returns the net of variant v: the net=FILE's, else the built-in
// one (Check made sure there is one).
func netFor(r *search.Resolved, v rules.Variant) *nn.Net {
	if net := r.NetFile(); net != nil {
		return net
	}
	net, err := rules.EmbeddedNet(v)
	if err != nil {
		panic(err)
	}
	return net
}

// netValue is the engine's net evaluator as a search.NetValue.
type netValue struct{ ev *netEval }

func (v netValue) Value(pos game.State) float64 { return v.ev.Value(boardOf(pos)) }
func (v netValue) Clone() search.NetValue       { return netValue{v.ev.Clone()} }
