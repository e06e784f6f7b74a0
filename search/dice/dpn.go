package dice

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseDPN parses a position in Dice Position Notation:
//
//	<n> <m> <stm> <roll> <n*n cells>
//
// with cells row-major (row 1 first, column a first), each "-", "b" or "r";
// roll -1 when the die must be rolled, k >= 0 when line k (0-based: a row for
// blue, a column for red) was rolled. It rejects, with a one-line error naming
// the problem, anything that cannot arise in a game with blue moving first:
// sizes out of range, wrong cell counts, unknown cell characters, piece counts
// that do not match the side to move, a roll out of range or on a full line,
// and won positions no game can reach. A won position is accepted as the
// final position of a game: the side that just moved has m in a row, made
// by its last checker, the other side has none, and the die is not rolled.
func ParseDPN(s string) (*Board, error) {
	f := strings.Fields(s)
	if len(f) < 4 {
		return nil, fmt.Errorf("DPN has %d fields, want <n> <m> <stm> <roll> and n*n cells", len(f))
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return nil, fmt.Errorf("DPN board size %q is not a number", f[0])
	}
	if n < MinN || n > MaxN {
		return nil, fmt.Errorf("DPN board size %d out of range [%d, %d]", n, MinN, MaxN)
	}
	m, err := strconv.Atoi(f[1])
	if err != nil {
		return nil, fmt.Errorf("DPN win length %q is not a number", f[1])
	}
	if m < 2 || m > n {
		return nil, fmt.Errorf("DPN win length %d out of range [2, %d]", m, n)
	}
	b := &Board{n: n, m: m, roll: NoRoll, winner: noWinner}
	switch f[2] {
	case "b":
		b.stm = Blue
	case "r":
		b.stm = Red
	default:
		return nil, fmt.Errorf("DPN side to move %q is not b or r", f[2])
	}
	roll, err := strconv.Atoi(f[3])
	if err != nil {
		return nil, fmt.Errorf("DPN roll %q is not a number", f[3])
	}
	if roll < NoRoll || roll >= n {
		return nil, fmt.Errorf("DPN roll %d out of range [-1, %d]", roll, n-1)
	}
	cells := f[4:]
	if len(cells) != n*n {
		return nil, fmt.Errorf("DPN has %d cells, want %d for a %dx%d board", len(cells), n*n, n, n)
	}
	var count [2]int
	for i, c := range cells {
		switch c {
		case "-":
		case "b":
			b.cells[i] = BlueCell
			count[Blue]++
		case "r":
			b.cells[i] = RedCell
			count[Red]++
		default:
			return nil, fmt.Errorf("DPN cell %d (%s) is %q, want -, b or r", i+1, FormatMove(i, n), c)
		}
	}
	want := 0
	if b.stm == Red {
		want = 1
	}
	if count[Blue]-count[Red] != want {
		return nil, fmt.Errorf("DPN has %d blue and %d red checkers, impossible with %s to move (blue moves first)", count[Blue], count[Red], colorName(b.stm))
	}
	b.roll = int8(roll)
	b.recompute()
	if err := b.checkFinal(); err != nil {
		return nil, err
	}
	if roll != NoRoll && b.LineEmpty(roll) == 0 {
		return nil, fmt.Errorf("DPN roll %d points at a full %s", roll, lineName(b.stm))
	}
	if roll != NoRoll && b.empty == 0 {
		return nil, fmt.Errorf("DPN roll %d on a full board", roll)
	}
	return b, nil
}

// checkFinal checks that a won position is one a game can end in.
func (b *Board) checkFinal() error {
	won := [2]bool{b.streaks[Blue][b.m] > 0, b.streaks[Red][b.m] > 0}
	w := b.stm.Other() // the side that just moved
	switch {
	case won[Blue] && won[Red]:
		return fmt.Errorf("DPN position has %d in a row for both blue and red: impossible in a game", b.m)
	case won[b.stm]:
		return fmt.Errorf("DPN position is won by %s, who is to move: only the side that just moved can have won", colorName(b.stm))
	case !won[w]:
		return nil
	case b.roll != NoRoll:
		return fmt.Errorf("DPN position is won by %s and has a roll: a finished game has none", colorName(w))
	}
	// The winning move was the last one: taking back some checker of the
	// winner must leave no win, or the game would have ended sooner.
	piece := uint8(w) + 1
	for cell := 0; cell < b.n*b.n; cell++ {
		if b.cells[cell] != piece {
			continue
		}
		t := *b
		t.cells[cell] = Empty
		t.recompute()
		if t.streaks[w][b.m] == 0 {
			return nil
		}
	}
	return fmt.Errorf("DPN position is won by %s with more than one move could make: the game would have ended sooner", colorName(w))
}

// DPN returns the position in Dice Position Notation; ParseDPN(b.DPN())
// gives back the same position.
func (b *Board) DPN() string {
	var sb strings.Builder
	sb.Grow(16 + 2*b.n*b.n)
	fmt.Fprintf(&sb, "%d %d %s %d", b.n, b.m, b.stm, b.roll)
	for i := 0; i < b.n*b.n; i++ {
		sb.WriteByte(' ')
		sb.WriteByte("-br"[b.cells[i]])
	}
	return sb.String()
}

// String returns the DPN of the position.
func (b *Board) String() string { return b.DPN() }

// FormatMove returns cell in move notation on an n x n board: column letter
// then row number, "d3" is column d, row 3, where row 1 is the first DPN row.
func FormatMove(cell, n int) string {
	return string(rune('a'+cell%n)) + strconv.Itoa(cell/n+1)
}

// ParseMove parses move notation ("d3") on an n x n board into a cell index.
func ParseMove(s string, n int) (int, error) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' {
		return 0, fmt.Errorf("move %q is not a column letter followed by a row number", s)
	}
	col := int(s[0] - 'a')
	row, err := strconv.Atoi(s[1:])
	if err != nil || s[1] == '+' || s[1] == '-' {
		return 0, fmt.Errorf("move %q is not a column letter followed by a row number", s)
	}
	if col >= n || row < 1 || row > n {
		return 0, fmt.Errorf("move %q is off the %dx%d board", s, n, n)
	}
	return (row-1)*n + col, nil
}

// IsLegal reports whether cell is a legal move in b: the die has been rolled,
// the game is not over, and cell is an empty cell of the rolled line.
func (b *Board) IsLegal(cell int) bool {
	if b.roll == NoRoll || b.Over() || cell < 0 || cell >= b.n*b.n || b.cells[cell] != Empty {
		return false
	}
	return b.line(b.stm, cell) == int(b.roll)
}

// LineLabel returns the name of line k of the side to move in notation:
// the row number for blue ("3"), the column letter for red ("c").
func (b *Board) LineLabel(k int) string {
	if b.stm == Blue {
		return strconv.Itoa(k + 1)
	}
	return string(rune('a' + k))
}

func colorName(c Color) string {
	if c == Blue {
		return "blue"
	}
	return "red"
}

func lineName(c Color) string {
	if c == Blue {
		return "row"
	}
	return "column"
}

// Name returns "blue" or "red".
func (c Color) Name() string { return colorName(c) }
