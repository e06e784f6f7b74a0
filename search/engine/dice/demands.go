package dice

import (
	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// This file is the list of what the engine source needs of a game's
// game.go, written as declarations the compiler checks: a game.go that
// lacks a name, or gives it another type, fails to compile here, at the
// line that names it and says what it is for, rather than at some use of
// it deep in the engine. Nothing here runs or takes any space: every
// declaration is blank, and the compiler drops the values.

// The types. Board is the position, searched in place (its methods are
// below); undo is what a move changes that its take-back restores, and
// eventUndo the same for a chance event (per-ply arrays of both live in
// the engine); move and event are a move's and an event's numbers, held
// in fixed arrays; variantKey is what the evaluator and the ChanceProbCut
// models depend on (the engine keeps the one they were built for).
var (
	_ undo
	_ eventUndo
	_ event
	_ variantKey
	_ demandInteger[move] // moves index the history table and convert to int
)

// demandInteger admits the integer types only.
type demandInteger[T interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}] struct{}

// Board's methods the search calls at every node: the end of the game and
// its value from the mover's view, the Zobrist key, the moves in the
// order of the game, make and take-back with the counters saved in undo,
// and the key after a move (to prefetch its table entry); and the
// contract the stages see, since boardOf asserts a game.State to *Board.
var _ interface {
	Over() bool
	Result() float64
	Key() uint64
	Moves(*[maxMoves]move) int
	MakeSaving(m int, u *undo)
	UnmakeRestoring(m int, u *undo)
	KeyAfter(m int) uint64
	game.State
} = (*Board)(nil)

// netEval is the network evaluator, a concrete type so that its calls are
// direct: Reset reads a board afresh, Make follows a move made on the
// board, Unmake precedes its take-back, and Evaluate is the value of the
// board it follows, from the mover's view.
var _ interface {
	Reset(*Board)
	Make(b *Board, m int)
	Unmake(b *Board, m int)
	Evaluate(*Board) float64
} = (*netEval)(nil)

// The sizes of the engine's fixed arrays: the most moves of a decision
// and events of a chance node, the number below which moves are numbered
// (the history table's width), and maxPly, the length of the arrays kept
// per ply from the root (killers, undo, eundo, frames); and maxDepth, the
// deepest search, which those arrays must hold (see below): Search goes
// no deeper, whatever MaxDepth says (searchDepth). A move node keeps its
// moves on the stack where maxMoves is at most stackMoves (256), and
// otherwise in the engine, maxMoves a ply from the root (backgammon's
// 4,096 plays: maxPly·maxMoves moves, 1 MiB an engine), since the stack
// would zero the whole array at every node.
const (
	_ int = maxMoves
	_ int = maxEvents
	_ int = moveIDs
	_ int = maxPly
	_ int = maxDepth
)

// The facts that let the compiler fold away what a game does not need:
// alternating, every move leads to a chance node (a move node never asks
// what its child is); uniformChance, every event has weight 1 (no weight
// is read); countsChance, a search's depth counts chance nodes as plies;
// eventsTouchEval, a chance event changes what an evaluator reads
// (netHappen and netUnhappen are called); evalNoise, the game has the
// evaluation noise option (search.Noisy at every leaf); signsFollowMover,
// a side may decide twice in a row or an event may hand the move over
// (Pig), so that the sign of every edge is read from its child's mover
// (negated where the mover changes), where otherwise a decision's child
// is always negated and an event's never (the sign rule of game.State);
// exactFirst, the Star algorithms keep exact values first in the table
// (docs/search.md, "What the table keeps"): a position met again, at any
// depth, in a window its entry does not decide is searched in the full
// window, a probe takes an exact entry, and a bound never replaces an
// exact value, for games whose positions recur at many depths of one
// search, where bounds kept with their windows make the Star algorithms
// search again and again what expectimax searches once; netPrefetches, a
// decision whose children are leaves asks the network for its moves
// (netMoves), so that the evaluator can prefetch what it keeps of them.
const (
	_ bool = exactFirst
	_ bool = signsFollowMover
	_ bool = alternating
	_ bool = uniformChance
	_ bool = countsChance
	_ bool = eventsTouchEval
	_ bool = evalNoise
	_ bool = netPrefetches
)

