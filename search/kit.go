package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
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
	// ClearTT empties the table, the move-ordering tables and whatever
	// the evaluator keeps of the positions it has valued, so that the next
	// search depends on nothing searched before.
	ClearTT()
	// Config returns the engine's configuration.
	Config() Config
}

// Kit is a game as the stages use it: its rules (game.Game), its
// Description, and its engine. The registry (package starlab/search/games)
// names the games; a command looks one up and hands it to the stages, which
// import no game. NewKit builds one.
//
// A game's facts are the Description's fields, never optional interfaces
// of its Game: the Kit embeds game.Game, which promotes only the
// interface's own methods, so a hook a game's Game type offered beside
// them would be lost. The registry's test (TestNoHookLost) refuses a
// game whose Game type has an exported method the interface lacks.
type Kit struct {
	game.Game
	Description
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
	// FixedSigns reports that the engine assumes game.State's fixed signs
	// (a decision's children have the other side as Mover, a chance
	// node's the node's own) and reads no mover to sign a value: the
	// registry's test holds the game to them (gametest.CheckFixedSigns).
	// A game where a side decides twice or an event hands the move over
	// (Pig) has engines whose values follow the mover, and false.
	FixedSigns bool
	// evalNoise reports whether the game's engines add the chapter's
	// evaluation noise (noise=): Check refuses noise where they do not.
	evalNoise bool
}

// Description is what a game says of itself beyond its rules and its
// engine, in one required value: the names it gives things, its
// evaluators and defaults, its networks and ChanceProbCut fits. A game's
// rules package writes it (its Description function); NewKit joins it
// with the rules and the engine.
type Description struct {
	// Sides names side 0 and side 1 in show, play, records and
	// forfeits (Dice: "blue" and "red").
	Sides [2]string
	// MoveSep separates moves in game records: " " where a move's text
	// is one word, ", " where it holds spaces (backgammon's "8/5 6/5"),
	// and no move's text contains it.
	MoveSep string
	// RulesVersion numbers the version of the rules and their notation,
	// which outside engines are told (docs/protocol.md); it changes only
	// when the rules or their notation do.
	RulesVersion int
	// Notation names the game's position notation in messages and JSON
	// keys ("DPN" in Dice, "position" where it has no name).
	Notation string
	// HandEval names the game's hand-written evaluator in a
	// configuration's eval= ("pairs" in Dice): what a stage plays or
	// values luck with when no network is asked for, and the opponent a
	// net in training is measured against. The name is the game's own:
	// the spec grammar takes any evaluator name, and Check refuses one
	// that is not zero, mlp, the game's HandEval or one of its OtherEvals
	// (CheckEval).
	HandEval string
	// OtherEvals names the game's other hand evaluators, which eval= may
	// name as well (backgammon's race beside its contact evaluator).
	OtherEvals []string
	// DefaultEval is the evaluator of an engine whose spec names none:
	// "mlp" for a game with built-in nets, the hand evaluator for a game
	// without (Eval, ParseSpec, Config). The registry's test checks that
	// it is one of the game's and that an engine of it searches the
	// default variant's start.
	DefaultEval string
	// LuckEval, where given, names the evaluator of the default luck
	// reference of a variant (selfplay.LuckRef): backgammon's built-in
	// net where the variant has one. Without it the reference evaluates
	// with HandEval, at Defaults.LuckDepth.
	LuckEval func(variant string) string
	// ForPoints, where given, reports whether a variant's games are
	// played for points (backgammon's money), before any is played, so
	// that a stage can refuse what such games cannot give, as a match's
	// luck-adjusted score. Without it no variant is.
	ForPoints func(variant string) bool
	// Defaults are what the stages use when a command names no suite,
	// depths or phases.
	Defaults Defaults
	// SizedVariant, for a game whose variants are a board size n and a
	// win length m (Dice), returns the variant of n and m, or an error
	// naming the problem; nil for other games, which refuse -n and -m.
	SizedVariant func(n, m int) (string, error)
	// DepthTranspositions reports that one search can meet a position at
	// two depths (the toy game: two steps and a jump reach the same
	// counters), so that with the table on a value stored at one depth
	// answers a search at another, and sound algorithms may differ by
	// the order in which they met it; their agreement is then checked
	// only with the table off. The registry's test finds such positions
	// and demands it. Dice cannot: each move adds a checker.
	DepthTranspositions bool
	// Chapter returns the ChanceProbCut chapter's tuning tables of a
	// variant, nil for a board the chapter did not measure (see ChapterOf,
	// which also takes a nil Chapter).
	Chapter func(variant string) *Chapter
	// Fit returns the built-in ChanceProbCut fit of a variant, nil where
	// there is none.
	Fit func(variant string) *ProbCutParams
	// Net is the game's evaluation network, what training (package td)
	// and the engine's mlp evaluator need of it; nil for a game without
	// one.
	Net *NetKit
	// RollFirst reports that a decision's chance event comes before it
	// and can be taken back (Dice's and backgammon's roll): ChanceNode
	// then returns that chance node, and a match from a rolled suite
	// position starts there, so that the pair's chance stream draws the
	// roll too. Where it is false the roll is a move of the decision
	// (ChanceBreakthrough, the toy game) and a position starts as it is.
	RollFirst bool
	// ChanceNode returns the chance node that stands for the decision pos
	// where a regression (collect) measures chance events, a new state:
	// the one before it where RollFirst (Dice: the roll taken back), else
	// the one its roll move leads to (ChanceBreakthrough, the toy game,
	// Pig); false when there is none: at a chance node, a finished game,
	// or a decision none of whose moves leads to chance (without
	// RollFirst), as the registry's TestChanceNode checks.
	ChanceNode func(pos game.State) (game.State, bool)
	// ValueScale, where given, is how many points a value of 1 of a
	// variant stands for (backgammon's money: 3, a value being the
	// equity over 3), so that a loss reads in points, as the field
	// counts it; without it a value is a point.
	ValueScale func(variant string) float64
	// Export, where given, writes a match's games in another program's
	// format (backgammon: Jellyfish match files, which gnubg imports),
	// so that the program can replay and analyse them; nil for a game no
	// other program reads.
	Export *Exporter
}

