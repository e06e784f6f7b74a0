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
// The configuration grammar knows the evaluator names zero, pairs and
// mlp. Here pairs selects the game's hand evaluator, material (200 per
// piece and 50 per row of advance, over 1,500; breakthrough.Board.Evaluate),
// until evaluator names become per-game. No network is built in: Game's
// Check refuses eval=mlp in one line. The engine's network type, netEval,
// is a stand-in that keeps the material evaluation incrementally, read
// again after every move and every event, so that the engine's hooks for a
// network that follows chance events are exercised by the tests (which
// build engines of eval=mlp directly).
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

	"starlab/search"
	rules "starlab/search/breakthrough"
	"starlab/search/game"
)

// gameName names the game in messages.
const gameName = "breakthrough"

// Board is the position the engine searches.
type Board = rules.Board

type (
	undo      = rules.Undo // the pieces and key before a move
	eventUndo = rules.Undo // the pieces and key before an event
	move      = int16      // from*64 + to, or rules.Roll
	event     = int8       // the square whose piece is removed, or rules.Nothing
	// variantKey is the board size: the evaluators do not depend on it,
	// but the ChanceProbCut models are looked up once per variant.
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
)

// maxDepth is the deepest search: no game-theoretic horizon bounds a game
// (a roll onto an empty square is a pass), and the chapter searches to
// depth 5 at 5 seconds a move, so this is a cap, far beyond any search
// that finishes.
const maxDepth = 64

// netEval is the stand-in for a network (no network exists for
// ChanceBreakthrough yet): the material evaluation, read from the board
// after every move and every event and kept until the next, so that an
// evaluation after an event the engine did not report is the position's
// before it. Its take-backs need nothing: every evaluation follows a move
// or an event.
type netEval struct {
	v float64 // the material evaluation of the board last read
}

// Reset reads the evaluation of b.
func (n *netEval) Reset(b *Board) { n.v = b.Evaluate() }

// Make follows b.MakeSaving(m, u): b has its move made.
func (n *netEval) Make(b *Board, _ int) { n.Reset(b) }

// Unmake precedes the take-back of m.
func (n *netEval) Unmake(*Board, int) {}

// Evaluate returns the evaluation last read.
func (n *netEval) Evaluate(*Board) float64 { return n.v }

func isChance(b *Board) bool { return b.Pending() }

func chanceEvents(b *Board, ev *[maxEvents]event, w *[maxEvents]float64) (n, total int) {
	return b.Events(ev, w)
}

func happen(b *Board, ev event, u *eventUndo)   { b.HappenSaving(int(ev), u) }
func unhappen(b *Board, ev event, u *eventUndo) { b.UnhappenRestoring(int(ev), u) }
func keyAfterEvent(b *Board, ev event) uint64   { return b.KeyAfterEvent(int(ev)) }

func netHappen(n *netEval, b *Board, _ event, _ *eventUndo) { n.Reset(b) }
func netUnhappen(*netEval, *Board, event, *eventUndo)       {}

// moveCount is the number of moves of a decision, none when it is over
// (its value is then its result, a complete search).
func moveCount(b *Board) int {
	if b.Over() {
		return 0
	}
	return b.MoveCount()
}

func mover(b *Board) int              { return b.SideToMove() }
func handEval(b *Board) float64       { return b.Evaluate() }
func endsOnChance(_ bool, _ int) bool { return false }

// MaxDepth bounds an unlimited search: nothing bounds a game's length, so
// it is a cap (maxDepth), not the depth after which nothing changes.
func MaxDepth(*Board) int { return maxDepth }

// setBoard makes the evaluator and the ChanceProbCut models those of b's
// variant: the material evaluator for every size, and the parameters of
// probcut=FILE or the defaults (no fit exists yet).
func (e *Engine) setBoard(b *Board) {
	v := variantKey{b.W(), b.H()}
	if e.variant == v {
		return
	}
	e.variant = v
	if e.kind == evalNet && e.net == nil {
		e.net = &netEval{}
	}
	if e.cpcOn {
		e.setModels(e.res.ProbCutFor(nil, gameName, rules.Variant(v[0], v[1]), ""))
	}
}

// Game is ChanceBreakthrough as the stages use it: the contract, this
// engine, and the depths a search can take.
func Game() search.Game {
	return search.Game{
		Game:         rules.Game{},
		NewEngine:    func(r *search.Resolved) search.Engine { return New(r) },
		MaxDepth:     func(root game.State) int { return MaxDepth(boardOf(root)) },
		EndsOnChance: func(game.State, int) bool { return false },
		Check:        check,
		NetID:        func(*search.Resolved, game.State) string { return "" },
		ProbCutSource: func(r *search.Resolved, pos game.State) string {
			return r.ProbCutSource(nil, gameName, rules.Game{}.Variant(pos), "")
		},
		ChanceNode: func(pos game.State) (game.State, bool) {
			if pos.Kind() != game.Decision {
				return nil, false
			}
			c := pos.Clone()
			c.Play(rules.Roll) // the roll, always allowed
			return c, true
		},
	}
}

// check refuses what engines of r cannot search ChanceBreakthrough with:
// a network (none is built in, and a net file is a Dice net), and a
// ChanceProbCut fit made for another game or variant.
func check(r *search.Resolved, pos game.State) error {
	c := r.Config()
	if c.Eval == "mlp" {
		return fmt.Errorf("eval=mlp: no network is built in for breakthrough; use eval=pairs (material) or eval=zero")
	}
	return r.CheckProbCut(gameName, rules.Game{}.Variant(pos), "")
}
