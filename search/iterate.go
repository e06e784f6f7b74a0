package search

import (
	"context"
	"time"

	"starlab/search/dice"
)

// Limits bound a search. Zero fields are no limit; with no limit at all the
// search goes to the end of the game.
type Limits struct {
	Depth    int           // deepest iteration, in plies (chance and move plies alike)
	Nodes    int64         // node budget over all iterations
	MoveTime time.Duration // wall-clock budget
	// PlayDepths skips the iterations that end on a chance ply, for
	// players: no evaluator reads the roll, so such an iteration returns
	// the value of the one before it at two to three times its cost. The
	// thesis's tables (search, bench) count every iteration.
	PlayDepths bool
}

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

// MaxDepth returns the depth after which searching root deeper changes
// nothing: every path has reached the end of the game.
func MaxDepth(root *dice.Board) int {
	d := 2 * root.Empties()
	if root.Roll() != dice.NoRoll {
		d--
	}
	return max(d, 1)
}

// Search searches root by iterative deepening, calling report (if not nil)
// after each completed iteration, and returns the completed iterations.
// Depth 1 always completes, whatever the limits, so a rolled root always
// gets a move. The table is kept from earlier searches (clear it with
// ClearTT for a search that depends on nothing before it).
func (e *Engine) Search(ctx context.Context, root *dice.Board, lim Limits, report func(Iteration)) Result {
	start := time.Now()
	e.setBoard(root.N(), root.M())
	e.b = *root
	e.stats = Stats{}
	e.stopped = false
	e.ctxDone = nil // depth 1 completes whatever happens
	e.tt.NewSearch()
	for c := range e.history {
		for i := range e.history[c] {
			e.history[c][i] /= 2
		}
	}
	maxDepth := MaxDepth(root)
	if lim.Depth > 0 {
		maxDepth = min(lim.Depth, maxDepth)
	}
	var res Result
	if e.inc != nil {
		e.inc.Reset(&e.b)
	}
	for depth := 1; depth <= maxDepth; depth++ {
		if lim.PlayDepths && depth > 1 && depth < maxDepth && EndsOnChance(root.Roll() != dice.NoRoll, depth) {
			continue
		}
		if depth > 1 {
			e.ctxDone = ctx.Done()
			e.nodeLimit = lim.Nodes
			if lim.MoveTime > 0 {
				e.hasClock, e.deadline = true, start.Add(lim.MoveTime)
			}
		}
		var v float64
		best := -1
		if root.Over() {
			v = root.Result()
		} else if root.Roll() == dice.NoRoll {
			v = e.chance(L, U, depth, 0)
		} else {
			e.rootBest = -1
			v = e.max(L, U, depth, 0)
			best = e.rootBest
			if best < 0 {
				best = e.fallbackMove()
			}
		}
		if e.stopped {
			res.Stopped = true
			break
		}
		it := Iteration{Depth: depth, Score: v, Nodes: e.stats.Nodes, Time: time.Since(start), BestMove: best, Stats: e.stats}
		res.Iterations = append(res.Iterations, it)
		if report != nil {
			report(it)
		}
		if root.Over() {
			break
		}
	}
	e.nodeLimit, e.hasClock, e.ctxDone = 0, false, nil
	return res
}

// fallbackMove returns the table's move for the root, or its first move in
// search order, for a root whose value came straight from the table.
func (e *Engine) fallbackMove() int {
	if en := e.tt.probe(e.b.Key()); en != nil && en.move >= 0 {
		return int(en.move)
	}
	var moves [dice.MaxN]int16
	e.orderMoves(&moves, -1, 0)
	return int(moves[0])
}
