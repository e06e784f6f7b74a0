package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"starlab/nn"
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

// Kit is a game as the stages use it: its contract, how to build its
// engines, and what a caller of a search must know of its depths. The
// registry (package starlab/search/games) names the games; a command
// looks one up and hands it to the stages, which import no game.
type Kit struct {
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
	// HandEval names the game's hand-written evaluator in a
	// configuration's eval= ("pairs" in Dice): what a stage plays or
	// values luck with when no network is asked for, and the opponent a
	// net in training is measured against. The name is the game's own:
	// the spec grammar takes any evaluator name, and Check refuses one
	// that is not zero, mlp, the game's HandEval or one of its OtherEvals
	// (CheckEval).
	HandEval string
	// LuckEval, where given, names the evaluator of the default luck
	// reference of a variant (selfplay.LuckRef): backgammon's built-in
	// net where the variant has one. Without it the reference evaluates
	// with HandEval.
	LuckEval func(variant string) string
	// OtherEvals names the game's other hand evaluators, which eval= may
	// name as well (backgammon's race beside its contact evaluator).
	OtherEvals []string
	// DefaultEval is the evaluator of an engine whose spec names none:
	// "mlp" for a game with built-in nets (DefaultEval, and "" reads as
	// it), the hand evaluator for a game without (Eval, ParseSpec,
	// Config).
	DefaultEval string
	// Defaults are what the stages use when a command names no suite,
	// depths or phases.
	Defaults Defaults
	// Notation names the game's position notation in messages and JSON
	// keys ("DPN" in Dice); "" reads as "position".
	Notation string
	// SizedVariant, for a game whose variants are a board size n and a
	// win length m (Dice), returns the variant of n and m, or an error
	// naming the problem; nil for other games, which refuse -n and -m.
	SizedVariant func(n, m int) (string, error)
	// DepthTranspositions reports that one search can meet a position at
	// two depths (the toy game: two steps and a jump reach the same
	// counters), so that with the table on a value stored at one depth
	// answers a search at another, and sound algorithms may differ by
	// the order in which they met it; their agreement is then checked
	// only with the table off. Dice and ChanceBreakthrough cannot: each
	// move adds a checker, or moves a piece one row forward.
	DepthTranspositions bool
	// Chapter returns the ChanceProbCut chapter's tuning tables of a
	// variant, nil for a board the chapter did not measure (see ChapterOf,
	// which also takes a nil Chapter).
	Chapter func(variant string) *Chapter
	// Net is the game's evaluation network, what training (package td)
	// needs of it; nil for a game without one.
	Net *NetKit
	// ChanceNode returns the chance node that stands for the decision pos
	// where a regression (collect) measures chance events, a new state:
	// the one the game can take pos back to (Dice: the roll taken back),
	// or the one its roll move leads to (ChanceBreakthrough, the toy
	// game); false when there is none.
	ChanceNode func(pos game.State) (game.State, bool)
}

// Bind checks that g is a game and that name, the game a stage's settings
// record, is g's, filling it in when empty: settings read back from a run
// must be played with the game they name. what names the settings in the
// one-line error ("match settings").
func (g Kit) Bind(what string, name *string) error {
	if g.Game == nil {
		return fmt.Errorf("%s without a game", what)
	}
	if *name == "" {
		*name = g.Name()
	}
	if *name != g.Name() {
		return fmt.Errorf("%s of game %q, given the game %q", what, *name, g.Name())
	}
	return nil
}

// NetKit is what a game says of its evaluation network: the net of a
// variant, the inputs of a position and the net's value of one. The
// network itself is the game-free MLP of package nn; the inputs are the
// game's. TD training is written over it, so that a game with a NetKit
// trains by self-play with no code of its own.
type NetKit struct {
	// New returns a net for variant, its weights drawn by nn.New from rng
	// and scale, naming the game and variant in its weight file.
	New func(variant string, rng *rand.Rand, scale float64) (*nn.Net, error)
	// Check reports whether net is a net of the game made for variant.
	Check func(net *nn.Net, variant string) error
	// Features writes the net's inputs for a position that is not over,
	// seen from its mover, into x (len net.In): the one definition of the
	// inputs, which training and the engine's evaluator share.
	Features func(pos game.State, x []float64)
	// Evaluator returns net's value function: the engine's evaluator of
	// the net, computed from scratch for each position.
	Evaluator func(net *nn.Net) (NetValue, error)
	// Rate is the default TD learning rate of a variant.
	Rate func(variant string) float64
	// Inputs, when the game has input sets besides its own, returns the
	// number of inputs of a variant's nets with the named set ("" the
	// game's own), or an error naming the sets there are. Features
	// writes a net's set from the length of x.
	Inputs func(variant, set string) (int, error)
}