// maxPly must hold a search of depth maxDepth. Where depth counts chance
// plies, every ply takes a unit of depth and a node of depth 0 is a leaf,
// so such a search indexes the per-ply arrays down to ply maxDepth-1;
// where it counts decisions only, a decision and the chance node below it
// share a unit and a chance node of depth 0 still makes its events, so a
// search from a chance root reaches ply 2*maxDepth. When maxPly is too
// short for maxDepth, the second key below is false as well as the
// first, and the build fails on this line with "duplicate key false in
// map literal": lengthen maxPly or lower maxDepth.
var _ = map[bool]struct{}{false: {}, maxDepth <= maxPly && (countsChance || 2*maxDepth < maxPly): {}}

// gameName names the game in messages.
const _ string = gameName

// The functions the search calls per node: whether a board is a chance
// node; its events and their weights (weights need not be written where
// uniformChance) with their total; an event made and taken back, with
// what it changes saved in eventUndo; the key after an event (to
// prefetch); the network following an event (where eventsTouchEval); the
// number of moves of a decision (Star2's probe is complete when it is no
// more than the probing factor); the side to move (the history table's
// row); the hand evaluator, from the mover's view, and which of the
// game's hand evaluators an eval= name is (the game's Check refused any
// other name), the number handEval is given.
var (
	_ func(*Board) bool                                               = isChance
	_ func(*Board, *[maxEvents]event, *[maxEvents]float64) (int, int) = chanceEvents
	_ func(*Board, event, *eventUndo)                                 = happen
	_ func(*Board, event, *eventUndo)                                 = unhappen
	_ func(*Board, event) uint64                                      = keyAfterEvent
	_ func(*netEval, *Board, event, *eventUndo)                       = netHappen
	_ func(*netEval, *Board, event, *eventUndo)                       = netUnhappen
	_ func(*Board) int                                                = moveCount
	_ func(*Board) int                                                = mover
	_ func(*Board, int8) float64                                      = handEval
	_ func(string) int8                                               = handOf
)

// The depths: whether a search of depth from a chance root (or a decision
// root) ends on a chance ply, whose value is then that of one ply less
// (iterative deepening skips such depths with Limits.PlayDepths, and
// ChanceProbCut's models are looked up by the deep depth that counts);
// and the depth after which searching a root deeper changes nothing
// (Search stops at maxDepth where MaxDepth says more).
var (
	_ func(chanceRoot bool, depth int) bool = endsOnChance
	_ func(root *Board) int                 = MaxDepth
)

// netMoves writes the moves of a decision whose children are leaves the
// network values, as Moves does, and the evaluator starts bringing what
// it keeps of those children into the processor's caches (backgammon's
// evaluation cache: NetEvaluator.Moves); called only where netPrefetches,
// and Moves itself elsewhere.
var _ func(*netEval, *Board, *[maxMoves]move) int = netMoves

// netForget empties what the network evaluator keeps of the positions it
// has valued (backgammon's evaluation cache of a net with features), as
// ClearTT empties the table, so that a search after ClearTT depends on
// nothing searched before; a no-op where the evaluator keeps nothing.
var _ func(*netEval) = netForget

// setBoard makes the engine's evaluator and ChanceProbCut models those of
// the board's variant (useVariant, given the variant's name, where it is
// not the last one's): the search calls it on every root and on every
// position Evaluate is given. netEvalOf builds the engine's evaluator of a
// net, or says in one line why it cannot (a net of another game).
var (
	_ func(*Engine, *Board)           = (*Engine).setBoard
	_ func(*nn.Net) (*netEval, error) = netEvalOf
)

// gameRules gives the game's rules and description (its rules package's
// Game and Description), which Game joins with this engine.
var _ func() (game.Game, search.Description) = gameRules
