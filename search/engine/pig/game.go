// Package pig is the engine of Pig (package search/pig), a game in which
// a side decides again after its roll and a roll of 1 hands the move
// over: its values follow the mover (signsFollowMover), a move's or an
// event's child negated only where its mover is the other side. This file
// is its own; every other non-test file is generated from the Dice
// engine's source (package search/engine). The engine conformance test
// (package search/engine/enginetest) holds it to the exact depth-limited
// value of gametest.Value with the table off, and its own tests to an
// independent solver.
package pig

import (
	"fmt"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
	rules "starlab/search/pig"
)

// gameName names the game in messages.
const gameName = "pig"

// Board is the position the engine searches.
type Board = rules.Board

type (
	undo      = rules.Undo // what a move changes
	eventUndo = rules.Undo // what an event changes
	move      = int8
	event     = int8
	// variantKey is the variant's name: the evaluator and the models are
	// the same for every variant, but a new variant is how the engine
	// knows it has not set them up yet (the empty name is no variant).
	variantKey = string
)

const (
	maxMoves  = 2
	maxEvents = rules.Faces
	moveIDs   = 2
	// maxPly holds a search of maxDepth: a decision and a chance node
	// per unit of depth, and the chance root's ply (demands.go).
	maxPly = 2*maxDepth + 1
	// maxDepth is the deepest search: a game can last forever, so it is
	// a cap (MaxDepth), not the depth after which nothing changes.
	maxDepth = 300
	// signsFollowMover: a roll of 2 to 6 leaves the roller to decide
	// again, a roll of 1 hands the move over.
	signsFollowMover = true
	// exactFirst: a hold with nothing, or two turns that bank alike,
	// reach a position again at many depths of one search.
	exactFirst = true
	// alternating: a hold leads to a decision, a roll to a chance node.
	alternating = false
	// uniformChance: the bag's weights are the tiles left.
	uniformChance = false
	// countsChance: depth counts decisions only.
	countsChance = false
	// eventsTouchEval: the network reads its inputs afresh.
	eventsTouchEval = false
	// netPrefetches: the evaluator keeps nothing to prefetch.
	netPrefetches = false
	// evalNoise: Pig has no evaluation noise.
	evalNoise = false
)

// netEval is Pig's network evaluator (eval=mlp with net=FILE: Pig has
// no built-in net). Its inputs are read afresh at every evaluation: four
// numbers, cheaper to read than to follow.
type netEval struct {
	net  *nn.Net
	x, h []float64 // the inputs and hidden units, reused
}

func newNetEval(net *nn.Net) *netEval {
	return &netEval{net: net, x: make([]float64, net.In), h: make([]float64, net.H)}
}

func (*netEval) Reset(*Board)                {}
func (*netEval) Make(*Board, int)            {}
func (*netEval) Unmake(*Board, int)          {}
func (n *netEval) Evaluate(b *Board) float64 { return n.Value(b) }

// Value is the net's value of b, from its mover's view.
func (n *netEval) Value(b *Board) float64 {
	rules.Features(b, n.x)
	return n.net.Forward(n.x, n.h)
}

// Clone returns an evaluator of the same net with buffers of its own.
func (n *netEval) Clone() *netEval { return newNetEval(n.net) }

func isChance(b *Board) bool { return b.Rolling() }

func chanceEvents(b *Board, ev *[maxEvents]event, w *[maxEvents]float64) (n, total int) {
	return b.Events(ev, w)
}

func happen(b *Board, ev event, u *eventUndo)   { b.HappenSaving(int(ev), u) }
func unhappen(b *Board, ev event, u *eventUndo) { b.UnhappenRestoring(int(ev), u) }
func keyAfterEvent(b *Board, ev event) uint64   { return b.KeyAfterEvent(int(ev)) }

func netHappen(*netEval, *Board, event, *eventUndo)          {}
func netUnhappen(*netEval, *Board, event, *eventUndo)        {}
func netForget(*netEval)                                     {}
func netMoves(_ *netEval, b *Board, out *[maxMoves]move) int { return b.Moves(out) }

func moveCount(*Board) int              { return maxMoves }
func mover(b *Board) int                { return b.SideToMove() }
func handEval(b *Board, _ int8) float64 { return b.Evaluate() }

// handOf numbers the hand evaluators: the game has one.
func handOf(string) int8              { return 0 }
func endsOnChance(_ bool, _ int) bool { return false }

// MaxDepth bounds an unlimited search: a game can last forever.
func MaxDepth(*Board) int { return maxDepth }

// setBoard makes the ChanceProbCut models those of the board's variant
// (useVariant).
func (e *Engine) setBoard(b *Board) {
	if v := b.Variant(); e.variant != v {
		e.variant = v
		e.useVariant(v)
	}
}

// netEvalOf is the engine's evaluator of a Pig net.
func netEvalOf(net *nn.Net) (*netEval, error) {
	if net.Game != rules.NetGame {
		return nil, fmt.Errorf("a net for the game %q, not %q", net.Game, rules.NetGame)
	}
	return newNetEval(net), nil
}

// gameRules gives Pig's rules and description, which Game joins with this
// engine.
func gameRules() (game.Game, search.Description) { return rules.Game{}, rules.Description() }
