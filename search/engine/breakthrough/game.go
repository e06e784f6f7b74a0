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
	"starlab/nn"
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
	// signsFollowMover: every move hands the turn over, and an event keeps it (game.State's
	// fixed signs).
	signsFollowMover = false
	// exactFirst: positions recur at other depths, but seldom within a
	// search of the bench's depths, where the bounds kept with their
	// windows cost fewer nodes than exact values first (docs/search.md).
	exactFirst = false
	// alternating: a piece move leads to a decision, the roll to a chance
	// node.
	alternating = false
	// uniformChance: nothing weighs the number of empty squares.
	uniformChance = false
	// countsChance: depth counts decisions only, as the chapter does.
	countsChance = false
	// eventsTouchEval: an event removes a piece the evaluators read.
	eventsTouchEval = true
	// netPrefetches: the evaluator keeps nothing to prefetch.
	netPrefetches = false
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
func netForget(*netEval)                                       {}
func netMoves(_ *netEval, b *Board, out *[maxMoves]move) int   { return b.Moves(out) }

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
// variant (useVariant): the evaluator of net=FILE or of the built-in net
// (Check checked that the net is of the variant), and the parameters of
// probcut=FILE, else the built-in fit of the variant for its net
// (breakthrough.BuiltinFit: 8x8), else the defaults.
func (e *Engine) setBoard(b *Board) {
	if v := (variantKey{b.W(), b.H()}); e.variant != v {
		e.variant = v
		e.useVariant(rules.Variant(v[0], v[1]))
	}
}

// netEvalOf is the engine's evaluator of a ChanceBreakthrough net.
func netEvalOf(net *nn.Net) (*netEval, error) { return rules.NewNetEvaluator(net) }

// gameRules gives ChanceBreakthrough's rules and description, which Game joins with
// this engine.
func gameRules() (game.Game, search.Description) { return rules.Game{}, rules.Description() }
