// Package breakthrough is the engine of ChanceBreakthrough (package
// search/breakthrough): the *-minimax algorithms of package search over
// its board. This file is its own; every other non-test file is generated
// from the Dice engine's source (package search/engine) by go generate
// ./search/engine, and is never edited by hand.
//
// What the engine source needs of the game: a roll is a move whose child
// is a chance node, so a move node asks whether its child is one
// (alternating false); the events weigh 1 (a square with a piece) and the
// number of empty squares (nothing), so the chance windows are weighted
// (uniformChance false); depth counts decisions only, as the chapter does
// (countsChance false); and an event removes a piece that the evaluators
// read (eventsTouchEval true).
//
// # Evaluators
//
// eval=zero, eval=material, the game's hand evaluator (the chapter's: 200
// per piece and 50 per row of advance, over 1,500;
// breakthrough.Board.Evaluate), and eval=mlp; Check refuses eval=pairs,
// Dice's hand evaluator, in one line. mlp is the network of package
// search/breakthrough (breakthrough.NetEvaluator): its accumulators follow
// every move and every event the search makes, each take-back drops what
// it added, and a leaf finishes the forward pass for its side to move.
// eval=mlp is the built-in net of the position's board
// (breakthrough.EmbeddedNet: 8x8) or net=FILE, a net of the position's
// variant such as starlab train -game breakthrough -variant V writes;
// Game's Check refuses another in one line. Game's Net is the
// network as training sees it (search.NetKit), with DefaultRate as its
// learning rate.
//
// # Transposition table
//
// Positions recur at other depths within one search (a roll onto an empty
// square is a pass: two of them return to the same board and side two
// decisions shallower), so an entry of a deeper search answers a
// shallower one, as the table's rule allows (a bound is used at a depth no
// greater than its own). With the table on, expectimax, Star1, Star2 and
// StarETC therefore agree with the depth-limited value, and with each
// other, only where no such entry was met: each returns a value in [-1, 1]
// that is the depth-limited value of a tree in which some subtrees were
// searched deeper. With tt=0 (a table of 0 MiB) every sound algorithm
// returns the depth-limited value of the rules to 1e-9, which is what
// the tests check against gametest.Value.
package breakthrough

import (
	"fmt"
	"math/rand/v2"

	"starlab/nn"
	"starlab/search"
	rules "starlab/search/breakthrough"
	"starlab/search/game"
)

// gameName names the game in messages, and handName its hand evaluator
// (eval=material: the chapter's, Board.Evaluate).
const (
	gameName = "breakthrough"
	handName = "material"
)

// Board is the position the engine searches.
type Board = rules.Board

type (
	undo      = rules.Undo // the pieces and key before a move
	eventUndo = rules.Undo // the pieces and key before an event
	netEval   = rules.NetEvaluator
	move      = int16 // from*64 + to, or rules.Roll
	event     = int8  // the square whose piece is removed, or rules.Nothing
	// variantKey is the board size: a network is made for one, and the
	// ChanceProbCut models are looked up once per variant.
	variantKey = [2]int
)

const (
	maxMoves  = rules.MaxMoves
	maxEvents = rules.MaxEvents
	moveIDs   = rules.MoveIDs
	// maxPly bounds the distance from the root: a decision and a chance
	// node per ply of depth, to the deepest depth MaxDepth allows.
	maxPly = 2*maxDepth + 2
	// alternating: a piece move leads to a decision, the roll to a chance
	// node.
	alternating = false
	// uniformChance: nothing weighs the number of empty squares.
	uniformChance = false
	// countsChance: depth counts decisions only, as the chapter does.
	countsChance = false
	// eventsTouchEval: an event removes a piece the evaluators read.
	eventsTouchEval = true
	// evalNoise: the chapter's random factor (noise=) exists here.
	evalNoise = true
)

// maxDepth is the deepest search: no game-theoretic horizon bounds a game
// (a roll onto an empty square is a pass), and the chapter searches to
// depth 5 at 5 seconds a move, so this is a cap, far beyond any search
// that finishes.
const maxDepth = 64

// The network's stack of accumulators has a frame for every ply a search
// can reach: the array's length is negative, and the build fails, if not.
var _ [rules.NetPlies - maxPly]struct{}

func isChance(b *Board) bool { return b.Pending() }

func chanceEvents(b *Board, ev *[maxEvents]event, w *[maxEvents]float64) (n, total int) {
	return b.Events(ev, w)
}

