package pig

import (
	"fmt"
	"strings"

	"starlab/search/game"
)

// Kind implements game.State.
func (b *Board) Kind() game.Kind { return game.KindOf(b.Over(), b.rolling) }

// Mover implements game.State: the side to decide, at a chance node the
// roller, and in a finished game the side that reached the goal.
func (b *Board) Mover() int { return int(b.stm) }

// Legal implements game.State.
func (b *Board) Legal(dst []game.Move) []game.Move {
	dst = dst[:0]
	if b.Kind() == game.Decision {
		dst = append(dst, Roll, Hold)
	}
	return dst
}

// Outcomes implements game.State.
func (b *Board) Outcomes(dst []game.Event) ([]game.Event, int) {
	dst = dst[:0]
	if b.Kind() != game.Chance {
		return dst, 0
	}
	var ev [Faces]int8
	var w [Faces]float64
	n, total := b.Events(&ev, &w)
	for i := range n {
		dst = append(dst, game.Event{ID: uint16(ev[i]), Weight: uint16(w[i])})
	}
	return dst, total
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

// End says why a finished game ended (game.Ender).
func (b *Board) End() string {
	return fmt.Sprintf("side %d reached the goal, %d", b.stm, b.goal)
}

// Game describes Pig to the contract.
type Game struct{}

// Name implements game.Game.
func (Game) Name() string { return "pig" }

// DefaultVariant implements game.Game: the classic goal.
func (Game) DefaultVariant() string { return "100" }

// New implements game.Game.
func (Game) New(variant string) (game.State, error) {
	goal, bag, err := ParseVariant(variant)
	if err != nil {
		return nil, err
	}
	return New(goal, bag)
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
func (Game) Variant(s game.State) string { return s.(*Board).Variant() }

// Phase implements game.Game: the banked scores' sum.
func (Game) Phase(s game.State) int { b := s.(*Board); return b.Score(0) + b.Score(1) }

// PhaseRange implements game.Game: a side at the goal has won.
func (Game) PhaseRange(s game.State) (lo, hi int) { return 0, 2 * (s.(*Board).Goal() - 1) }

var moveNames = [2]string{"roll", "hold"}

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
	return 0, fmt.Errorf("move %q: want roll or hold", text)
}

// FormatEvent implements game.Game: "rolled 4", or "drew 4" from the bag.
func (Game) FormatEvent(s game.State, e game.Event) string {
	if s.(*Board).bag {
		return fmt.Sprintf("drew %d", e.ID+1)
	}
	return fmt.Sprintf("rolled %d", e.ID+1)
}

// CountsChance implements game.Game: depth counts decisions only.
func (Game) CountsChance() bool { return false }

// Describe is the whole of what show prints (game.Describer): the
// position, the scores and the turn, and who rolled, with the events, or
// who decides, with the moves.
func (b *Board) Describe() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "pig %s (variant %s): goal %d, side 0 has %d, side 1 has %d\n", b, b.Variant(), b.goal, b.score[0], b.score[1])
	switch b.Kind() {
	case game.Over:
		fmt.Fprintf(&sb, "game over: %s\n", b.End())
	case game.Chance:
		events, total := b.Outcomes(nil)
		fmt.Fprintf(&sb, "side %d rolled, with %d this turn: %d events, total weight %d\n", b.stm, b.turn, len(events), total)
		for _, e := range events {
			fmt.Fprintf(&sb, "  %-10s %d/%d\n", Game{}.FormatEvent(b, e), e.Weight, total)
		}
	default:
		fmt.Fprintf(&sb, "side %d to decide, with %d this turn: roll, or hold to bank %d\n", b.stm, b.turn, int(b.score[b.stm]+b.turn))
	}
	return sb.String()
}
