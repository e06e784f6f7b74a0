package breakthrough

import (
	"fmt"
	"math/bits"
)

// Board limits and the numbering of moves and events. Every per-board array
// is sized by these constants, so that a Board is a plain value: copying it
// copies the position, and nothing in make/unmake allocates.
const (
	MinW = 3 // fewest columns
	MaxW = 8 // most columns
	MinH = 4 // fewest rows
	MaxH = 8 // most rows
	// MaxSquares is the number of square indices: a square is row*8 +
	// column (0-based, row 0 is row 1), whatever the board's width, so
	// that a board is two 64-bit sets.
	MaxSquares = 64
	// Roll is the roll's move number; a piece move is from*64 + to.
	Roll = MaxSquares * MaxSquares
	// MoveIDs bounds the move numbers: every move is below it.
	MoveIDs = Roll + 1
	// MaxMoves bounds the moves of a decision: each move joins one own
	// piece to one square without an own piece, at most three moves per
	// piece and three per square, so at most 3*min(own, 64-own) <= 96
	// piece moves, and the roll.
	MaxMoves = 3*MaxSquares/2 + 1
	// Nothing is the event of a roll onto an empty square; the other
	// events are the squares whose piece is removed.
	Nothing = MaxSquares
	// MaxEvents bounds the events of a roll: one per occupied square, and
	// nothing when a square is empty.
	MaxEvents = MaxSquares
)

// Colors: White moves first, up the board; Black moves down.
const (
	White = 0
	Black = 1
)

// Board is a ChanceBreakthrough position: the two sides' pieces as sets of
// squares, the side to move, whether a roll is pending (a chance node), and
// the Zobrist key kept incrementally; the masks of the board's size are
// kept beside them so that the hot loop reads no table. The zero Board is
// not valid; use New or Parse.
type Board struct {
	pieces  [2]uint64 // White's and Black's squares
	key     uint64
	w, h    int8
	stm     int8 // the side to move; at a chance node, the side that moves after the event
	pending bool // the last move was a roll whose die is still to be cast
	// The board's masks: every square, the squares off column a (a piece
	// there has a left diagonal), the squares off the last column, and
	// the far rows (White's is row H, Black's row 1).
	all, notLeft, notRight uint64
	far                    [2]uint64
}

// Undo is what a move or an event changes: the pieces and the key before
// it. A take-back copies them back rather than undoing the change.
type Undo struct {
	pieces [2]uint64
	key    uint64
}

// New returns the start of a w x h board: White on rows 1 and 2, Black on
// rows h-1 and h, White to move.
func New(w, h int) (*Board, error) {
	b, err := empty(w, h)
	if err != nil {
		return nil, err
	}
	row := b.far[Black] // row 1
	b.pieces[White] = row | row<<8
	b.pieces[Black] = b.far[White] | b.far[White]>>8
	b.key = b.computeKey()
	return b, nil
}

// empty returns the empty w x h board, White to move, or an error naming
// the size out of range.
func empty(w, h int) (*Board, error) {
	switch {
	case w < MinW || w > MaxW:
		return nil, fmt.Errorf("width %d out of range [%d, %d]", w, MinW, MaxW)
	case h < MinH || h > MaxH:
		return nil, fmt.Errorf("height %d out of range [%d, %d]", h, MinH, MaxH)
	}
	b := &Board{w: int8(w), h: int8(h)}
	row := uint64(1)<<w - 1
	colA := uint64(0)
	for r := 0; r < h; r++ {
		b.all |= row << (8 * r)
		colA |= 1 << (8 * r)
	}
	b.notLeft = b.all &^ colA
	b.notRight = b.all &^ (colA << (w - 1))
	b.far[White] = row << (8 * (h - 1))
	b.far[Black] = row
	b.key = b.computeKey()
	return b, nil
}

// W returns the number of columns.
func (b *Board) W() int { return int(b.w) }

// H returns the number of rows.
func (b *Board) H() int { return int(b.h) }

// SideToMove returns the side to move (White or Black); at a chance node,
// the side that moves after the event, the roller's opponent.
func (b *Board) SideToMove() int { return int(b.stm) }

// Pending reports whether a roll is pending: the position is a chance node.
func (b *Board) Pending() bool { return b.pending }

// Pieces returns the set of side c's squares (bit row*8 + column).
func (b *Board) Pieces(c int) uint64 { return b.pieces[c] }

// Count returns the number of side c's pieces.
func (b *Board) Count(c int) int { return bits.OnesCount64(b.pieces[c]) }

