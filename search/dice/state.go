package dice

import "starlab/search/game"

// *Board is a game.State: the cold layers (the game loop, players, records,
// training) see a Dice position through the contract, one call per move.
// The engine keeps calling Board's own methods in its hot loop.
var _ game.State = (*Board)(nil)

// Kind returns game.Over when the game has ended, game.Chance when the die
// must be rolled and game.Decision when it has been.
func (b *Board) Kind() game.Kind { return game.KindOf(b.Over(), b.roll == NoRoll) }

// Mover returns the side to move as 0 (blue) or 1 (red). At a chance node
// that is the roller, who moves after the roll.
func (b *Board) Mover() int { return int(b.stm) }

// Legal appends to dst[:0] the empty cells of the rolled line, in the order
// of Moves, and returns it; it returns dst[:0] unless Kind is
// game.Decision.
func (b *Board) Legal(dst []game.Move) []game.Move {
	if b.Kind() != game.Decision {
		return dst[:0]
	}
	var cells [MaxN]int16
	return game.AppendMoves(dst, cells[:b.Moves(&cells)])
}

// Outcomes appends to dst[:0] one event per line of Rolls, in that order,
// each with ID the line and Weight 1, and returns them with their total
// weight, the number of lines. It returns dst[:0] and 0 unless Kind is
// game.Chance.
func (b *Board) Outcomes(dst []game.Event) ([]game.Event, int) {
	if b.Kind() != game.Chance {
		return dst[:0], 0
	}
	var lines [MaxN]int8
	k := b.Rolls(&lines)
	return game.AppendEvents[int8, int](dst, lines[:k], nil), k
}

// Play is Make: m is a cell, which must be legal.
func (b *Board) Play(m game.Move) { b.Make(int(m)) }

// Happen is SetRoll: e.ID is a line, which must be one of Outcomes.
func (b *Board) Happen(e game.Event) { b.SetRoll(int(e.ID)) }

// CopyFrom makes b a copy of src, which must be a *Board: a Board holds
// no pointers, so the copy shares nothing with src.
func (b *Board) CopyFrom(src game.State) { *b = *src.(*Board) }

// Clone returns a copy of the Board value: a Board holds no pointers, so
// the copy shares nothing with b.
func (b *Board) Clone() game.State { return new(*b) }