// Exporter writes a match's games in another program's format.
type Exporter struct {
	// Format names the format in messages ("Jellyfish match files").
	Format string
	// Files returns the files of a match's games, by name, or a one-line
	// error naming a game the format cannot hold.
	Files func(m ExportMatch) ([]ExportFile, error)
}

// ExportMatch is a match's games for an Exporter: two players, the first
// and the second, and their games in order.
type ExportMatch struct {
	Variant string
	Names   [2]string
	Games   []ExportGame
}

// ExportGame is one game of an ExportMatch: its start, its actions as game
// records keep them (moves and chance events in order) and the side the
// match's first player played.
type ExportGame struct {
	Start   game.State
	Actions []int
	First   int
}

// ExportFile is one file an Exporter writes.
type ExportFile struct {
	Name string
	Data []byte
}

// EngineParts is what a game's engine package adds to its rules and its
// Description to make its Kit.
type EngineParts struct {
	// New builds an engine for a resolved configuration (Kit.NewEngine).
	New func(*Resolved) Engine
	// MaxDepth and EndsOnChance are the Kit's.
	MaxDepth     func(root game.State) int
	EndsOnChance func(root game.State, depth int) bool
	// EvalNoise reports whether the engines add the chapter's evaluation
	// noise (noise=).
	EvalNoise bool
	// FixedSigns is the Kit's.
	FixedSigns bool
	// Evaluator is the engine's evaluator of a net as a NetValue
	// (NetKit.Evaluator), where the description has a Net.
	Evaluator func(net *nn.Net) (NetValue, error)
}

