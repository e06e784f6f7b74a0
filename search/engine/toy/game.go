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
	maxPly    = search.MaxPly
	// alternating: a step or a jump leads to a decision, a roll to a
	// chance node.
	alternating = false
	// uniformChance: the roll's events weigh 1, 2 and 3.
	uniformChance = false
	// countsChance: depth counts decisions only.
	countsChance = false
	// eventsTouchEval: an event moves a counter the evaluators read.
	eventsTouchEval = true
	// evalNoise: the toy game has no evaluation noise.
	evalNoise = false
)

// netEval is the toy's stand-in for a network: the hand evaluator kept
// incrementally, the counters' difference from side 0's view, updated by
// every move and event, so that the engine's hooks for an incremental
// evaluator that reads chance events are exercised (eval=mlp).
type netEval struct {
	diff   int // side 0's counter minus side 1's
	target int
}

// Reset reads the difference from b.
func (n *netEval) Reset(b *Board) { n.diff, n.target = b.Pos(0)-b.Pos(1), b.Target() }

// Make follows b.MakeSaving(m, u): b has its move made.
func (n *netEval) Make(b *Board, m int) { n.Reset(b) }

// Unmake precedes the take-back of m.
func (n *netEval) Unmake(b *Board, m int) {}

// Evaluate returns the evaluation from the side to move's view.
func (n *netEval) Evaluate(b *Board) float64 {
	if n.diff != b.Pos(0)-b.Pos(1) {
		panic(fmt.Sprintf("toy evaluator: follows difference %d, board %s", n.diff, b))
	}
	d := n.diff
	if b.SideToMove() == 1 {
		d = -d
	}
	return 0.5 * float64(d) / float64(n.target)
}

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
func netHappen(n *netEval, b *Board, _ event, _ *eventUndo) { n.Reset(b) }
func netUnhappen(*netEval, *Board, event, *eventUndo)       {}

func moveCount(*Board) int            { return maxMoves }
func mover(b *Board) int              { return b.SideToMove() }
func handEval(b *Board) float64       { return b.Evaluate() }
func endsOnChance(_ bool, _ int) bool { return false }

// MaxDepth bounds an unlimited search: the race can last forever.
func MaxDepth(*Board) int { return 40 }

// setBoard makes the evaluator and the ChanceProbCut models those of the
// toy (one for every target).
func (e *Engine) setBoard(b *Board) {
	if e.variant == b.Target() {
		return
	}
	e.variant = b.Target()
	if e.kind == evalNet && e.net == nil {
		e.net = &netEval{}
	}
	if e.cpcOn {
		e.setModels(e.res.ProbCutFor(nil, gameName, strconv.Itoa(b.Target()), ""))
	}
}

// Game is the toy as the stages use it.
func Game() search.Game {
	return search.Game{
		Game:         rules.Game{},
		HandEval:     "pairs",
		NewEngine:    func(r *search.Resolved) search.Engine { return New(r) },
		MaxDepth:     func(root game.State) int { return MaxDepth(boardOf(root)) },
		EndsOnChance: func(game.State, int) bool { return false },
		Check: func(r *search.Resolved, pos game.State) error {
			if err := search.CheckNoise(r.Config(), gameName, evalNoise); err != nil {
				return err
			}
			if r.Config().Eval == "mlp" && r.Config().Net != "" {
				return fmt.Errorf("the toy game has no network file")
			}
			return r.CheckProbCut(gameName, rules.Game{}.Variant(pos), "")
		},
		NetID: func(*search.Resolved, game.State) string { return "" },
		ProbCutSource: func(r *search.Resolved, pos game.State) string {
			return r.ProbCutSource(nil, gameName, rules.Game{}.Variant(pos), "")
		},
		ChanceNode: func(pos game.State) (game.State, bool) {
			if pos.Kind() != game.Decision {
				return nil, false
			}
			c := pos.Clone()
			c.Play(rules.Roll) // the roll, always a move
			return c, true
		},
	}
}
