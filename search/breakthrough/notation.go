package breakthrough

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultVariant is the variant played when none is given: the chapter's
// 8x8 board.
const DefaultVariant = "8x8"

// Variant returns the name of the w x h variant, "<w>x<h>" ("8x8"): w
// columns, h rows.
func Variant(w, h int) string { return strconv.Itoa(w) + "x" + strconv.Itoa(h) }

// ParseVariant reads a variant written as Variant writes it, "<w>x<h>",
// and checks the ranges New checks. It returns a one-line error naming
// the variant and the problem.
func ParseVariant(s string) (w, h int, err error) {
	cols, rows, ok := strings.Cut(s, "x")
	w, okW := number(cols)
	h, okH := number(rows)
	switch {
	case !ok || !okW || !okH:
		return 0, 0, fmt.Errorf("breakthrough variant %q is not <columns>x<rows>, like %q", s, DefaultVariant)
	case w < MinW || w > MaxW:
		return 0, 0, fmt.Errorf("breakthrough variant %q: %d columns, out of range [%d, %d]", s, w, MinW, MaxW)
	case h < MinH || h > MaxH:
		return 0, 0, fmt.Errorf("breakthrough variant %q: %d rows, out of range [%d, %d]", s, h, MinH, MaxH)
	}
	return w, h, nil
}

// number reads a number written as strconv.Itoa writes a small one: ASCII
// digits without a sign or a leading zero, so that one variant or
// position has one text.
func number(s string) (int, bool) {
	if s == "" || len(s) > 3 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, _ := strconv.Atoi(s)
	return v, true
}

// SquareName returns square sq's name: its column's letter and its row's
// number, "c4" (row*8 + column, 0-based, is the square c4 for 3*8 + 2).
func SquareName(sq int) string {
	return string(rune('a'+sq&7)) + string(rune('1'+sq>>3))
}

// square reads a square name of b's board.
func (b *Board) square(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	col, row := int(s[0])-'a', int(s[1])-'1'
	if col < 0 || col >= int(b.w) || row < 0 || row >= int(b.h) {
		return 0, false
	}
	return row*8 + col, true
}

// sideNames are the sides' letters in the notation.
var sideNames = [2]string{"w", "b"}

// colorNames are the sides in words.
var colorNames = [2]string{"white", "black"}

// String returns the position in the notation "W H S ROWS": the number of
// columns and rows, the side S to move (w or b; rw or rb at a chance node,
// the letter being the side that moves after the event), and the rows from
// row H down to row 1, separated by "/", each W characters of ".", "w" or
// "b". The 8x8 start is "8 8 w bbbbbbbb/bbbbbbbb/......../......../......../......../wwwwwwww/wwwwwwww".
func (b *Board) String() string {
	var s strings.Builder
	s.WriteString(strconv.Itoa(int(b.w)) + " " + strconv.Itoa(int(b.h)) + " ")
	if b.pending {
		s.WriteByte('r')
	}
	s.WriteString(sideNames[b.stm] + " ")
	for r := int(b.h) - 1; r >= 0; r-- {
		for c := 0; c < int(b.w); c++ {
			s.WriteByte(".wb"[b.At(r*8+c)+1])
		}
		if r > 0 {
			s.WriteByte('/')
		}
	}
	return s.String()
}

// Parse reads a position in the notation String writes, or returns a
// one-line error naming the text and the problem. A position in which an
// end condition holds (one side on its far row, or one side without a
// piece) is a finished game (Over, with its Result); so is one side on its
// far row while the other has none, which a capture onto the far row of
// the opponent's last piece makes, both conditions naming the same
// winner. A position that cannot arise in play is refused: both sides on
// their far rows, both without pieces, or a finished game with a roll
// pending.
func Parse(text string) (*Board, error) {
	bad := func(format string, args ...any) (*Board, error) {
		return nil, fmt.Errorf("breakthrough position %q: %s", text, fmt.Sprintf(format, args...))
	}
	f := strings.Fields(text)
	if len(f) != 4 {
		return bad("want 4 fields, \"W H S ROWS\", got %d", len(f))
	}
	w, okW := number(f[0])
	h, okH := number(f[1])
	if !okW || !okH {
		return bad("the size %q x %q is not two numbers", f[0], f[1])
	}
	b, err := empty(w, h)
	if err != nil {
		return bad("%v", err)
	}
	switch f[2] {
	case "w", "b", "rw", "rb":
		b.pending = f[2][0] == 'r'
		if f[2][len(f[2])-1] == 'b' {
			b.stm = Black
		}
	default:
		return bad("side to move %q, want w, b, rw or rb", f[2])
	}
	rows := strings.Split(f[3], "/")
	if len(rows) != h {
		return bad("%d rows, want %d", len(rows), h)
	}
	for i, row := range rows {
		r := h - i // the row's number
		if len(row) != w {
			return bad("row %d, %q, has %d characters, want %d", r, row, len(row), w)
		}
		for c := 0; c < w; c++ {
			sq := uint64(1) << ((r-1)*8 + c)
			switch row[c] {
			case '.':
			case 'w':
				b.pieces[White] |= sq
			case 'b':
				b.pieces[Black] |= sq
			default:
				return bad("row %d, %q: %q is not ., w or b", r, row, row[c])
			}
		}
	}
	whiteFar, blackFar := b.pieces[White]&b.far[White] != 0, b.pieces[Black]&b.far[Black] != 0
	whiteNone, blackNone := b.pieces[White] == 0, b.pieces[Black] == 0
	switch {
	case whiteFar && blackFar:
		return bad("both sides stand on their far rows, which cannot arise in play")
	case whiteNone && blackNone:
		return bad("neither side has a piece, which cannot arise in play")
	case b.pending && b.Over():
		return bad("the game is over, so no roll can be pending")
	}
	b.key = b.computeKey()
	return b, nil
}

