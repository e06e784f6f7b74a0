package toy

import (
	"fmt"
	"strconv"

	"starlab/search/game"
)

// Kind implements game.State.
func (b *Board) Kind() game.Kind { return game.KindOf(b.Over(), b.pending) }

// Mover implements game.State.
func (b *Board) Mover() int { return int(b.stm) }

// Legal implements game.State.
func (b *Board) Legal(dst []game.Move) []game.Move {
	dst = dst[:0]
	if b.Kind() == game.Decision {
		dst = append(dst, Step, Jump, Roll)
	}
	return dst
}

// Outcomes implements game.State.
func (b *Board) Outcomes(dst []game.Event) ([]game.Event, int) {
	dst = dst[:0]
	if b.Kind() != game.Chance {
		return dst, 0
	}
	for i, w := range weights {
		dst = append(dst, game.Event{ID: uint16(i), Weight: uint16(w)})
	}
	return dst, TotalWeight
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

// Game describes the toy game to the contract. Its variants are targets,
// written as numbers ("6").
type Game struct{}

// Name implements game.Game.
func (Game) Name() string { return "toy" }

// DefaultVariant implements game.Game.
func (Game) DefaultVariant() string { return "6" }

// ParseVariant reads a variant, the target: "6".
func ParseVariant(variant string) (target int, err error) {
	t, err := strconv.Atoi(variant)
	if err != nil {
		return 0, fmt.Errorf("toy variant %q: want a target from %d to %d", variant, MinTarget, MaxTarget)
	}
	if _, err := New(t); err != nil {
		return 0, fmt.Errorf("toy variant %q: %v", variant, err)
	}
	return t, nil
}

// New implements game.Game.
func (Game) New(variant string) (game.State, error) {
	t, err := ParseVariant(variant)
	if err != nil {
		return nil, err
	}
	return New(t)
}

// Parse implements game.Game.
func (Game) Parse(text string) (game.State, error) {
	b, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Variant implements game.Game.
func (Game) Variant(s game.State) string { return strconv.Itoa(s.(*Board).Target()) }

// Phase implements game.Game: the counters' sum.
func (Game) Phase(s game.State) int { b := s.(*Board); return b.Pos(0) + b.Pos(1) }

// PhaseRange implements game.Game: a counter at the target has won.
func (Game) PhaseRange(s game.State) (lo, hi int) { return 0, 2 * (s.(*Board).Target() - 1) }

var moveNames = [3]string{"step", "jump", "roll"}

// FormatMove implements game.Game.
func (Game) FormatMove(_ game.State, m game.Move) string { return moveNames[m] }

// ParseMove implements game.Game.
func (Game) ParseMove(s game.State, text string) (game.Move, error) {
	if s.Kind() != game.Decision {
		return 0, fmt.Errorf("move %q: the position is not a decision", text)
	}
	for i, n := range moveNames {
		if n == text {
			return game.Move(i), nil
		}
	}
	return 0, fmt.Errorf("move %q: want step, jump or roll", text)
}

// FormatEvent implements game.Game.
func (Game) FormatEvent(_ game.State, e game.Event) string {
	return fmt.Sprintf("%+d", deltas[e.ID])
}

// CountsChance implements game.Game: depth counts decisions only.
func (Game) CountsChance() bool { return false }