// At returns what stands on square sq: White, Black, or -1 for nothing.
func (b *Board) At(sq int) int {
	switch {
	case b.pieces[White]&(1<<sq) != 0:
		return White
	case b.pieces[Black]&(1<<sq) != 0:
		return Black
	}
	return -1
}

// OnBoard reports whether square index sq is a square of the board.
func (b *Board) OnBoard(sq int) bool { return sq >= 0 && sq < MaxSquares && b.all&(1<<sq) != 0 }

// Key returns the position's Zobrist key: the board size, the pieces, the
// side to move and the pending roll.
func (b *Board) Key() uint64 { return b.key }

// computeKey is the key from scratch: the specification the incremental
// key of MakeSaving and HappenSaving follows.
func (b *Board) computeKey() uint64 {
	k := zSize[b.w][b.h]
	for c := range 2 {
		for p := b.pieces[c]; p != 0; p &= p - 1 {
			k ^= zPiece[bits.TrailingZeros64(p)][c]
		}
	}
	if b.stm == Black {
		k ^= zSide
	}
	if b.pending {
		k ^= zPending
	}
	return k
}

// Over reports whether the game has ended: a side stands on its far row,
// or a side has no piece.
func (b *Board) Over() bool {
	return b.pieces[White]&b.far[White] != 0 || b.pieces[Black]&b.far[Black] != 0 ||
		b.pieces[White] == 0 || b.pieces[Black] == 0
}

// End says why a finished game ended, in words ("white stands on its far
// row", "black has no piece"), "" for a game that is not over. Where two
// conditions hold it names the capture onto the far row.
func (b *Board) End() string {
	for c := White; c <= Black; c++ {
		if b.pieces[c]&b.far[c] != 0 {
			return colorNames[c] + " stands on its far row"
		}
	}
	for c := White; c <= Black; c++ {
		if b.pieces[c] == 0 {
			return colorNames[c] + " has no piece"
		}
	}
	return ""
}

// Result returns the value of a finished game for the side to move: -1
// when the opponent stands on its far row or the side to move has no
// piece, else +1 (the side to move stands on its far row, or the opponent
// has no piece). Where two end conditions hold they name the same winner
// (a capture onto the far row of the last opposing piece; Parse refuses
// the other pairs), so the order of the tests does not matter.
func (b *Board) Result() float64 {
	c, o := b.stm, 1-b.stm
	if b.pieces[o]&b.far[o] != 0 || b.pieces[c] == 0 {
		return -1
	}
	return 1
}

// targets returns the squares side c's pieces reach by each kind of move
// onto a square of set: diagonally to the left (towards column a), to the
// right, and straight ahead, each shifted by the offset from the piece to
// its target (the shift's sign is the side's direction).
func (b *Board) targets(c int, left, right, straight uint64) (l, r, s uint64) {
	own := b.pieces[c]
	if c == White {
		return (own & b.notLeft) << 7 & left, (own & b.notRight) << 9 & right, own << 8 & straight
	}
	return (own & b.notLeft) >> 9 & left, (own & b.notRight) >> 7 & right, own >> 8 & straight
}

// offsets are the distances from a piece of each side to its targets to
// the left, to the right and straight ahead: a target minus its piece.
var offsets = [2][3]int{{7, 9, 8}, {-9, -7, -8}}

// Moves writes the moves of the side to move into dst and returns their
// count: captures first (to the left, then to the right), then the moves
// onto empty squares (to the left, to the right, straight ahead), each by
// target square, and the roll last. It is meant for a decision that is not
// over: a piece on the far row has no square ahead.
func (b *Board) Moves(dst *[MaxMoves]int16) int {
	c := int(b.stm)
	opp, free := b.pieces[1-c], b.all&^(b.pieces[White]|b.pieces[Black])
	off := &offsets[c]
	l, r, _ := b.targets(c, opp, opp, 0)
	n := addMoves(dst, 0, l, off[0])
	n = addMoves(dst, n, r, off[1])
	l, r, s := b.targets(c, free, free, free)
	n = addMoves(dst, n, l, off[0])
	n = addMoves(dst, n, r, off[1])
	n = addMoves(dst, n, s, off[2])
	dst[n] = Roll
	return n + 1
}

// addMoves writes the moves onto the squares of targets, each from the
// square off before it, into dst from index n, and returns the new count.
func addMoves(dst *[MaxMoves]int16, n int, targets uint64, off int) int {
	for ; targets != 0; targets &= targets - 1 {
		to := bits.TrailingZeros64(targets)
		dst[n] = int16((to-off)<<6 | to)
		n++
	}
	return n
}

