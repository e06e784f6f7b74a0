package selfplay

import (
	"context"

	"starlab/search"
	"starlab/search/dice"
)

// EnginePlayer plays the best move of a search engine under fixed limits.
// Its table is kept from move to move, as in a game.
type EnginePlayer struct {
	name   string
	engine *search.Engine
	limits search.Limits
}

// NewEnginePlayer returns a player that searches with e under lim.
func NewEnginePlayer(name string, e *search.Engine, lim search.Limits) *EnginePlayer {
	return &EnginePlayer{name: name, engine: e, limits: lim}
}

// Name returns the player's name.
func (p *EnginePlayer) Name() string { return p.name }

// Engine returns the player's engine.
func (p *EnginePlayer) Engine() *search.Engine { return p.engine }

// Choose searches b and returns the best move of the deepest completed
// iteration.
func (p *EnginePlayer) Choose(b *dice.Board) Choice {
	res := p.engine.Search(context.Background(), b, p.limits, nil)
	it := res.Last()
	return Choice{Cell: it.BestMove, Score: it.Score, Depth: it.Depth, Nodes: it.Nodes}
}
