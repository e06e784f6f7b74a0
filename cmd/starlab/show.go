package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"starlab/runs"
	"starlab/search"
	"starlab/search/dice"
	"starlab/search/game"
)

// showCommand returns the show command, with its own flag state.
func showCommand() *Command {
	var name string
	return &Command{
		Name:      "show",
		UsageLine: "show [-game G] POSITION",
		Short:     "print a position as a board with its chance events or moves",
		SetFlags:  func(fs *flag.FlagSet) { gameFlag(fs, &name) },
		Long: `Show parses a position in Dice Position Notation and prints it as a board
with coordinates, the side to move, the roll, the legal chance events (before
the roll) or moves (after it), the streak and pair counts of both sides, and
whether the game is over.

DPN is "<n> <m> <stm> <roll> <n*n cells>": board size, win length, side to
move (b or r), roll (-1 = the die must be rolled, k >= 0 = line k was rolled,
0-based), and the cells row by row, each -, b or r. The DPN may be given as
one quoted argument or as separate arguments.

With -game another game's position is shown in its notation, drawn as a
board, with its legal moves (or, at a chance node, its events and their
weights); a finished game (ChanceBreakthrough: a side on its far row, or a
side without a piece) is refused in one line that says why and gives the
result, exit 2, as a running position that cannot arise in play is. For
breakthrough the notation is "W H S ROWS", such as
"8 8 w bbbbbbbb/bbbbbbbb/......../......../......../......../wwwwwwww/wwwwwwww".`,
		Run: func(_ context.Context, env *Env, args []string) error {
			if len(args) == 0 {
				return usagef("missing position")
			}
			g, err := lookupGame(name)
			if err != nil {
				return err
			}
			text := strings.Join(args, " ")
			if g.Name() == "dice" {
				b, err := dice.ParseDPN(text)
				if err != nil {
					return runs.Usage(err)
				}
				printBoard(env.Stdout, b)
				return nil
			}
			s, err := g.Parse(text)
			if err != nil {
				return runs.Usage(err)
			}
			// A finished game has no moves or events to show: the one
			// line says so, why, and its result.
			if err := search.Finished(g, s); err != nil {
				return runs.Usage(err)
			}
			showState(env.Stdout, g.Game, s)
			return nil
		},
	}
}

// showState writes a position of any game: its notation, its picture
// where the position draws one, and its moves, events or result.
func showState(w io.Writer, g game.Game, s game.State) {
	fmt.Fprintf(w, "%s %s (variant %s)\n", g.Name(), s, g.Variant(s))
	if p, ok := s.(interface{ Picture() string }); ok {
		fmt.Fprint(w, p.Picture())
	}
	side := search.SideName(g, s.Mover())
	switch s.Kind() {
	case game.Over:
		fmt.Fprintf(w, "game over: %+g for %s, the side to move\n", s.Result(), side)
	case game.Chance:
		events, total := s.Outcomes(nil)
		fmt.Fprintf(w, "chance node (%s moves after the event): %d events, total weight %d\n", side, len(events), total)
		for _, e := range events {
			fmt.Fprintf(w, "  %-14s %d/%d\n", g.FormatEvent(s, e), e.Weight, total)
		}
	default:
		// Moves that lead to a chance node (a roll) are listed apart.
		var plain, chance []string
		for _, m := range s.Legal(nil) {
			c := s.Clone()
			c.Play(m)
			if c.Kind() == game.Chance {
				chance = append(chance, g.FormatMove(s, m))
			} else {
				plain = append(plain, g.FormatMove(s, m))
			}
		}
		fmt.Fprintf(w, "%s to move: %d moves: %s\n", side, len(plain), strings.Join(plain, " "))
		if len(chance) > 0 {
			fmt.Fprintf(w, "and %d leading to chance: %s\n", len(chance), strings.Join(chance, " "))
		}
	}
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
