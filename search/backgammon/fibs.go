package backgammon

import (
	"fmt"
	"strconv"
	"strings"

	"starlab/search/game"
)

// FIBSBoard returns the decision b as a FIBS "board:" line in the layout
// gnubg's external socket reads (gnubg's FIBSBoard(), the FIBS rawboard
// help page): 2 names and 50 whole numbers, from the view of the side to
// move, which is "You", plays 24→1 with colour 1 and direction −1, and is
// to move (turn 1) with the roll in its dice fields, or 0 0 before the
// roll (a position to evaluate, not to move in). The match length is 1
// for 1pt and 9999 (FIBS's unlimited, which gnubg reads as money) for
// money; the score is 0-0 and the cube centred at 1, which either side may
// turn. Every field is checked before the line is returned, because gnubg
// answers any line, even one whose fields are short (keeping the rest from
// the request before) or whose side has 16 checkers.
func FIBSBoard(s game.State) (string, error) {
	b, ok := s.(*Board)
	switch {
	case !ok:
		return "", fmt.Errorf("a FIBS board is a backgammon position, not %T", s)
	case b.Kind() == game.Over:
		return "", fmt.Errorf("position %s: the game is over", b)
	}
	me, op := &b.pts[b.stm], &b.pts[1-b.stm]
	var f [26]int
	f[0] = -int(op[Bar])
	for p := 1; p <= 24; p++ {
		m, o := int(me[p]), int(op[Bar-p])
		if m > 0 && o > 0 {
			return "", fmt.Errorf("position %s: point %d holds checkers of both sides", b, p)
		}
		f[p] = m - o
	}
	f[25] = int(me[Bar])
	length := 1
	if b.variant == Money {
		length = 9999
	}
	d1, d2 := int(b.d1), int(b.d2)
	fields := []int{length, 0, 0}
	fields = append(fields, f[:]...)
	fields = append(fields,
		1, d1, d2, 0, 0, // turn (You), your dice, the opponent's
		1, 1, 1, 0, // cube, you may double, the opponent may double, was doubled
		1, -1, 0, 25, // colour, direction, home, bar
		int(me[Off]), int(op[Off]), 0, 0, 0, 0, 0, 1) // borne off; on bar, can move, forced, post-Crawford, not Crawford
	// The checks gnubg does not make.
	count := func(p *Points) (n int) {
		for _, c := range p {
			n += int(c)
		}
		return n
	}
	switch {
	case len(fields) != 50:
		return "", fmt.Errorf("position %s: %d numbers in the FIBS board, want 50", b, len(fields))
	case count(me) != Checkers || count(op) != Checkers:
		return "", fmt.Errorf("position %s: %d and %d checkers, want %d each", b, count(me), count(op), Checkers)
	case !(d1 == 0 && d2 == 0) && (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6):
		return "", fmt.Errorf("position %s: dice %d%d", b, d1, d2)
	}
	var sb strings.Builder
	sb.WriteString("board:You:Opp")
	for _, x := range fields {
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(x))
	}
	return sb.String(), nil
}