// NewKit returns the Kit of a game: its rules, its description and its
// engine.
func NewKit(rules game.Game, d Description, e EngineParts) Kit {
	if d.Net != nil {
		n := *d.Net
		n.Evaluator = e.Evaluator
		d.Net = &n
	}
	return Kit{Game: rules, Description: d, NewEngine: e.New, MaxDepth: e.MaxDepth, EndsOnChance: e.EndsOnChance, FixedSigns: e.FixedSigns, evalNoise: e.EvalNoise}
}

// Check reports whether engines of r can search positions of pos's
// variant: the evaluator must be one of the game's (CheckEval) and noise=
// one its engines add, a network is made for one variant (a net=FILE must
// be the game's net of pos's variant, and without one the variant must
// have a built-in net), and a probcut=FILE a fit for the variant and net.
func (g Kit) Check(r *Resolved, pos game.State) error {
	c := r.Config()
	if err := CheckNoise(c, g.Name(), g.evalNoise); err != nil {
		return err
	}
	if err := g.CheckEval(c); err != nil {
		return err
	}
	v := g.Variant(pos)
	if net := r.NetFile(); net != nil {
		if g.Net == nil {
			return fmt.Errorf("net %s: %s has no networks", c.Net, g.Name())
		}
		if g.Net.OfGame != nil {
			if err := g.Net.OfGame(net); err != nil {
				return fmt.Errorf("net file %s: %v", c.Net, err)
			}
		}
		if err := g.Net.Check(net, v); err != nil {
			return fmt.Errorf("net %s: %v", c.Net, err)
		}
	} else if c.Eval == "mlp" {
		if _, err := g.builtinNet(v); err != nil {
			return fmt.Errorf("eval=mlp: %v", err)
		}
	}
	return r.CheckProbCut(g.Name(), v, g.netID(r, v))
}

// builtinNet returns the built-in net of a variant, or an error saying
// why there is none.
func (g Kit) builtinNet(variant string) (*nn.Net, error) {
	if g.Net == nil || g.Net.Builtin == nil {
		return nil, fmt.Errorf("the %s game has no built-in net; give net=FILE (starlab train -game %s makes one) or eval=%s", g.Name(), g.Name(), g.HandEval)
	}
	return g.Net.Builtin(variant)
}

// NetID returns the id of the network engines of r evaluate pos's variant
// with, "" when they evaluate otherwise.
func (g Kit) NetID(r *Resolved, pos game.State) string { return g.netID(r, g.Variant(pos)) }

// netID is NetID of a variant: the net=FILE's id, else the built-in net's
// of the variant; "" when the evaluator is not a network or there is none.
func (g Kit) netID(r *Resolved, variant string) string {
	if r.Config().Eval != "mlp" {
		return ""
	}
	if net := r.NetFile(); net != nil {
		return net.ID()
	}
	if net, err := g.builtinNet(variant); err == nil {
		return net.ID()
	}
	return ""
}

// NetFor returns the network engines of r evaluate a variant with: the
// net=FILE, else the built-in net of the variant. It panics when there is
// none: Check says so first.
func (g Kit) NetFor(r *Resolved, variant string) *nn.Net {
	if net := r.NetFile(); net != nil {
		return net
	}
	net, err := g.builtinNet(variant)
	if err != nil {
		panic(err) // the caller's Check was skipped
	}
	return net
}

// fit returns the game's built-in ChanceProbCut fit of a variant, nil
// where there is none.
func (g Kit) fit(variant string) *ProbCutParams {
	if g.Fit == nil {
		return nil
	}
	return g.Fit(variant)
}

// ProbCutFor returns the ChanceProbCut parameters of engines of r for a
// variant: the probcut=FILE, else the built-in fit of the variant when it
// was made for r's evaluator and net, else the defaults.
func (g Kit) ProbCutFor(r *Resolved, variant string) *ProbCutParams {
	return r.ProbCutFor(g.fit(variant), g.Name(), variant, g.netID(r, variant))
}

