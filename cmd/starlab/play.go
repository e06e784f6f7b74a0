package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"starlab/search/dice"
	"starlab/selfplay"
)

func init() {
	var (
		n, m       int
		blue, red  string
		seed       uint64
		start      string
		showBoards bool
	)
	register(&Command{
		Name:      "play",
		UsageLine: "play [-n N] [-m M] [-blue P] [-red P] [-seed S] [-start DPN]",
		Short:     "play one game between two simple players and print it",
		Long: `Play plays one game of Dice between two simple players and prints the
rolls and moves in notation and the result. A player is "random" (a uniform
legal move) or "greedy" (wins at once if it can, otherwise raises its pair
count minus the opponent's the most). The dice and the players' choices come
from the seed, so the same seed gives the same game.`,
		SetFlags: func(fs *flag.FlagSet) {
			fs.IntVar(&n, "n", 5, "board size (3..17)")
			fs.IntVar(&m, "m", 4, "win length (2..n)")
			fs.StringVar(&blue, "blue", "greedy", "blue player: random or greedy")
			fs.StringVar(&red, "red", "random", "red player: random or greedy")
			fs.Uint64Var(&seed, "seed", 1, "seed of the dice and the players")
			fs.StringVar(&start, "start", "", "start position in DPN, before the roll (default: the empty board)")
			fs.BoolVar(&showBoards, "board", false, "print the final board")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 0 {
				return usagef("unexpected arguments %q", strings.Join(args, " "))
			}
			var b *dice.Board
			var err error
			if start != "" {
				var sized []string
				env.Flags.Visit(func(f *flag.Flag) {
					if f.Name == "n" || f.Name == "m" {
						sized = append(sized, "-"+f.Name)
					}
				})
				if len(sized) > 0 {
					return usagef("-start gives the board and win length; %s cannot change them", strings.Join(sized, " and "))
				}
				if b, err = dice.ParseDPN(start); err != nil {
					return usagef("-start: %v", err)
				}
				if b.Roll() != dice.NoRoll {
					return usagef("-start: a position before the roll (roll -1), not one with line %d rolled", b.Roll())
				}
			} else if b, err = dice.New(n, m); err != nil {
				return usagef("-n %d -m %d: %v", n, m, err)
			}
			var players [2]selfplay.Player
			for i, name := range []string{blue, red} {
				switch name {
				case "random":
					players[i] = selfplay.NewRandom(seed + uint64(i))
				case "greedy":
					players[i] = selfplay.NewGreedy(seed + uint64(i))
				default:
					return usagef("-%s player %q is not random or greedy", dice.Color(i).Name(), name)
				}
			}
			g, err := selfplay.Play(ctx, b, players, selfplay.NewDiceStream(seed), nil)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "start  %s\nblue   %s\nred    %s\nseed   %d\n\n", g.Start, players[0].Name(), players[1].Name(), seed)
			w, err := g.Replay(func(i int, w *dice.Board) bool {
				line := "row"
				if w.SideToMove() == dice.Red {
					line = "col"
				}
				fmt.Fprintf(env.Stdout, "%3d. %s rolls %s %-2s plays %s\n", i+1, w.SideToMove(), line, w.LineLabel(w.Roll()), dice.FormatMove(int(g.Cells[i]), w.N()))
				return true
			})
			if err != nil {
				return err
			}
			switch g.Result {
			case 1:
				fmt.Fprintf(env.Stdout, "\nresult 1-0: blue (%s) wins in %d plies\n", players[0].Name(), g.Plies)
			case -1:
				fmt.Fprintf(env.Stdout, "\nresult 0-1: red (%s) wins in %d plies\n", players[1].Name(), g.Plies)
			default:
				fmt.Fprintf(env.Stdout, "\nresult 1/2-1/2: drawn in %d plies\n", g.Plies)
			}
			if showBoards {
				fmt.Fprintln(env.Stdout)
				printBoard(env.Stdout, &w)
			}
			return nil
		},
	})
}
