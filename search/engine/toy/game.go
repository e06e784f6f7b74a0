// Package toy is the engine of the toy game (package search/game/toy), a
// game of weighted, optional chance whose depth counts decisions only. This
// file is its own; every other non-test file is generated from the Dice
// engine's source (package search/engine). The engine conformance test
// (package search/engine/enginetest) holds it to the exact depth-limited
// value of gametest.Value with the table off.
package toy

import (
	"fmt"
	"strconv"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
	rules "starlab/search/game/toy"
)

// gameName names the game in messages.
const gameName = "toy"

// Board is the position the engine searches.
type Board = rules.Board

type (
	undo      = rules.Undo // the mover's counter before a move
	eventUndo = rules.Undo // the roller's counter before an event
	move      = int16
	event     = int8
	// variantKey is the target: the evaluator and the models are the same
	// for every target, but a new variant is how the engine knows it has
	// not set them up yet (the zero target is no variant).
	variantKey = int
)

const (
	maxMoves  = 3
	maxEvents = 3
	moveIDs   = 3
	// maxPly holds a search of maxDepth: a decision and a chance node
	// per unit of depth, and the chance root's ply (demands.go).
	maxPly = 2*maxDepth + 1
	// maxDepth is the deepest search: the race can last forever, so it
	// is a cap (MaxDepth), not the depth after which nothing changes.
	maxDepth = 40
	// signsFollowMover: every move hands the turn over, and an event keeps it (game.State's
	// fixed signs).
	signsFollowMover = false
	// exactFirst: two steps and a jump reach the same counters, at
	// many depths of one search.
	exactFirst = true
	// alternating: a step or a jump leads to a decision, a roll to a
	// chance node.
	alternating = false
	// uniformChance: the roll's events weigh 1, 2 and 3.
	uniformChance = false
	// countsChance: depth counts decisions only.
	countsChance = false
	// eventsTouchEval: an event moves a counter the evaluators read.
	eventsTouchEval = true
	// netPrefetches: the evaluator keeps nothing to prefetch.
	netPrefetches = false
	// evalNoise: the toy game has no evaluation noise.
	evalNoise = false
)

// netEval is the toy's network evaluator (eval=mlp with net=FILE: the toy
// has no built-in net). It keeps the position it was last told of,
// reread at every move and event, and checks it against the board at
// every evaluation, so that the engine's hooks for an evaluator that
// reads chance events are exercised and a missed one fails loudly.
type netEval struct {
	net  *nn.Net
	seen Board     // the position as the hooks last gave it
	x, h []float64 // the inputs and hidden units, reused
}

// newNetEval returns an evaluator of net.
func newNetEval(net *nn.Net) *netEval {
	return &netEval{net: net, x: make([]float64, net.In), h: make([]float64, net.H)}
}

// Reset reads the position from b.
func (n *netEval) Reset(b *Board) { n.seen = *b }

// Make follows b.MakeSaving(m, u): b has its move made.
func (n *netEval) Make(b *Board, m int) { n.Reset(b) }

// Unmake precedes the take-back of m.
func (n *netEval) Unmake(b *Board, m int) {}

// Evaluate returns the net's value from the side to move's view.
func (n *netEval) Evaluate(b *Board) float64 {
	if n.seen != *b {
		panic(fmt.Sprintf("toy evaluator: follows %s, board %s", &n.seen, b))
	}
	return n.Value(b)
}

// Value is the net's value of b computed from b alone.
func (n *netEval) Value(b *Board) float64 {
	rules.Features(b, n.x)
	return n.net.Forward(n.x, n.h)
}

// Clone returns an evaluator of the same net with buffers of its own.
func (n *netEval) Clone() *netEval { return newNetEval(n.net) }

func isChance(b *Board) bool { return b.Pending() }

func chanceEvents(b *Board, ev *[maxEvents]event, w *[maxEvents]float64) (n, total int) {
	return b.Events(ev, w)
}

func happen(b *Board, ev event, u *eventUndo)   { b.HappenSaving(int(ev), u) }
func unhappen(b *Board, ev event, u *eventUndo) { b.UnhappenRestoring(int(ev), u) }
func keyAfterEvent(b *Board, ev event) uint64   { return b.KeyAfterEvent(int(ev)) }

// netHappen keeps the evaluator in step with an event. Its take-backs
// need nothing: every evaluation follows a move or an event, each of which
// rereads the counters.
func netHappen(n *netEval, b *Board, _ event, _ *eventUndo)  { n.Reset(b) }
func netUnhappen(*netEval, *Board, event, *eventUndo)        {}
func netForget(*netEval)                                     {}
func netMoves(_ *netEval, b *Board, out *[maxMoves]move) int { return b.Moves(out) }

func moveCount(*Board) int              { return maxMoves }
func mover(b *Board) int                { return b.SideToMove() }
func handEval(b *Board, _ int8) float64 { return b.Evaluate() }

// handOf numbers the hand evaluators: the game has one.
func handOf(string) int8              { return 0 }
func endsOnChance(_ bool, _ int) bool { return false }

// MaxDepth bounds an unlimited search: the race can last forever.
func MaxDepth(*Board) int { return maxDepth }

// setBoard makes the evaluator and the ChanceProbCut models those of the
// toy's target (useVariant).
func (e *Engine) setBoard(b *Board) {
	if e.variant != b.Target() {
		e.variant = b.Target()
		e.useVariant(strconv.Itoa(b.Target()))
	}
}

// netEvalOf is the engine's evaluator of a toy net.
func netEvalOf(net *nn.Net) (*netEval, error) {
	if net.Game != rules.NetGame {
		return nil, fmt.Errorf("a net for the game %q, not %q", net.Game, rules.NetGame)
	}
	return newNetEval(net), nil
}

// gameRules gives the toy's rules and description, which Game joins with
// this engine.
func gameRules() (game.Game, search.Description) { return rules.Game{}, rules.Description() }
