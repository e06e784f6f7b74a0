package search

import (
	"context"

	"starlab/search/game"
)

// Engine is a game's search engine as the stages see it: one interface
// call per search, none per node. Each game's engine (package
// starlab/search/engine/<game>) implements it; a root of another game is
// a programming error, and the engine panics saying so.
type Engine interface {
	// Search searches root by iterative deepening (see the engines'
	// Search). An Iteration's BestMove is a game.Move of root, or -1 at
	// a chance node.
	Search(ctx context.Context, root game.State, lim Limits, report func(Iteration)) Result
	// Evaluate returns the evaluation of a position that is not over,
	// from its mover's view: the value of a depth-0 search.
	Evaluate(pos game.State) float64
	// ClearTT empties the table and the move-ordering tables.
	ClearTT()
	// Config returns the engine's configuration.
	Config() Config
}

// Game is a game as the stages use it: its contract, how to build its
// engines, and what a caller of a search must know of its depths. The
// registry (package starlab/search/games) names the games; a command
// looks one up and hands it to the stages, which import no game.
type Game struct {
	game.Game
	// NewEngine builds an engine of the game for a resolved
	// configuration, with its own table and evaluator.
	NewEngine func(*Resolved) Engine
	// MaxDepth returns the depth after which searching root deeper
	// changes nothing.
	MaxDepth func(root game.State) int
	// EndsOnChance reports whether a search of root to depth ends on a
	// chance ply, and so has the value of the search one ply shallower
	// (only where depth counts chance plies and no evaluator reads the
	// chance event, as in Dice).
	EndsOnChance func(root game.State, depth int) bool
	// Check reports whether engines of r can search positions of pos's
	// variant: a network and a ChanceProbCut fit are made for one
	// variant, and a built-in one must exist for it.
	Check func(r *Resolved, pos game.State) error
	// NetID returns the id of the network engines of r evaluate pos's
	// variant with, "" when they evaluate otherwise.
	NetID func(r *Resolved, pos game.State) string
	// ProbCutSource says where the ChanceProbCut parameters of engines of
	// r for pos's variant come from.
	ProbCutSource func(r *Resolved, pos game.State) string
}
