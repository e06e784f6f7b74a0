package dice

import (
	"fmt"
	"strings"
)

// Describe returns the board with coordinates and its state, what starlab
// show prints of a Dice position (game.Describer): the roll marked beside
// its row or under its column, the checkers, the DPN, the side to move
// and its events or moves, or the result, and each side's streaks and
// pairs.
func (b *Board) Describe() string {
	var sb strings.Builder
	w := &sb
	n := b.N()
	fmt.Fprint(w, "    ")
	for c := 0; c < n; c++ {
		fmt.Fprintf(w, " %c", 'a'+c)
	}
	fmt.Fprintln(w)
	stm := b.SideToMove()
	for r := 0; r < n; r++ {
		mark := "  "
		if b.Roll() == r && stm == Blue {
			mark = " >"
		}
		fmt.Fprintf(w, "%3d%s", r+1, mark[1:])
		for c := 0; c < n; c++ {
			fmt.Fprintf(w, " %c", ".br"[b.At(r*n+c)])
		}
		fmt.Fprintln(w)
	}
	if stm == Red && b.Roll() != NoRoll {
		fmt.Fprintf(w, "    %s^\n", strings.Repeat("  ", b.Roll()+1)[1:])
	}
	fmt.Fprintf(w, "\n%dx%d board, %d in a row wins; %d checkers\n", n, n, b.M(), b.Checkers())
	fmt.Fprintf(w, "DPN: %s\n", b.DPN())
	lineWord := "row"
	if stm == Red {
		lineWord = "column"
	}
	switch {
	case b.Over():
		if wc, ok := b.Winner(); ok {
			fmt.Fprintf(w, "Game over: %s has won\n", wc.Name())
		} else {
			fmt.Fprintln(w, "Game over: drawn (full board)")
		}
	case b.Roll() == NoRoll:
		var lines [MaxN]int8
		k := b.Rolls(&lines)
		labels := make([]string, k)
		for i := 0; i < k; i++ {
			labels[i] = b.LineLabel(int(lines[i]))
		}
		fmt.Fprintf(w, "To move: %s (%s player), die not rolled\n", stm.Name(), lineWord)
		fmt.Fprintf(w, "Chance events: %d, each 1/%d: %s %s\n", k, k, lineWord, strings.Join(labels, " "))
	default:
		var moves [MaxN]int16
		k := b.Moves(&moves)
		names := make([]string, k)
		for i := 0; i < k; i++ {
			names[i] = FormatMove(int(moves[i]), n)
		}
		fmt.Fprintf(w, "To move: %s (%s player), rolled %s %s\n", stm.Name(), lineWord, lineWord, b.LineLabel(b.Roll()))
		fmt.Fprintf(w, "Moves: %s\n", strings.Join(names, " "))
	}
	for _, c := range []Color{Blue, Red} {
		var parts []string
		for k := 2; k < b.M(); k++ {
			parts = append(parts, fmt.Sprintf("%d:%d", k, b.Streaks(c, k)))
		}
		fmt.Fprintf(w, "%-5s streaks (length:count) %s; pairs %d\n", c.Name(), strings.Join(parts, " "), b.Pairs(c))
	}
	return sb.String()
}
