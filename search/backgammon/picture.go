package backgammon

import (
	"fmt"
	"strings"
)

// Picture draws the board as gnubg's text board does (DrawBoard in its
// drawboard.c), from the view of the side on roll, whose points 1 to 12
// run along the bottom from right to left and 13 to 24 along the top from
// left to right: five checkers a point at most, the fifth place showing
// the count when there are more (6 to 9 as digits, 10 to 15 as the
// letters A to F), the bars in the middle column drawn alike, and beside
// the board each side's pips and checkers borne off, and the roll.
func (b *Board) Picture() string {
	me := int(b.stm)
	mine, theirs := &b.pts[me], &b.pts[1-me]
	letter := [2]byte{SideLetters[me], SideLetters[1-me]}
	// cell returns what stands on my point p in row r (0 nearest the
	// edge), ' ' for nothing.
	cell := func(p, r int) string {
		if theirs[Bar-p] > 0 {
			return stack(theirs[Bar-p], letter[1], r)
		}
		return stack(mine[p], letter[0], r)
	}
	var sb strings.Builder
	top := func(from int, r int) string {
		var s strings.Builder
		for p := from; p < from+6; p++ {
			s.WriteString(" " + cell(p, r) + " ")
		}
		return s.String()
	}
	bottom := func(from int, r int) string {
		var s strings.Builder
		for p := from; p > from-6; p-- {
			s.WriteString(" " + cell(p, r) + " ")
		}
		return s.String()
	}
	bar := func(n int8, c byte, r int) string { return " " + stack(n, c, r) + " " }
	pips := [2]int{b.Pips(me), b.Pips(1 - me)}
	info := func(s int) string {
		return fmt.Sprintf("%c: pips %d, off %d", letter[s], pips[s], [2]*Points{mine, theirs}[s][Off])
	}
	sb.WriteString(" +13-14-15-16-17-18------19-20-21-22-23-24-+\n")
	for r := 0; r < 5; r++ {
		fmt.Fprintf(&sb, " |%s|%s|%s|", top(13, r), bar(theirs[Bar], letter[1], r), top(19, r))
		if r == 0 {
			sb.WriteString("     " + info(1))
		}
		sb.WriteString("\n")
	}
	roll := "before the roll"
	if b.d1 != 0 {
		roll = fmt.Sprintf("rolled %d%d", b.d1, b.d2)
	}
	fmt.Fprintf(&sb, "v|                  |BAR|                  |     %c on roll, %s\n", letter[0], roll)
	for r := 4; r >= 0; r-- {
		fmt.Fprintf(&sb, " |%s|%s|%s|", bottom(12, r), bar(mine[Bar], letter[0], r), bottom(6, r))
		if r == 0 {
			sb.WriteString("     " + info(0))
		}
		sb.WriteString("\n")
	}
	sb.WriteString(" +12-11-10--9--8--7-------6--5--4--3--2--1-+\n")
	return sb.String()
}

// stack returns row r (0 nearest the edge) of a stack of n checkers of
// letter c as gnubg draws it: the letter in the rows the checkers fill,
// up to five, the fifth showing a count above five as gnubg's
// "6789ABCDEF" does, and ' ' above.
func stack(n int8, c byte, r int) string {
	switch {
	case r == 4 && n > 5:
		return string("0123456789ABCDEF"[n])
	case r < int(n):
		return string(c)
	}
	return " "
}
