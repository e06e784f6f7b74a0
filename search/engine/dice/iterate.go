package dice

import (
	"context"
	"fmt"
	"time"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// Search searches root, a position of the engine's game, by iterative
// deepening, calling report (if not nil) after each completed iteration,
// and returns the completed iterations. Depth 1 always completes, whatever
// the limits, so a decision at the root always gets a move. The table is
// kept from earlier searches (clear it with ClearTT for a search that
// depends on nothing before it).
func (e *Engine) Search(ctx context.Context, pos game.State, lim search.Limits, report func(search.Iteration)) search.Result {
	root := boardOf(pos)
	start := time.Now()
	e.setBoard(root)
	e.b = *root
	e.stats = search.Stats{}
	e.stopped = false
	e.ctxDone = nil // depth 1 completes whatever happens
	e.tt.NewSearch()
	for c := range e.history {
		for i := range e.history[c] {
			e.history[c][i] /= 2
		}
	}
	last := searchDepth(root)
	if lim.Depth > 0 {
		last = min(lim.Depth, last)
	}
	var res search.Result
	if e.kind == evalNet {
		e.net.Reset(&e.b)
	}
	rootChance := isChance(root)
	e.nKeep = 0
	if e.cfg.Filter > 0 && !rootChance && !root.Over() {
		e.filterRoot()
	}
	for depth := 1; depth <= last; depth++ {
		if lim.PlayDepths && depth > 1 && depth < last && endsOnChance(rootChance, depth) {
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
		} else if rootChance {
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
		it := search.Iteration{Depth: depth, Score: v, Nodes: e.stats.Nodes, Time: time.Since(start), BestMove: best, Stats: e.stats}
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

// searchDepth is the deepest iteration of a search of root without a
// depth limit: MaxDepth, but no deeper than maxDepth, the deepest search
// the engine's per-ply arrays hold (demands.go). The game's Kit gives it
// as its MaxDepth, so that a caller never asks for a depth the engine
// does not search.
func searchDepth(root *Board) int { return min(MaxDepth(root), maxDepth) }

// boardOf returns the engine's board of pos, which must be a position of
// the engine's game.
func boardOf(pos game.State) *Board {
	b, ok := pos.(*Board)
	if !ok {
		panic(fmt.Sprintf("the %s engine was given a position of another game (%T)", gameName, pos))
	}
	return b
}

// fallbackMove returns the table's move for the root, or its first move in
// search order, for a root whose value came straight from the table.
func (e *Engine) fallbackMove() int {
	if en := e.tt.Probe(e.b.Key()); en != nil && en.Move >= 0 {
		return int(en.Move)
	}
	var moves [maxMoves]move
	e.orderMoves(&moves, -1, 0, false)
	return int(moves[0])
}

// useVariant makes the engine's evaluator and ChanceProbCut models those
// of the variant called name: the built-in net and the built-in fit
// differ by variant (search.Kit's NetFor and ProbCutFor). The game's
// setBoard calls it when a root's variant is not the last one's.
func (e *Engine) useVariant(name string) {
	if e.kind != evalNet && !e.cpcOn {
		return // a hand evaluator has nothing of a variant's to load
	}
	kit := Game()
	if e.kind == evalNet {
		net, err := netEvalOf(kit.NetFor(e.res, name))
		if err != nil {
			panic(err) // the game's Check refuses such a net first
		}
		e.net = net
	}
	if e.cpcOn {
		e.setModels(kit.ProbCutFor(e.res, name))
	}
}

// netValue is the engine's net evaluator as a search.NetValue: a
// position's value computed from scratch (training's view of the net).
type netValue struct{ ev *netEval }

func (v netValue) Value(pos game.State) float64 { return v.ev.Value(boardOf(pos)) }
func (v netValue) Clone() search.NetValue       { return netValue{v.ev.Clone()} }

// netValueOf is the engine's evaluator of net as a search.NetValue (the
// game's search.EngineParts.Evaluator).
func netValueOf(net *nn.Net) (search.NetValue, error) {
	ev, err := netEvalOf(net)
	if err != nil {
		return nil, err
	}
	return netValue{ev}, nil
}

// Game is the engine's game as the stages use it: its rules and its
// description (gameRules) joined with this engine and the depths a search
// of its positions can take.
func Game() search.Kit {
	rules, description := gameRules()
	return search.NewKit(rules, description, search.EngineParts{
		New:      func(r *search.Resolved) search.Engine { return New(r) },
		MaxDepth: func(root game.State) int { return searchDepth(boardOf(root)) },
		EndsOnChance: func(root game.State, depth int) bool {
			return endsOnChance(isChance(boardOf(root)), depth)
		},
		EvalNoise:  evalNoise,
		FixedSigns: !signsFollowMover,
		Evaluator:  netValueOf,
	})
}