// ProbCutSource says where the ChanceProbCut parameters of engines of r
// for pos's variant come from.
func (g Kit) ProbCutSource(r *Resolved, pos game.State) string {
	v := g.Variant(pos)
	return r.ProbCutSource(g.fit(v), g.Name(), v, g.netID(r, v))
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
	// Builtin returns the built-in net of a variant, or an error naming
	// why there is none; nil for a game with no built-in nets.
	Builtin func(variant string) (*nn.Net, error)
	// OfGame, where given, reports whether a net file is a net of the game
	// at all, of any variant, before Check asks whether it is of the one
	// searched.
	OfGame func(net *nn.Net) error
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
	// Phases, for a game whose nets may have nets of their phases
	// (nn.Net.Phases), gives each phase by name: whether a position that
	// is not over lies in it, where the game's evaluator hands it to the
	// phase's net.
	Phases map[string]func(pos game.State) bool
	// Outcomes, for a game whose nets may give the probabilities of its
	// results in place of one value (nn.Head), returns what they are in a
	// variant, or the error of a variant name that does not parse; nil
	// for a game whose nets all have one.
	Outcomes func(variant string) (*Outcomes, error)
}

// Outcomes are the results of a game whose probabilities a net of
// nn.Head gives, as training needs them: each output a probability from
// the view of the position's mover, as a value is.
type Outcomes struct {
	// Value is such a net's Head.Value: its value, in [-1, 1], from the
	// probabilities.
	Value []float64
	// Flip turns probabilities from one side's view into the other's, in
	// place.
	Flip func(p []float64)
	// Over writes the probabilities of a finished game from its mover's
	// view: each 0 or 1.
	Over func(pos game.State, p []float64)
	// Exact, where given, writes the first of a position's probabilities,
	// from its mover's view, that the game knows exactly where its
	// evaluator of net values the position otherwise than by the net
	// (backgammon's bear-off databases, which a net of the input set
	// "features" gives way to: the chance of winning, and where no gammon
	// is left the rest), and returns how many it wrote: 0 where the net
	// values the position.
	Exact func(net *nn.Net, pos game.State, p []float64) int
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
	// Suite is the name of the default suite (bench, tune), its path
	// from the module root, and SuiteText its text, built into the
	// game's package: ReadSuite reads the text where no file of the
	// name is found, so the default works from any working directory.
	Suite, SuiteText string
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

// SideName names side 0 or 1 in the game's words (Description.Sides).
func (g Kit) SideName(side int) string { return g.Sides[side&1] }

// MoveSeparator is the separator of the game's moves in game records
// (Description.MoveSep).
func (g Kit) MoveSeparator() string { return g.MoveSep }

// PlayedForPoints reports whether the games of a variant are played for
// points (Description.ForPoints).
func (g Kit) PlayedForPoints(variant string) bool { return g.ForPoints != nil && g.ForPoints(variant) }

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

// ChanceAfterRoll returns a Description.ChanceNode for a game whose roll
// is a move of the decision (ChanceBreakthrough, the toy game): the
// chance node the move roll leads to, which is always legal.
func ChanceAfterRoll(roll game.Move) func(pos game.State) (game.State, bool) {
	return func(pos game.State) (game.State, bool) {
		if pos.Kind() != game.Decision {
			return nil, false
		}
		c := pos.Clone()
		c.Play(roll)
		return c, true
	}
}

// openSuite opens the suite file at path, or, where there is none and its
// name is that of the game's default suite (Defaults.Suite, under this or
// an earlier build's folder), the suite built into the game, so that the
// default reads from any working directory.
func (g Kit) openSuite(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) && g.Defaults.SuiteText != "" && filepath.Base(path) == filepath.Base(g.Defaults.Suite) {
		return io.NopCloser(strings.NewReader(g.Defaults.SuiteText)), nil
	}
	return f, err
}

// Game is the earlier name of Kit, kept so that a game written against it
// still builds and its author is told the name to use.
//
// Deprecated: use Kit, a game with its Description and engine.
type Game = Kit

// PointsOf returns what a value of 1 of a variant is worth in points
// (Description.ValueScale), 1 where the game does not say.
func (g Kit) PointsOf(variant string) float64 {
	if g.ValueScale == nil {
		return 1
	}
	return g.ValueScale(variant)
}
