// Package game is the contract between starlab's stages and its games: what
// the game loop, the players, the records, training and regression need of a
// position, one call per move or per game and never per search node. The
// search engines do not use it in their hot loop; each game has its own
// engine, built from one engine source, that calls the game's board
// directly (package starlab/search/engine).
//
// The contract follows OpenSpiel's game interface, with explicit chance
// outcomes: a State is a decision node (its mover chooses a Move), a chance
// node (an Event happens, with probability Weight over the node's total
// weight), or over. Values follow the mover in every game: a value is from
// the view of the state's Mover, and a child's value is negated on the way
// up exactly where the child's Mover is not its parent's, on a move's edge
// and an event's alike. In Dice a chance node is the roll before every move
// (the roller moves next); in ChanceBreakthrough a roll is a move whose
// child is a chance node (the roller's opponent moves next); in Pig the
// side that rolls 2 to 6 decides again (a decision under a decision of the
// same side, not negated) and a roll of 1 hands the move over (an event
// whose child is negated).
package game

// Kind is what a state is: a decision, a chance node, or the end.
type Kind uint8

const (
	Decision Kind = iota // the mover chooses a Move
	Chance               // an Event happens, by weight
	Over                 // the game has ended: Result is its value
)

// String returns "decision", "chance" or "over".
func (k Kind) String() string {
	switch k {
	case Decision:
		return "decision"
	case Chance:
		return "chance"
	case Over:
		return "over"
	}
	return "unknown"
}

// Move is a decision, numbered by the game (a cell in Dice; a from-to pair
// or a roll in ChanceBreakthrough).
type Move uint16

// Event is a chance outcome: ID is numbered by the game, and the outcome
// has probability Weight / total, where total is the sum of the weights of
// the node's events. Integer weights keep the search's chance windows
// exact where the game's probabilities are rational.
type Event struct {
	ID     uint16
	Weight uint16
}

// EventAt returns the event of events (a chance node's, in its order)
// whose share of the total weight holds u, for u drawn uniformly from 0
// to the total minus 1: the event so drawn happens with probability
// weight/total. It is false when u is not below the events' weight.
func EventAt(events []Event, u int) (Event, bool) {
	for _, e := range events {
		if u < int(e.Weight) {
			return e, true
		}
		u -= int(e.Weight)
	}
	return Event{}, false
}

// State is a position of a game as the cold layers see it. A State is
// changed in place by Play and Happen; Clone gives an independent copy.
//
// Values follow the mover (see the package doc): Mover says whose view a
// state's value takes. A side may decide twice in a row and an event may
// decide who moves next (Pig, where a roll of 1 passes the turn), with no
// forced pass. A state that is over counts too: its Result is from its
// Mover's view. Most games keep fixed signs, which their engines then
// assume at no cost per node (the engine's signsFollowMover false, checked
// by search/engine/enginetest with gametest.CheckFixedSigns):
//
//   - every child of a decision, whatever its kind (a decision, a chance
//     node, or over), has the other side as Mover: decisions alternate
//     sides;
//   - every child of a chance node, whatever its kind, has the chance
//     node's Mover: an event never changes whose view values take.
type State interface {
	// Kind reports whether the state is a decision, a chance node or over.
	Kind() Kind
	// Mover returns the side (0 or 1) whose view values take: at a
	// decision the side to move; at a chance node the side the game
	// chooses (Dice and ChanceBreakthrough: the side that moves after the
	// event; Pig: the roller), whose chance stream draws the event in a
	// match.
	Mover() int
	// Legal appends the legal moves of a decision to dst[:0] and returns
	// it, in the game's fixed order; a chance node or a state that is over
	// has none.
	Legal(dst []Move) []Move
	// Outcomes appends the events of a chance node to dst[:0] and
	// returns them, in the game's fixed order, with their total weight; a
	// decision or a state that is over has none, and total 0.
	Outcomes(dst []Event) ([]Event, int)
	// Play makes a legal move of a decision.
	Play(Move)
	// Happen makes an event of a chance node happen. An event is known
	// by its ID (a game record keeps only IDs), so Happen reads only ID.
	Happen(Event)
	// Result returns the value of a state that is over, from Mover's
	// view, in [-1, 1].
	Result() float64
	// Key returns the state's hash: equal states have equal keys, and
	// different states different keys but for rare collisions.
	Key() uint64
	// Clone returns an independent copy.
	Clone() State
	// CopyFrom makes the state an independent copy of src, a state of the
	// same game, without allocating: a player that tries every move of a
	// position reuses one scratch state.
	CopyFrom(src State)
	// String returns the state in the game's notation; Game.Parse reads it
	// back.
	String() string
}

