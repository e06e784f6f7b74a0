package breakthrough

import (
	"fmt"

	"starlab/search/game"
)

var _ game.State = (*Board)(nil)

// Kind implements game.State.
func (b *Board) Kind() game.Kind { return game.KindOf(b.Over(), b.pending) }

// Mover implements game.State: the side to move, at a chance node the
// side that moves after the event.
func (b *Board) Mover() int { return int(b.stm) }

// Legal implements game.State, in the order of Moves.
func (b *Board) Legal(dst []game.Move) []game.Move {
	if b.Kind() != game.Decision {
		return dst[:0]
	}
	var moves [MaxMoves]int16
	return game.AppendMoves(dst, moves[:b.Moves(&moves)])
}

// Outcomes implements game.State, in the order of Events.
func (b *Board) Outcomes(dst []game.Event) ([]game.Event, int) {
	if b.Kind() != game.Chance {
		return dst[:0], 0
	}
	var ev [MaxEvents]int8
	var w [MaxEvents]float64
	n, total := b.Events(&ev, &w)
	return game.AppendEvents(dst, ev[:n], w[:n]), total
}

// Play implements game.State.
func (b *Board) Play(m game.Move) { b.MakeSaving(int(m), new(Undo)) }

// Happen implements game.State.
func (b *Board) Happen(e game.Event) { b.HappenSaving(int(e.ID), new(Undo)) }

// CopyFrom makes b a copy of src, which must be a *Board: a Board holds
// no pointers, so the copy shares nothing with src.
func (b *Board) CopyFrom(src game.State) { *b = *src.(*Board) }

// Clone implements game.State.
func (b *Board) Clone() game.State { return new(*b) }

// Game is the ChanceBreakthrough descriptor of the game contract: the
// game's name, its variants "<w>x<h>" ("8x8"), and its text (the position
// notation of String, move notation "b2-b3", "b2xc3" or "roll", an event
// as the square the dice pick or "nothing"). It holds no state; its
// methods take states made by New or Parse (a *Board) and panic on any
// other.
type Game struct{}

var _ game.Game = Game{}

// Name returns "breakthrough".
func (Game) Name() string { return "breakthrough" }

// DefaultVariant returns DefaultVariant, "8x8".
func (Game) DefaultVariant() string { return DefaultVariant }

// New returns the start of variant ("8x8"), or a one-line error naming the
// variant and the problem.
func (Game) New(variant string) (game.State, error) {
	w, h, err := ParseVariant(variant)
	if err != nil {
		return nil, err
	}
	b, err := New(w, h)
	if err != nil {
		return nil, fmt.Errorf("breakthrough variant %q: %v", variant, err)
	}
	return b, nil
}

// Parse reads a position (Parse).
func (Game) Parse(text string) (game.State, error) {
	b, err := Parse(text)
	if err != nil {
		return nil, err // not b: a nil *Board in a State is not a nil State
	}
	return b, nil
}

// Variant returns the variant of s, "<w>x<h>".
func (Game) Variant(s game.State) string {
	b := board(s)
	return Variant(int(b.w), int(b.h))
}

// Phase returns the number of pieces on the board.
func (Game) Phase(s game.State) int { b := board(s); return b.Count(White) + b.Count(Black) }

// PhaseRange returns 2, a piece of each side (a side without one has
// lost), and the start's two rows of each side: pieces are only removed.
func (Game) PhaseRange(s game.State) (lo, hi int) { return 2, 4 * int(board(s).w) }

// FormatMove returns move m of s in move notation (FormatMove).
func (Game) FormatMove(s game.State, m game.Move) string { return FormatMove(board(s), int(m)) }

// ParseMove reads a move of s in move notation (ParseMove).
func (Game) ParseMove(s game.State, text string) (game.Move, error) {
	m, err := ParseMove(board(s), text)
	return game.Move(m), err
}

// FormatEvent returns event e in words (FormatEvent).
func (Game) FormatEvent(_ game.State, e game.Event) string { return FormatEvent(int(e.ID)) }

// CountsChance returns false: a search's depth counts decisions (moves and
// rolls) only, as the chapter does for ChanceBreakthrough.
func (Game) CountsChance() bool { return false }

// board returns the *Board behind s; any other State is a program error.
func board(s game.State) *Board {
	b, ok := s.(*Board)
	if !ok {
		panic(fmt.Sprintf("breakthrough: state is a %T, not a *breakthrough.Board", s))
	}
	return b
}