// NetValue is a net's value of positions: Value returns it for a position
// that is not over, from its mover's view, in [-1, 1], exactly as the
// game's engine evaluates it. A NetValue belongs to one goroutine; Clone
// gives another its own.
type NetValue interface {
	Value(pos game.State) float64
	Clone() NetValue
}

// Defaults are a game's defaults for the stages that measure a suite or
// collect positions: what a command uses when it is given no -suite,
// -depths, -pairs, -min or -max.
type Defaults struct {
	// Suite is the path of the default suite, relative to the module
	// root (bench, tune).
	Suite string
	// BenchDepths and TuneDepths are bench's and tune's depths.
	BenchDepths, TuneDepths []int
	// CollectPairs are collect's depth pairs (shallow, deep), and
	// CollectPhases the least and most phase (Game.Phase) of its
	// positions.
	CollectPairs  [][2]int
	CollectPhases [2]int
	// LuckDepth is the depth of the default luck reference (match's
	// -luck, training's measurements); 0 is 3. Backgammon's is 1, gnubg's
	// 0-ply: a roll there has some 400 positions two plies below it.
	LuckDepth int
	// SampleCount is how many positions collect and gen sample, and
	// GenPhases gen's least and most phase, where the commands' own
	// defaults (1,000 and 100 positions; phases 2 to 16) do not fit the
	// game: a small game has fewer positions to draw. Zero keeps the
	// commands' own.
	SampleCount int
	GenPhases   [2]int
}

// Eval returns the evaluator of an engine whose spec names none:
// DefaultEval, or "mlp" where it is empty.
func (g Kit) Eval() string {
	if g.DefaultEval == "" {
		return DefaultEval
	}
	return g.DefaultEval
}

// ParseSpec parses spec as the package function ParseSpec does, with the
// game's evaluator (Eval) where the spec names none (and no net=, which
// is the mlp evaluator's).
func (g Kit) ParseSpec(spec string) (Spec, error) {
	s, err := ParseSpec(spec)
	if err == nil && !SpecGives(spec, "eval") && !SpecGives(spec, "net") {
		s.Eval = g.Eval()
	}
	return s, err
}

// Config returns DefaultConfig(algo) with the game's evaluator.
func (g Kit) Config(algo Algorithm) Config {
	c := DefaultConfig(algo)
	c.Eval = g.Eval()
	return c
}

// NotationName names the game's notation: Notation, or "position".
func (g Kit) NotationName() string {
	if g.Notation == "" {
		return "position"
	}
	return g.Notation
}

// SideName names side in the embedded game's words (game.SideName), so
// that a kit is a game.SideNamer as its game is.
func (g Kit) SideName(side int) string { return game.SideName(g.Game, side) }

// MoveSeparator is the separator of the embedded game's moves in game
// records (game.MoveSep), so that a kit is a game.MoveSeparator as its
// game is.
func (g Kit) MoveSeparator() string { return game.MoveSep(g.Game) }

// CheckEval refuses, in one line, an evaluator that is not one of the
// game's: zero, mlp, its HandEval or one of its OtherEvals.
func (g Kit) CheckEval(c Config) error {
	if slices.Contains(g.OtherEvals, c.Eval) {
		return nil
	}
	if len(g.OtherEvals) > 0 && CheckHandEval(c, g.Name(), g.HandEval) != nil {
		return fmt.Errorf("eval=%s is not an evaluator of %s: its evaluators are eval=%s and eval=%s (its hand evaluators), eval=zero and eval=mlp", c.Eval, g.Name(), g.HandEval, strings.Join(g.OtherEvals, " and eval="))
	}
	return CheckHandEval(c, g.Name(), g.HandEval)
}
