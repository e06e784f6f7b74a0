package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"starlab/search"
	"starlab/search/game"
	"starlab/selfplay"
)

// playFlags are the play command's flag values, which its setFlags resets
// before every run.
type playFlags struct {
	gf         gameFlags
	players    [2]string // -first and -second
	aliases    [2]string // -blue and -red, Dice's names for them
	seed       uint64
	start      string
	showBoards bool
}

// playCommand returns the play command, with its own flag state.
func playCommand() *Command {
	return command(&playFlags{}, &Command{
		UsageLine: "play [-game G] [-variant V | -n N -m M] [-first P] [-second P] [-seed S] [-start POS]",
		Short:     "play one game between two simple players and print it",
		Long: `Play plays one game of -game (default dice) between two simple players and
prints the chance events and moves in notation and the result. -first
plays the side that moves first (side 0: blue in Dice, white in
ChanceBreakthrough), -second the other; -blue and -red are Dice's names for
them. The sides are named in the game's words. A player is "random" (a
uniform legal move) or "greedy" (wins at once if it can, otherwise plays the
move the game's hand evaluator values most: in Dice, its pair count minus
the opponent's). The game starts from its -variant's start (for Dice, -n and
-m give the variant "<n>x<n>-<m>": the empty board), or from -start, a
position in the game's notation that is not over (in a game whose start is
a chance node, such as Dice's roll, one before the roll). The dice
and the players' choices come from the seed, so the same seed gives the
same game.`,
	})
}

// setFlags resets the players and declares the play command's flags on fs.
func (f *playFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.gf.set(fs, "Dice's board size (3..17)", "Dice's win length (2..n)")
	f.players, f.aliases = [2]string{"greedy", "random"}, [2]string{}
	fs.StringVar(&f.players[0], "first", f.players[0], "player of the side that moves first: random or greedy")
	fs.StringVar(&f.players[1], "second", f.players[1], "player of the other side: random or greedy")
	fs.StringVar(&f.aliases[0], "blue", "", "Dice's name for -first")
	fs.StringVar(&f.aliases[1], "red", "", "Dice's name for -second")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the dice and the players")
	fs.StringVar(&f.start, "start", "", "start position in the game's notation (default: the variant's start)")
	fs.BoolVar(&f.showBoards, "board", false, "print the final position")
}

// run is the play command: one game between two simple players from the
// start, printed move by move, with its result.
func (f *playFlags) run(ctx context.Context, env *Env, args []string) error {
	if err := noArgs(args); err != nil {
		return err
	}
	g, variant, err := f.gf.resolve(env.Flags)
	if err != nil {
		return err
	}
	side := [2]string{g.SideName(0), g.SideName(1)}
	flags, diceFlags := [2]string{"first", "second"}, [2]string{"blue", "red"}
	for i, alias := range f.aliases {
		switch {
		case alias == "":
			continue
		case flagGiven(env.Flags, flags[i]):
			return usagef("-%s and -%s name one player: give one", flags[i], diceFlags[i])
		case side[i] != diceFlags[i]:
			return usagef("-%s is Dice's name for -%s; %s's sides are %s and %s", diceFlags[i], flags[i], g.Name(), side[0], side[1])
		}
		f.players[i] = alias
	}
	st, err := playStart(env, g, variant, f.start)
	if err != nil {
		return err
	}
	var ps [2]selfplay.Player
	for i, name := range f.players {
		switch name {
		case "random":
			ps[i] = selfplay.NewRandom(f.seed + uint64(i))
		case "greedy":
			ps[i] = selfplay.NewGreedy(g, f.seed+uint64(i))
		default:
			return usagef("-%s player %q is not random or greedy", flags[i], name)
		}
	}
	rec, err := selfplay.Play(ctx, g, st, ps, selfplay.NewChanceStream(f.seed), nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%-6s %s\n%-6s %s\n%-6s %s\n%-6s %d\n\n", "start", rec.Start, side[0], ps[0].Name(), side[1], ps[1].Name(), "seed", f.seed)
	return printGame(env, g, &rec, side, ps, f.showBoards)
}

// playStart returns the position the game starts from: -start, a position
// that is not over and, where the game starts at a chance node, before the
// roll, with no flag that sets the board; or else the variant's start.
func playStart(env *Env, g search.Kit, variant, start string) (game.State, error) {
	var st game.State
	var err error
	if start != "" {
		var sized []string
		env.Flags.Visit(func(f *flag.Flag) {
			if f.Name == "n" || f.Name == "m" || f.Name == "variant" {
				sized = append(sized, "-"+f.Name)
			}
		})
		if len(sized) > 0 {
			return nil, usagef("-start gives the board and its variant; %s cannot change them", strings.Join(sized, " and "))
		}
		if st, err = g.Parse(start); err != nil {
			return nil, usagef("-start: %v", err)
		}
		if err := search.Finished(g, st); err != nil {
			return nil, usagef("-start: %v", err)
		}
		first, err := g.New(g.Variant(st))
		if err != nil {
			return nil, usagef("-start: %v", err)
		}
		if first.Kind() == game.Chance && st.Kind() != game.Chance {
			return nil, usagef("-start %q: a position before the roll, as the game's start is, not one with the roll made", start)
		}
	} else {
		if variant == "" {
			variant = g.DefaultVariant()
		}
		if st, err = g.New(variant); err != nil {
			return nil, usagef("-variant: %v", err)
		}
	}
	return st, nil
}

// printGame prints game rec move by move in the game's notation, the
// chance events before each move, then its result, and with showBoards
// its last position; side names the sides, ps the players.
func printGame(env *Env, g search.Kit, rec *selfplay.Record, side [2]string, ps [2]selfplay.Player, showBoards bool) error {
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
		line := fmt.Sprintf("%3d. %s:", moves, side[s.Mover()])
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
	// A game played for points (backgammon's money) says how many.
	worth := ""
	if rec.Points > 0 {
		worth = fmt.Sprintf(" %d point", rec.Points)
		if rec.Points > 1 {
			worth += "s"
		}
	}
	switch rec.Result {
	case 1:
		fmt.Fprintf(env.Stdout, "\nresult 1-0: %s (%s) wins%s in %d plies\n", side[0], ps[0].Name(), worth, rec.Plies)
	case -1:
		fmt.Fprintf(env.Stdout, "\nresult 0-1: %s (%s) wins%s in %d plies\n", side[1], ps[1].Name(), worth, rec.Plies)
	default:
		fmt.Fprintf(env.Stdout, "\nresult 1/2-1/2: drawn in %d plies\n", rec.Plies)
	}
	if showBoards {
		fmt.Fprintln(env.Stdout)
		switch b := end.(type) {
		case game.Describer:
			fmt.Fprint(env.Stdout, b.Describe())
		case game.Picturer:
			fmt.Fprintf(env.Stdout, "%s\n%s", end, b.Picture())
		default:
			fmt.Fprintln(env.Stdout, end)
		}
	}
	return nil
}