// MoveCount returns the number of moves Moves writes, without writing
// them.
func (b *Board) MoveCount() int {
	c := int(b.stm)
	free := b.all &^ (b.pieces[White] | b.pieces[Black])
	diag := free | b.pieces[1-c]
	l, r, s := b.targets(c, diag, diag, free)
	return bits.OnesCount64(l) + bits.OnesCount64(r) + bits.OnesCount64(s) + 1
}

// MakeSaving plays move m of a decision (a piece move from Moves, or
// Roll), saving what it changes into u. A roll changes no square: it
// makes the position a chance node whose events come before the
// opponent's turn.
func (b *Board) MakeSaving(m int, u *Undo) {
	u.pieces, u.key = b.pieces, b.key
	c := b.stm
	if m == Roll {
		b.pending = true
		b.stm = 1 - c
		b.key ^= zSide ^ zPending
		return
	}
	from, to := m>>6, m&63
	b.pieces[c] ^= 1<<from | 1<<to
	b.key ^= zPiece[from][c] ^ zPiece[to][c] ^ zSide
	if o := 1 - c; b.pieces[o]&(1<<to) != 0 {
		b.pieces[o] &^= 1 << to
		b.key ^= zPiece[to][o]
	}
	b.stm = 1 - c
}

// UnmakeRestoring takes back move m made by MakeSaving(m, u).
func (b *Board) UnmakeRestoring(m int, u *Undo) {
	b.pieces, b.key = u.pieces, u.key
	b.stm = 1 - b.stm
	b.pending = false
}

// KeyAfter returns the key after move m, without playing it.
func (b *Board) KeyAfter(m int) uint64 {
	c := b.stm
	if m == Roll {
		return b.key ^ zSide ^ zPending
	}
	from, to := m>>6, m&63
	k := b.key ^ zPiece[from][c] ^ zPiece[to][c] ^ zSide
	if o := 1 - c; b.pieces[o]&(1<<to) != 0 {
		k ^= zPiece[to][o]
	}
	return k
}

// Events writes the roll's events and their weights and returns their
// count and total weight, W*H: Nothing first, of weight the number of
// empty squares (left out when there is none), then every occupied square
// by index, of weight 1. It is meant for a chance node.
func (b *Board) Events(ev *[MaxEvents]int8, w *[MaxEvents]float64) (n, total int) {
	occ := b.pieces[White] | b.pieces[Black]
	if free := bits.OnesCount64(b.all &^ occ); free > 0 {
		ev[0], w[0] = Nothing, float64(free)
		n = 1
	}
	for ; occ != 0; occ &= occ - 1 {
		ev[n], w[n] = int8(bits.TrailingZeros64(occ)), 1
		n++
	}
	return n, int(b.w) * int(b.h)
}

// HappenSaving makes event ev of a chance node happen, saving what it
// changes into u: the piece on square ev, of either side, is removed
// (nothing changes for Nothing), and the side to move, the roller's
// opponent, moves next.
func (b *Board) HappenSaving(ev int, u *Undo) {
	u.pieces, u.key = b.pieces, b.key
	b.pending = false
	b.key ^= zPending
	if ev == Nothing {
		return
	}
	for c := range 2 {
		if b.pieces[c]&(1<<ev) != 0 {
			b.pieces[c] &^= 1 << ev
			b.key ^= zPiece[ev][c]
		}
	}
}

// UnhappenRestoring takes back HappenSaving(ev, u).
func (b *Board) UnhappenRestoring(ev int, u *Undo) {
	b.pieces, b.key = u.pieces, u.key
	b.pending = true
}

// KeyAfterEvent returns the key after event ev, without it happening.
func (b *Board) KeyAfterEvent(ev int) uint64 {
	k := b.key ^ zPending
	if ev == Nothing {
		return k
	}
	for c := range 2 {
		if b.pieces[c]&(1<<ev) != 0 {
			k ^= zPiece[ev][c]
		}
	}
	return k
}

// Advance returns how many rows side c's most advanced piece has moved
// from its home row (White: row - 1 of its highest piece; Black: H - row
// of its lowest piece), 0 when it has no piece.
func (b *Board) Advance(c int) int {
	p := b.pieces[c]
	if p == 0 {
		return 0
	}
	if c == White {
		return (63 - bits.LeadingZeros64(p)) >> 3
	}
	return int(b.h) - 1 - bits.TrailingZeros64(p)>>3
}
