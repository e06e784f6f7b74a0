package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"starlab/search"
	"starlab/search/dice"
	"starlab/search/game"
	"starlab/selfplay"
)

// playCommand returns the play command, with its own flag state.
func playCommand() *Command {
	var (
		gf         gameFlags
		blue, red  string
		seed       uint64
		start      string
		showBoards bool
	)
	return &Command{
		Name:      "play",
		UsageLine: "play [-game G] [-variant V | -n N -m M] [-blue P] [-red P] [-seed S] [-start POS]",
		Short:     "play one game between two simple players and print it",
		Long: `Play plays one game of -game (default dice) between two simple players and
prints the chance events and moves in notation and the result. Blue is the
player who moves first (side 0), red the other. A player is "random" (a
uniform legal move) or "greedy" (wins at once if it can, otherwise plays the
move the game's hand evaluator values most: in Dice, its pair count minus
the opponent's). The game starts from its -variant's start (for Dice, -n and
-m give the variant "<n>x<n>-<m>": the empty board), or from -start, a
position in the game's notation (a Dice position before the roll). The dice
and the players' choices come from the seed, so the same seed gives the
same game.`,
		SetFlags: func(fs *flag.FlagSet) {
			gf.set(fs, "Dice's board size (3..17)", "Dice's win length (2..n)")
			fs.StringVar(&blue, "blue", "greedy", "blue player (moves first): random or greedy")
			fs.StringVar(&red, "red", "random", "red player: random or greedy")
			fs.Uint64Var(&seed, "seed", 1, "seed of the dice and the players")
			fs.StringVar(&start, "start", "", "start position in the game's notation (default: the variant's start)")
			fs.BoolVar(&showBoards, "board", false, "print the final position")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 0 {
				return usagef("unexpected arguments %q", strings.Join(args, " "))
			}
			g, variant, err := gf.resolve(env.Flags)
			if err != nil {
				return err
			}
			var st game.State
			if start != "" {
				var sized []string
				env.Flags.Visit(func(f *flag.Flag) {
					if f.Name == "n" || f.Name == "m" || f.Name == "variant" {
						sized = append(sized, "-"+f.Name)
					}
				})
				if len(sized) > 0 {
					return usagef("-start gives the board and its variant; %s cannot change them", strings.Join(sized, " and "))
				}
				if st, err = g.Parse(start); err != nil {
					return usagef("-start: %v", err)
				}
				if err := search.Finished(g, st); err != nil {
					return usagef("-start: %v", err)
				}
				if b, ok := st.(*dice.Board); ok && b.Roll() != dice.NoRoll {
					return usagef("-start: a position before the roll (roll -1), not one with line %d rolled", b.Roll())
				}
			} else {
				if variant == "" {
					variant = g.DefaultVariant()
				}
				if st, err = g.New(variant); err != nil {
					return usagef("-variant: %v", err)
				}
			}
			var players [2]selfplay.Player
			for i, name := range []string{blue, red} {
				switch name {
				case "random":
					players[i] = selfplay.NewRandom(seed + uint64(i))
				case "greedy":
					players[i] = selfplay.NewGreedy(g, seed+uint64(i))
				default:
					return usagef("-%s player %q is not random or greedy", []string{"blue", "red"}[i], name)
				}
			}
			rec, err := selfplay.Play(ctx, g, st, players, selfplay.NewChanceStream(seed), nil)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "start  %s\nblue   %s\nred    %s\nseed   %d\n\n", rec.Start, players[0].Name(), players[1].Name(), seed)
			var events []string // since the last move
			var evs []game.Event
			moves := 0
			end, err := rec.Replay(g, func(i int, s game.State) bool {
				a := rec.Actions[i]
				if s.Kind() == game.Chance {
					evs, _ = s.Outcomes(evs)
					for _, e := range evs {
						if e.ID == uint16(a) {
							events = append(events, g.FormatEvent(s, e))
						}
					}
					return true
				}
				moves++
				line := fmt.Sprintf("%3d. %s:", moves, []string{"blue", "red"}[s.Mover()])
				if len(events) > 0 {
					line += " " + strings.Join(events, ", ") + ","
				}
				fmt.Fprintf(env.Stdout, "%s plays %s\n", line, g.FormatMove(s, game.Move(a)))
				events = events[:0]
				return true
			})
			if err != nil {
				return err
			}
			if len(events) > 0 {
				fmt.Fprintf(env.Stdout, "     %s\n", strings.Join(events, ", "))
			}
			switch rec.Result {
			case 1:
				fmt.Fprintf(env.Stdout, "\nresult 1-0: blue (%s) wins in %d plies\n", players[0].Name(), rec.Plies)
			case -1:
				fmt.Fprintf(env.Stdout, "\nresult 0-1: red (%s) wins in %d plies\n", players[1].Name(), rec.Plies)
			default:
				fmt.Fprintf(env.Stdout, "\nresult 1/2-1/2: drawn in %d plies\n", rec.Plies)
			}
			if showBoards {
				fmt.Fprintln(env.Stdout)
				if b, ok := end.(*dice.Board); ok {
					printBoard(env.Stdout, b)
				} else {
					fmt.Fprintln(env.Stdout, end)
				}
			}
			return nil
		},
	}
}
