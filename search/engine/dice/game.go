// Package dice is the Dice engine: the *-minimax algorithms (Expectimax,
// Star1, Star2, StarETC, ChanceProbCut), the table's use, move ordering and
// iterative deepening over the Dice board (package search/dice). It is
// also the engine source: every non-test file here but this one is copied
// into each other game's engine by go generate (package search/engine),
// and this file is all the source knows of Dice: the board and its undo,
// the move and event types, the constants that fold away what Dice does
// not need (a move always leads to the roll, every roll is equally likely,
// depth counts chance plies, no evaluator reads the roll) and the small
// functions the engine calls per node, each of the names demands.go
// declares. See package search for the algorithms, their conventions and
// the table.
package dice

import (
	"starlab/nn"
	"starlab/search"
	rules "starlab/search/dice"
	"starlab/search/game"
)

// gameName names the game in messages.
const gameName = "dice"

// Board is the position the engine searches.
type Board = rules.Board

type (
	undo      = rules.Undo // what a move changes that its take-back restores
	eventUndo = struct{}   // a roll changes nothing that must be restored
	netEval   = rules.NetEvaluator
	move      = int16 // a cell
	event     = int8  // a rolled line
)

const (
	maxMoves  = rules.MaxN     // moves of a rolled position: the empty cells of a line
	maxEvents = rules.MaxN     // events of a roll: the mover's lines with an empty cell
	moveIDs   = rules.MaxCells // moves are cells, numbered below this
	// maxPly bounds the distance from the root: a move ply and a chance
	// ply per checker on the largest board.
	maxPly = 2*rules.MaxCells + 4
	// maxDepth is the deepest search: a move and a roll per empty cell of
	// the largest board (MaxDepth).
	maxDepth = 2 * rules.MaxCells
	// signsFollowMover: every move hands the roll to the other side, whose roll keeps it (game.State's
	// fixed signs).
	signsFollowMover = false
	// exactFirst: a position recurs only by transposition at one depth: bounds kept
	// with their windows serve the Star algorithms best.
	exactFirst = false
	// alternating: every move leads to a chance node (the next roll), so
	// a move node never asks what its child is.
	alternating = true
	// uniformChance: every roll is equally likely, so the chance windows
	// are sums over the events and no weight is read.
	uniformChance = true
	// countsChance: depth counts chance plies, as the thesis does.
	countsChance = true
	// eventsTouchEval: no evaluator reads the roll.
	eventsTouchEval = false
	// netPrefetches: the evaluator keeps nothing to prefetch.
	netPrefetches = false
	// evalNoise: Dice has no evaluation noise: the chapter adds none.
	evalNoise = false
)

// variantKey is what the evaluator and the ChanceProbCut models depend
// on: the board size and the win length.
type variantKey = [2]int

func isChance(b *Board) bool { return b.Roll() == rules.NoRoll }

// chanceEvents writes the rolls of the side to move, each of weight 1.
func chanceEvents(b *Board, ev *[maxEvents]event, _ *[maxEvents]float64) (n, total int) {
	n = b.Rolls(ev)
	return n, n
}

func happen(b *Board, ev event, _ *eventUndo)                { b.SetRoll(int(ev)) }
func unhappen(b *Board, _ event, _ *eventUndo)               { b.ClearRoll() }
func keyAfterEvent(b *Board, ev event) uint64                { return b.KeyAfterRoll(int(ev)) }
func netHappen(*netEval, *Board, event, *eventUndo)          {}
func netUnhappen(*netEval, *Board, event, *eventUndo)        {}
func netForget(*netEval)                                     {}
func netMoves(_ *netEval, b *Board, out *[maxMoves]move) int { return b.Moves(out) }
func moveCount(b *Board) int                                 { return b.LineEmpty(b.Roll()) }
func mover(b *Board) int                                     { return int(b.SideToMove()) }
func handEval(b *Board, _ int8) float64                      { return rules.Pairs{}.Evaluate(b) }

// handOf numbers the hand evaluators: the game has one.
func handOf(string) int8                           { return 0 }
func endsOnChance(chanceRoot bool, depth int) bool { return search.EndsOnChance(!chanceRoot, depth) }

// MaxDepth returns the depth after which searching root deeper changes
// nothing: every path has reached the end of the game.
func MaxDepth(root *Board) int {
	d := 2 * root.Empties()
	if root.Roll() != rules.NoRoll {
		d--
	}
	return max(d, 1)
}

// setBoard makes the engine's evaluator and ChanceProbCut models those of
// b's board size and win length (useVariant).
func (e *Engine) setBoard(b *Board) {
	if v := (variantKey{b.N(), b.M()}); e.variant != v {
		e.variant = v
		e.useVariant(rules.Variant(v[0], v[1]))
	}
}

// netEvalOf is the engine's evaluator of a Dice net.
func netEvalOf(net *nn.Net) (*netEval, error) { return rules.NewNetEvaluator(net) }

// gameRules gives Dice's rules and description, which Game joins with
// this engine.
func gameRules() (game.Game, search.Description) { return rules.Game{}, rules.Description() }