func happen(b *Board, ev event, u *eventUndo)   { b.HappenSaving(int(ev), u) }
func unhappen(b *Board, ev event, u *eventUndo) { b.UnhappenRestoring(int(ev), u) }
func keyAfterEvent(b *Board, ev event) uint64   { return b.KeyAfterEvent(int(ev)) }

func netHappen(n *netEval, b *Board, ev event, _ *eventUndo)   { n.Happen(b, int(ev)) }
func netUnhappen(n *netEval, b *Board, ev event, _ *eventUndo) { n.Unhappen(b, int(ev)) }

// moveCount is the number of moves of a decision, none when it is over
// (its value is then its result, a complete search).
func moveCount(b *Board) int {
	if b.Over() {
		return 0
	}
	return b.MoveCount()
}

func mover(b *Board) int                { return b.SideToMove() }
func handEval(b *Board, _ int8) float64 { return b.Evaluate() }

// handOf numbers the hand evaluators: the game has one.
func handOf(string) int8              { return 0 }
func endsOnChance(_ bool, _ int) bool { return false }

// MaxDepth bounds an unlimited search: nothing bounds a game's length, so
// it is a cap (maxDepth), not the depth after which nothing changes.
func MaxDepth(*Board) int { return maxDepth }

// setBoard makes the evaluator and the ChanceProbCut models those of b's
// variant: the evaluator of net=FILE or of the built-in net (Check
// checked that the net is of the variant), and the parameters of
// probcut=FILE, else the built-in fit of the variant for its net
// (breakthrough.BuiltinFit: 8x8), else the defaults.
func (e *Engine) setBoard(b *Board) {
	v := variantKey{b.W(), b.H()}
	if e.variant == v {
		return
	}
	e.variant = v
	if e.kind == evalNet {
		net, err := newNetEval(e.res, v[0], v[1])
		if err != nil {
			panic(err) // Check refuses it first
		}
		e.net = net
	}
	if e.cpcOn {
		variant := rules.Variant(v[0], v[1])
		e.setModels(e.res.ProbCutFor(rules.BuiltinFit(variant), gameName, variant, netID(e.res, v[0], v[1])))
	}
}

// Game is ChanceBreakthrough as the stages use it: the contract, this
// engine, and the depths a search can take.
func Game() search.Kit {
	return search.Kit{
		Game:     rules.Game{},
		HandEval: handName,
		Chapter:  rules.Chapter,
		// The suites and settings of the chapter's measurements on 8x8
		// (docs/reproducing.md: ChanceBreakthrough, the chapter's section
		// 5.6.3); bench's depths are the shallow ones, which every
		// algorithm reaches in seconds.
		Defaults: search.Defaults{
			Suite:         "search/testdata/breakthrough8x8-measure.suite",
			BenchDepths:   []int{1, 2, 3},
			TuneDepths:    []int{5},
			CollectPairs:  [][2]int{{1, 3}, {2, 4}, {3, 5}},
			CollectPhases: [2]int{10, 31},
		},
		NewEngine:    func(r *search.Resolved) search.Engine { return New(r) },
		MaxDepth:     func(root game.State) int { return searchDepth(boardOf(root)) },
		EndsOnChance: func(game.State, int) bool { return false },
		Check:        check,
		NetID: func(r *search.Resolved, pos game.State) string {
			return netID(r, boardOf(pos).W(), boardOf(pos).H())
		},
		ProbCutSource: func(r *search.Resolved, pos game.State) string {
			variant := rules.Game{}.Variant(pos)
			return r.ProbCutSource(rules.BuiltinFit(variant), gameName, variant, netID(r, boardOf(pos).W(), boardOf(pos).H()))
		},
		ChanceNode: func(pos game.State) (game.State, bool) {
			if pos.Kind() != game.Decision {
				return nil, false
			}
			c := pos.Clone()
			c.Play(rules.Roll) // the roll, always allowed
			return c, true
		},
		Net: &search.NetKit{
			New: func(variant string, rng *rand.Rand, scale float64) (*nn.Net, error) {
				w, h, err := rules.ParseVariant(variant)
				if err != nil {
					return nil, err
				}
				return rules.NewNet(w, h, rng, scale)
			},
			Check: func(net *nn.Net, variant string) error {
				w, h, err := rules.ParseVariant(variant)
				if err != nil {
					return err
				}
				return rules.CheckNet(net, w, h)
			},
			Features: func(pos game.State, x []float64) { rules.Features(boardOf(pos), x) },
			Evaluator: func(net *nn.Net) (search.NetValue, error) {
				ev, err := rules.NewNetEvaluator(net)
				if err != nil {
					return nil, err
				}
				return netValue{ev}, nil
			},
			Rate: func(variant string) float64 {
				w, h, err := rules.ParseVariant(variant)
				if err != nil {
					return 0
				}
				return DefaultRate(w, h)
			},
		},
	}
}

