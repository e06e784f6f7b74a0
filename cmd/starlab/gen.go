package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"starlab/runs"
	"starlab/search"
	"starlab/selfplay"
)

// genFlags are the gen command's settings and flag values, which its
// setFlags resets before every run.
type genFlags struct {
	set selfplay.SampleSettings
	gf  gameFlags
	out string // -o
}

// genCommand returns the gen command, with its own flag state.
func genCommand() *Command {
	return command(&genFlags{}, &Command{
		UsageLine: "gen [-game G] [-variant V | -n N -m M] [-count C] [-min K] [-max K] [-seed S] [-player SPEC] [-o FILE]",
		Short:     "make a test suite of positions sampled from self-play games",
		Long: `Gen plays self-play games of -game (default dice) from the start of its
-variant (for Dice, -n and -m give the variant "<n>x<n>-<m>": the empty
board), with dice from the seed, between players that search each move to
-depth (staretc, the game's hand evaluator, pairs for Dice) and play the
move of greatest value, the lowest move (cell) among equal values; -player
SPEC plays them by another engine (its depth= in place of -depth), such as
a trained net's, whose own games reach other positions. It
samples one position from each game among its moves whose phase (Dice: the
number of checkers) lies in [-min, -max], before the roll or, with
probability -rolled, after it; a position already drawn is skipped. It
writes one position per line in the game's notation (DPN for Dice), to
stdout or atomically to -o FILE. With -exact it solves each position to
the end of the game with the zero evaluator and appends "; exact=V", the
game-theoretic value: use it only for endgames. A solve's cost grows with
the plies left to the end of the game, so each is bounded by -exact-nodes
nodes (10^8 by default, a minute or less): a position it cannot solve
within them (a midgame) is refused, naming it, and nothing is written.

The same flags and seed give the same suite, and since the players' choices
depend only on search values, later, faster builds give it too.`,
	})
}

// setFlags resets the settings to the game g's defaults and declares the
// gen command's flags on fs.
func (f *genFlags) setFlags(fs *flag.FlagSet, g search.Kit) {
	f.set = selfplay.DefaultSampleSettings(g)
	f.gf.set(fs, "Dice's board size (3..17)", "Dice's win length (2..n)")
	fs.IntVar(&f.set.Count, "count", f.set.Count, "number of positions (the game's number by default)")
	fs.IntVar(&f.set.Min, "min", f.set.Min, "lowest phase (Dice: fewest checkers on the board; the game's by default)")
	fs.IntVar(&f.set.Max, "max", f.set.Max, "highest phase (Dice: most checkers on the board; the game's by default)")
	fs.Uint64Var(&f.set.Seed, "seed", f.set.Seed, "seed of the games and the sampling")
	fs.Float64Var(&f.set.Rolled, "rolled", f.set.Rolled, "fraction of positions after the roll")
	fs.BoolVar(&f.set.Exact, "exact", false, "append the exact value (endgames only)")
	fs.Int64Var(&f.set.ExactNodes, "exact-nodes", f.set.ExactNodes, "with -exact, the most nodes a position's solve may search; a position not solved within them is refused")
	fs.StringVar(&f.out, "o", "", "output file (default stdout)")
	fs.IntVar(&f.set.Depth, "depth", f.set.Depth, "search depth of the self-play players")
	fs.StringVar(&f.set.Player, "player", "", "engine spec of the self-play players, with a depth, in place of staretc with the hand evaluator to -depth (such as staretc:depth=1,net=NET: the positions a net's own games reach)")
}

// run is the gen command: the suite sampled from self-play, written to
// stdout or -o.
func (f *genFlags) run(ctx context.Context, env *Env, args []string) error {
	if err := noArgs(args); err != nil {
		return err
	}
	var err error
	if f.set.Kit, f.set.Variant, err = f.gf.resolve(env.Flags); err != nil {
		return err
	}
	if f.out != "" {
		if err := runs.CheckOutFile(f.out); err != nil {
			return fmt.Errorf("-o %w", err)
		}
	}
	bar := newProgress(env.Stderr, "positions", false)
	lines, err := selfplay.SampleSuite(ctx, f.set, bar.update)
	bar.done()
	if err != nil {
		return err
	}
	text := strings.Join(lines, "\n") + "\n"
	if f.out == "" {
		_, err := io.WriteString(env.Stdout, text)
		return err
	}
	return runs.WriteBytesAtomic(f.out, []byte(text))
}
