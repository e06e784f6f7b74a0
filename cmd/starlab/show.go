package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"starlab/runs"
	"starlab/search/dice"
)

// showCommand returns the show command, with its own flag state.
func showCommand() *Command {
	return &Command{
		Name:      "show",
		UsageLine: "show DPN",
		Short:     "print a position as a board with its rolls, moves and streaks",
		Long: `Show parses a position in Dice Position Notation and prints it as a board
with coordinates, the side to move, the roll, the legal chance events (before
the roll) or moves (after it), the streak and pair counts of both sides, and
whether the game is over.

DPN is "<n> <m> <stm> <roll> <n*n cells>": board size, win length, side to
move (b or r), roll (-1 = the die must be rolled, k >= 0 = line k was rolled,
0-based), and the cells row by row, each -, b or r. The DPN may be given as
one quoted argument or as separate arguments.`,
		Run: runShow,
	}
}

func runShow(_ context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		return usagef("missing DPN")
	}
	b, err := dice.ParseDPN(strings.Join(args, " "))
	if err != nil {
		return runs.Usage(err)
	}
	printBoard(env.Stdout, b)
	return nil
}

// printBoard writes b as a board with coordinates and its state.
func printBoard(w io.Writer, b *dice.Board) {
	n := b.N()
	fmt.Fprint(w, "    ")
	for c := 0; c < n; c++ {
		fmt.Fprintf(w, " %c", 'a'+c)
	}
	fmt.Fprintln(w)
	stm := b.SideToMove()
	for r := 0; r < n; r++ {
		mark := "  "
		if b.Roll() == r && stm == dice.Blue {
			mark = " >"
		}
		fmt.Fprintf(w, "%3d%s", r+1, mark[1:])
		for c := 0; c < n; c++ {
			fmt.Fprintf(w, " %c", ".br"[b.At(r*n+c)])
		}
		fmt.Fprintln(w)
	}
	if stm == dice.Red && b.Roll() != dice.NoRoll {
		fmt.Fprintf(w, "    %s^\n", strings.Repeat("  ", b.Roll()+1)[1:])
	}
	fmt.Fprintf(w, "\n%dx%d board, %d in a row wins; %d checkers\n", n, n, b.M(), b.Checkers())
	fmt.Fprintf(w, "DPN: %s\n", b.DPN())
	lineWord := "row"
	if stm == dice.Red {
		lineWord = "column"
	}
	switch {
	case b.Over():
		if wc, ok := b.Winner(); ok {
			fmt.Fprintf(w, "Game over: %s has won\n", wc.Name())
		} else {
			fmt.Fprintln(w, "Game over: drawn (full board)")
		}
	case b.Roll() == dice.NoRoll:
		var lines [dice.MaxN]int8
		k := b.Rolls(&lines)
		labels := make([]string, k)
		for i := 0; i < k; i++ {
			labels[i] = b.LineLabel(int(lines[i]))
		}
		fmt.Fprintf(w, "To move: %s (%s player), die not rolled\n", stm.Name(), lineWord)
		fmt.Fprintf(w, "Chance events: %d, each 1/%d: %s %s\n", k, k, lineWord, strings.Join(labels, " "))
	default:
		var moves [dice.MaxN]int16
		k := b.Moves(&moves)
		names := make([]string, k)
		for i := 0; i < k; i++ {
			names[i] = dice.FormatMove(int(moves[i]), n)
		}
		fmt.Fprintf(w, "To move: %s (%s player), rolled %s %s\n", stm.Name(), lineWord, lineWord, b.LineLabel(b.Roll()))
		fmt.Fprintf(w, "Moves: %s\n", strings.Join(names, " "))
	}
	for _, c := range []dice.Color{dice.Blue, dice.Red} {
		var parts []string
		for k := 2; k < b.M(); k++ {
			parts = append(parts, fmt.Sprintf("%d:%d", k, b.Streaks(c, k)))
		}
		fmt.Fprintf(w, "%-5s streaks (length:count) %s; pairs %d\n", c.Name(), strings.Join(parts, " "), b.Pairs(c))
	}
}