// IsCapture reports whether piece move m of b's side to move captures.
func (b *Board) IsCapture(m int) bool {
	return m != Roll && b.pieces[1-b.stm]&(1<<(m&63)) != 0
}

// FormatMove returns move m of b in move notation: "roll", or the two
// squares joined by "-" for a move onto an empty square ("b2-b3", "b2-c3")
// and by "x" for a capture ("b2xc3").
func FormatMove(b *Board, m int) string {
	if m == Roll {
		return "roll"
	}
	sep := "-"
	if b.IsCapture(m) {
		sep = "x"
	}
	return SquareName(m>>6) + sep + SquareName(m&63)
}

// ParseMove reads a move of b in move notation and returns it if it is
// legal, or a one-line error naming the move and why it is not. Either
// separator is accepted: "b2-c3" and "b2xc3" are the same move, a capture
// or not as the board says.
func ParseMove(b *Board, text string) (int, error) {
	switch {
	case b.Over():
		return 0, fmt.Errorf("move %q: the game is over", text)
	case b.pending:
		return 0, fmt.Errorf("move %q: a roll is pending, so its event comes first", text)
	case text == "roll":
		return Roll, nil
	}
	from, okFrom := b.square(text[:min(2, len(text))])
	to, okTo := 0, false
	if len(text) == 5 && (text[2] == '-' || text[2] == 'x') {
		to, okTo = b.square(text[3:])
	}
	if !okFrom || !okTo {
		return 0, fmt.Errorf("move %q is not roll or <from>-<to> on the %dx%d board, like b2-b3 or b2xc3", text, b.w, b.h)
	}
	c := int(b.stm)
	forward := 1
	if c == Black {
		forward = -1
	}
	dc := to&7 - from&7
	switch {
	case b.At(from) != c:
		return 0, fmt.Errorf("move %q: no %s piece on %s", text, colorNames[c], SquareName(from))
	case to>>3-from>>3 != forward || dc < -1 || dc > 1:
		return 0, fmt.Errorf("move %q: a %s piece moves one square %s, straight or diagonally", text, colorNames[c], [2]string{"up", "down"}[c])
	case b.At(to) == c:
		return 0, fmt.Errorf("move %q: %s holds a %s piece", text, SquareName(to), colorNames[c])
	case dc == 0 && b.At(to) != -1:
		return 0, fmt.Errorf("move %q: %s is taken, and a piece captures only diagonally", text, SquareName(to))
	}
	return from<<6 | to, nil
}

// FormatEvent returns event ev of a roll in words: the square the dice
// pick ("c4") when a piece stands there, "nothing" for an empty square.
func FormatEvent(ev int) string {
	if ev == Nothing {
		return "nothing"
	}
	return SquareName(ev)
}

// Picture draws the board for a person: row H at the top, each row
// labelled with its number and each column with its letter, pieces as w
// and b, empty squares as ".".
func (b *Board) Picture() string {
	var s strings.Builder
	for r := int(b.h) - 1; r >= 0; r-- {
		fmt.Fprintf(&s, "%2d ", r+1)
		for c := 0; c < int(b.w); c++ {
			s.WriteString(" " + string(".wb"[b.At(r*8+c)+1]))
		}
		s.WriteByte('\n')
	}
	s.WriteString("   ")
	for c := 0; c < int(b.w); c++ {
		s.WriteString(" " + string(rune('a'+c)))
	}
	s.WriteByte('\n')
	return s.String()
}
