package selfplay

import (
	"context"

	"starlab/search"
	"starlab/search/game"
)

// EnginePlayer plays the best move of a search engine under fixed limits,
// iterating only over the depths that do not end on a chance ply
// (search.Limits.PlayDepths). Its table is kept from move to move, as in a
// game.
type EnginePlayer struct {
	name   string
	engine search.Engine
	limits search.Limits
}

// NewEnginePlayer returns a player called name that searches with e under
// lim.
func NewEnginePlayer(name string, e search.Engine, lim search.Limits) *EnginePlayer {
	lim.PlayDepths = true
	return &EnginePlayer{name: name, engine: e, limits: lim}
}

// Name returns the player's name.
func (p *EnginePlayer) Name() string { return p.name }

// Engine returns the player's engine.
func (p *EnginePlayer) Engine() search.Engine { return p.engine }

// Choose searches s and returns the best move of the deepest completed
// iteration.
func (p *EnginePlayer) Choose(ctx context.Context, s game.State) Choice {
	res := p.engine.Search(ctx, s, p.limits, nil)
	it := res.Last()
	return Choice{Move: game.Move(it.BestMove), Score: it.Score, Depth: it.Depth, Nodes: it.Nodes}
}

// ValuePlayer plays the move whose subtree a depth-limited search values
// highest, the lowest move number among moves within 1e-9 of the best (in
// Dice, the lowest cell). Its choice depends only on the values, which
// every sound algorithm computes alike, and not on the engine's move
// ordering, so the games it plays (and the suites made from them) do not
// change when the engine gets faster.
type ValuePlayer struct {
	engine search.Engine
	depth  int
	moves  []game.Move
	values []float64
}

// NewValuePlayer returns a player that searches each move's subtree to
// depth-1 with e (a sound algorithm), so that the root is searched to depth.
func NewValuePlayer(e search.Engine, depth int) *ValuePlayer {
	return &ValuePlayer{engine: e, depth: max(depth, 1)}
}

// Name returns "value".
func (*ValuePlayer) Name() string { return "value" }

// Choose returns the move of greatest value.
func (p *ValuePlayer) Choose(ctx context.Context, s game.State) Choice {
	p.moves = s.Legal(p.moves)
	p.values = p.values[:0]
	me := s.Mover()
	var nodes int64
	top := -2.0
	for _, m := range p.moves {
		w := s.Clone()
		w.Play(m)
		var v float64
		switch {
		case w.Kind() == game.Over:
			v = w.Result()
		case p.depth == 1:
			v = p.engine.Evaluate(w)
		default:
			p.engine.ClearTT()
			it := p.engine.Search(ctx, w, search.Limits{Depth: p.depth - 1}, nil).Last()
			v, nodes = it.Score, nodes+it.Nodes
		}
		if w.Mover() != me {
			v = -v
		}
		p.values = append(p.values, v)
		top = max(top, v)
	}
	best := -1 // the lowest move within 1e-9 of the best
	for i, v := range p.values {
		if v >= top-1e-9 && (best < 0 || p.moves[i] < p.moves[best]) {
			best = i
		}
	}
	return Choice{Move: p.moves[best], Score: p.values[best], Depth: p.depth, Nodes: nodes}
}
