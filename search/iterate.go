package search

import "time"

// MaxPly is the distance from the root of the deepest search any game
// needs (a move ply and a chance ply per checker on the largest Dice
// board): it bounds the depths a spec or a ChanceProbCut fit may name.
// Each game's engine has arrays of its own length, maxPly, which its
// demands check against its deepest search, maxDepth.
const MaxPly = 2*17*17 + 4

// Limits bound a search. Zero fields are no limit; with no limit at all the
// search goes to the end of the game.
type Limits struct {
	Depth    int           // deepest iteration, in plies (chance plies too where the game counts them: game.CountsChance)
	Nodes    int64         // node budget over all iterations
	MoveTime time.Duration // wall-clock budget
	// PlayDepths skips the iterations that end on a chance ply, for
	// players: no evaluator reads the roll, so such an iteration returns
	// the value of the one before it at two to three times its cost. The
	// thesis's tables (search, bench) count every iteration.
	PlayDepths bool
}

// DepthOnly reports whether the limits are a depth and nothing else (no
// node or time budget), so that a search they bound gives the same result
// on any machine: what a stage whose figures must be reproducible (a
// judge, training targets, a sampled suite) asks of an engine spec.
func (l Limits) DepthOnly() bool { return l.Depth >= 1 && l.Nodes == 0 && l.MoveTime == 0 }

// EndsOnChance reports whether a search of depth plies from a root before
// the roll (rolled false) or after it ends on a chance ply: an even depth
// from a rolled root, an odd one before the roll. Such a search has the
// value of the search one ply shallower, since no evaluator reads the roll.
func EndsOnChance(rolled bool, depth int) bool { return rolled == (depth%2 == 0) }

// Iteration is the report of one completed iterative-deepening iteration.
type Iteration struct {
	Depth    int           // depth of this iteration
	Score    float64       // root value for the side to move
	Nodes    int64         // nodes of this and all shallower iterations
	Time     time.Duration // time since the search started
	BestMove int           // best move at a rolled root; -1 at a chance-node root
	Stats    Stats         // cumulative statistics
}

// Result is what a search found: every completed iteration, deepest last.
type Result struct {
	Iterations []Iteration
	Stopped    bool // a limit other than depth ended the search
}

// Last returns the deepest completed iteration.
func (r Result) Last() Iteration { return r.Iterations[len(r.Iterations)-1] }
