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

	"starlab/nn"
	"starlab/search"
	rules "starlab/search/backgammon"
	"starlab/search/game"
)

// gameName names the game in messages.
const gameName = "backgammon"

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
	// signsFollowMover: every play hands the roll over, and an event keeps it (game.State's
	// fixed signs).
	signsFollowMover = false
	// exactFirst: positions recur at other depths, but seldom within a
	// search of the bench's depths, where the bounds kept with their
	// windows cost fewer nodes than exact values first (docs/search.md).
	exactFirst = false
	// alternating: every play leads to the opponent's roll.
	alternating = true
	// uniformChance: doubles weigh 1 and other rolls 2.
	uniformChance = false
	// countsChance: depth counts chance plies, as Hauk does.
	countsChance = true
	// eventsTouchEval: no evaluator reads the dice.
	eventsTouchEval = false
	// netPrefetches: the evaluator prefetches its evaluation cache's slots
	// of a decision's leaves.
	netPrefetches = true
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
func unhappen(b *Board, _ event, _ *eventUndo)               { b.ClearRoll() }
func keyAfterEvent(b *Board, ev event) uint64                { return b.KeyAfterRoll(int(ev)) }
func netHappen(*netEval, *Board, event, *eventUndo)          {}
func netUnhappen(*netEval, *Board, event, *eventUndo)        {}
func netForget(n *netEval)                                   { n.Forget() }
func netMoves(n *netEval, b *Board, out *[maxMoves]move) int { return n.Moves(b, out) }

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
// variant (useVariant).
func (e *Engine) setBoard(b *Board) {
	if v := b.Variant(); e.variant != v {
		e.variant = v
		e.useVariant(v.String())
	}
}

// netEvalOf is the engine's evaluator of a backgammon net.
func netEvalOf(net *nn.Net) (*netEval, error) {
	if net.Game != rules.NetGame {
		return nil, fmt.Errorf("a net for the game %q, not %q", net.Game, rules.NetGame)
	}
	return rules.NewNetEvaluator(net), nil
}

// gameRules gives backgammon's rules and description, which Game joins with
// this engine.
func gameRules() (game.Game, search.Description) { return rules.Game{}, rules.Description() }