// DefaultRate is the TD learning rate of a w x h board: 10/(4w *
// HiddenSize), 0.0098 at 8x8 and 0.033 at 5x6. As for Dice's 2.5/n², the
// step a TD update makes on the output grows with the number of active
// inputs, here the pieces, most at the start (4w); each of them moves a
// weight into every hidden unit, and the hidden units grow with the board
// faster than Dice's do, so the rate is over both. The constant is
// measured: after 10,000 games of TD(0) from seed 1, staretc:depth=1
// against material at depth 1 over 400 games from 50 sampled 5x6
// positions scored 32%, 61%, 40% and 5% with rates 0.01, 0.03, 0.06 and
// 0.125 (Dice's rule), and over 200 games on 8x8 47.5%, 32.5%, 29% and
// 9.5% with rates 0.01, 0.019, 0.04 and 0.078. Other seeds kept the best
// rate: on 5x6 52% to 66% at 0.03 against 35% to 55% at 0.015 and 0.045,
// on 8x8 20% at 0.01 against 13% at 0.005 and 7.5% at 0.019.
func DefaultRate(w, h int) float64 { return 10 / float64(4*w*rules.HiddenSize(w, h)) }

// netValue is the engine's net evaluator as a search.NetValue: the value
// of a board computed from its pieces (breakthrough.NetEvaluator.Value).
type netValue struct{ ev *netEval }

func (v netValue) Value(pos game.State) float64 { return v.ev.Value(boardOf(pos)) }
func (v netValue) Clone() search.NetValue       { return netValue{v.ev.Clone()} }

// checkNet reports whether engines of r can evaluate w x h boards with
// their network: eval=mlp needs net=FILE, a ChanceBreakthrough net of the
// size, or a built-in net of the size. It says nothing of other
// evaluators.
func checkNet(r *search.Resolved, w, h int) error {
	c := r.Config()
	if c.Eval != "mlp" {
		return nil
	}
	net := r.NetFile()
	if net == nil {
		if _, err := rules.EmbeddedNet(w, h); err != nil {
			return fmt.Errorf("eval=mlp: %v", err)
		}
		return nil
	}
	if _, _, err := rules.NetSize(net); err != nil {
		return fmt.Errorf("net file %s: %v", c.Net, err)
	}
	if err := rules.CheckNet(net, w, h); err != nil {
		return fmt.Errorf("net %s: %v", c.Net, err)
	}
	return nil
}

// newNetEval returns the evaluator of engines of r for w x h boards, or
// checkNet's error.
func newNetEval(r *search.Resolved, w, h int) (*netEval, error) {
	if err := checkNet(r, w, h); err != nil {
		return nil, err
	}
	if net := r.NetFile(); net != nil {
		return rules.NewNetEvaluator(net)
	}
	net, err := rules.EmbeddedNet(w, h)
	if err != nil {
		return nil, err
	}
	return rules.NewNetEvaluator(net)
}

// netID returns the id of the network engines of r evaluate w x h boards
// with, the net=FILE's or the built-in net's of the size; "" when the
// evaluator is not a network or there is none.
func netID(r *search.Resolved, w, h int) string {
	if r.Config().Eval != "mlp" {
		return ""
	}
	if net := r.NetFile(); net != nil {
		return net.ID()
	}
	if net, err := rules.EmbeddedNet(w, h); err == nil {
		return net.ID()
	}
	return ""
}

// check refuses what engines of r cannot search pos with: a network that
// is not of pos's variant (checkNet), and a ChanceProbCut fit
// made for another game, variant or net.
func check(r *search.Resolved, pos game.State) error {
	if err := search.CheckNoise(r.Config(), gameName, evalNoise); err != nil {
		return err
	}
	if err := search.CheckHandEval(r.Config(), gameName, handName); err != nil {
		return err
	}
	if err := checkNet(r, boardOf(pos).W(), boardOf(pos).H()); err != nil {
		return err
	}
	return r.CheckProbCut(gameName, rules.Game{}.Variant(pos), netID(r, boardOf(pos).W(), boardOf(pos).H()))
}
