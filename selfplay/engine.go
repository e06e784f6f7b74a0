package selfplay

import (
	"context"

	"starlab/search"
	"starlab/search/dice"
	diceengine "starlab/search/engine/dice"
)

// EnginePlayer plays the best move of a search engine under fixed limits,
// iterating only over the depths that end on a move ply
// (search.Limits.PlayDepths). Its table is kept from move to move, as in a
// game.
type EnginePlayer struct {
	name   string
	engine *diceengine.Engine
	limits search.Limits
}

// NewEnginePlayer returns a player called name that searches with e under
// lim.
func NewEnginePlayer(name string, e *diceengine.Engine, lim search.Limits) *EnginePlayer {
	lim.PlayDepths = true
	return &EnginePlayer{name: name, engine: e, limits: lim}
}

// Name returns the player's name.
func (p *EnginePlayer) Name() string { return p.name }

// Engine returns the player's engine.
func (p *EnginePlayer) Engine() *diceengine.Engine { return p.engine }

// Choose searches b and returns the best move of the deepest completed
// iteration.
func (p *EnginePlayer) Choose(ctx context.Context, b *dice.Board) Choice {
	res := p.engine.Search(ctx, b, p.limits, nil)
	it := res.Last()
	return Choice{Cell: it.BestMove, Score: it.Score, Depth: it.Depth, Nodes: it.Nodes}
}

// ValuePlayer plays the move whose subtree a depth-limited search values
// highest, the lowest cell among moves within 1e-9 of the best. Its choice
// depends only on the values, which every sound algorithm computes alike,
// and not on the engine's move ordering, so the games it plays (and the
// suites made from them) do not change when the engine gets faster.
type ValuePlayer struct {
	engine *diceengine.Engine
	depth  int
}

// NewValuePlayer returns a player that searches each move's subtree to
// depth-1 with e (a sound algorithm), so that the root is searched to depth.
func NewValuePlayer(e *diceengine.Engine, depth int) *ValuePlayer {
	return &ValuePlayer{engine: e, depth: max(depth, 1)}
}

// Name returns "value".
func (*ValuePlayer) Name() string { return "value" }

// Choose returns the move of greatest value.
func (p *ValuePlayer) Choose(ctx context.Context, b *dice.Board) Choice {
	var moves [dice.MaxN]int16
	var values [dice.MaxN]float64
	k := b.Moves(&moves) // in increasing cell order
	w := *b
	var nodes int64
	top := -2.0
	for i := 0; i < k; i++ {
		w.Make(int(moves[i]))
		switch {
		case w.Over():
			values[i] = -w.Result()
		case p.depth == 1:
			values[i] = -p.engine.Evaluate(&w)
		default:
			p.engine.ClearTT()
			it := p.engine.Search(ctx, &w, search.Limits{Depth: p.depth - 1}, nil).Last()
			values[i], nodes = -it.Score, nodes+it.Nodes
		}
		w.Unmake(int(moves[i]))
		top = max(top, values[i])
	}
	i := 0
	for values[i] < top-1e-9 { // the first move within 1e-9 of the best
		i++
	}
	return Choice{Cell: int(moves[i]), Score: values[i], Depth: p.depth, Nodes: nodes}
}