// Game describes a game: its name, its variants (board sizes and the
// like), and the text of its positions, moves and events.
type Game interface {
	// Name is the game's name on the command line and in files.
	Name() string
	// DefaultVariant is the variant used when none is given.
	DefaultVariant() string
	// New returns the start of a variant, or an error naming the problem.
	New(variant string) (State, error)
	// Parse reads a position in the game's notation, or returns a
	// one-line error naming the problem.
	Parse(text string) (State, error)
	// Variant returns the variant a state belongs to.
	Variant(State) string
	// Phase returns the phase of a state used to band regressions (the
	// checkers on the board in Dice, the pieces in ChanceBreakthrough).
	Phase(State) int
	// PhaseRange returns the least and the greatest phase of a state of
	// s's variant that is not over, so that a phase asked for can be
	// checked before games are played to look for it (Dice: 0 to n*n-1
	// checkers; ChanceBreakthrough: 2 pieces to the start's).
	PhaseRange(s State) (lo, hi int)
	// FormatMove and ParseMove write and read a move of a decision state.
	FormatMove(State, Move) string
	ParseMove(State, string) (Move, error)
	// FormatEvent returns an event of a chance state in words, on one
	// line. Its last word stands for the event in game records (the
	// events column of games.parquet), so the last words of a node's
	// events differ ("row 3" is recorded as "3").
	FormatEvent(State, Event) string
	// CountsChance reports whether a search's depth counts chance nodes
	// as plies (Dice, as the thesis does) or only decisions
	// (ChanceBreakthrough, as the chapter does).
	CountsChance() bool
}

// The hooks below are optional behaviour of a State: a game's State may
// implement any of them, and the commands use them where present and a
// plain form where not. A game's facts (its sides' names, the separator
// of its moves in records, its rules version, which variants are played
// for points) are not hooks of its Game but fields of the description
// every game gives (search.Description), so that none can be forgotten.

// Describer is a State that describes itself for starlab show: the whole
// text show prints (Dice: the board with coordinates, the roll, the
// events or moves, the streaks and pairs). Without it show prints the
// position's notation, its Picture, and its moves or events.
type Describer interface {
	Describe() string
}

// Picturer is a State that draws itself as a board, one or more lines
// ending in a newline, for show and play -board.
type Picturer interface {
	Picture() string
}

// Ender is a State that is over and says why in a few words ("white
// reached the far row"), for the one-line refusal of a finished game.
type Ender interface {
	End() string
}

// Pointer is a State whose games are played for points (backgammon's
// money play: a single game, a gammon or a backgammon is worth 1, 2 or
// 3): Points is the winner's points of a state that is over, 0 where the
// game is not played for points. Its Result is then the points over the
// most a game can be worth, so that it lies in [-1, 1]; game records keep
// the win or loss and the points.
type Pointer interface {
	Points() int
}

// EndPoints returns the winner's points of a state that is over: its own
// (Pointer), else 0.
func EndPoints(s State) int {
	if p, ok := s.(Pointer); ok {
		return p.Points()
	}
	return 0
}

// ValueFor returns the value of s for side: the rules' value (Result) when
// the game is over, otherwise eval's, each from s's mover's view and
// negated where the mover is the other side. A player valuing the states
// its moves lead to calls it with its evaluator.
func ValueFor(s State, side int, eval func(State) float64) float64 {
	var v float64
	if s.Kind() == Over {
		v = s.Result()
	} else {
		v = eval(s)
	}
	if s.Mover() != side {
		v = -v
	}
	return v
}
