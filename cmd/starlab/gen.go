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

// genCommand returns the gen command, with its own flag state.
func genCommand() *Command {
	var s selfplay.SampleSettings
	var gf gameFlags
	var out string
	return &Command{
		Name:      "gen",
		UsageLine: "gen [-game G] [-variant V | -n N -m M] [-count C] [-min K] [-max K] [-seed S] [-o FILE]",
		Short:     "make a test suite of positions sampled from self-play games",
		Long: `Gen plays self-play games of -game (default dice) from the start of its
-variant (for Dice, -n and -m give the variant "<n>x<n>-<m>": the empty
board), with dice from the seed, between players that search each move to
-depth (staretc, the game's hand evaluator, pairs for Dice) and play the
move of greatest value, the lowest move (cell) among equal values. It
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
		SetFlags: func(fs *flag.FlagSet, g search.Kit) {
			s = selfplay.DefaultSampleSettings(g)
			gf.set(fs, "Dice's board size (3..17)", "Dice's win length (2..n)")
			fs.IntVar(&s.Count, "count", s.Count, "number of positions (the game's number by default)")
			fs.IntVar(&s.Min, "min", s.Min, "lowest phase (Dice: fewest checkers on the board; the game's by default)")
			fs.IntVar(&s.Max, "max", s.Max, "highest phase (Dice: most checkers on the board; the game's by default)")
			fs.Uint64Var(&s.Seed, "seed", s.Seed, "seed of the games and the sampling")
			fs.Float64Var(&s.Rolled, "rolled", s.Rolled, "fraction of positions after the roll")
			fs.BoolVar(&s.Exact, "exact", false, "append the exact value (endgames only)")
			fs.Int64Var(&s.ExactNodes, "exact-nodes", s.ExactNodes, "with -exact, the most nodes a position's solve may search; a position not solved within them is refused")
			fs.StringVar(&out, "o", "", "output file (default stdout)")
			fs.IntVar(&s.Depth, "depth", s.Depth, "search depth of the self-play players")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 0 {
				return usagef("unexpected arguments %q", strings.Join(args, " "))
			}
			var err error
			if s.Game, s.Variant, err = gf.resolve(env.Flags); err != nil {
				return err
			}
			if out != "" {
				if err := runs.CheckOutFile(out); err != nil {
					return fmt.Errorf("-o %w", err)
				}
			}
			bar := newProgress(env.Stderr, "positions", false)
			lines, err := selfplay.SampleSuite(ctx, s, bar.update)
			bar.done()
			if err != nil {
				return err
			}
			text := strings.Join(lines, "\n") + "\n"
			if out == "" {
				_, err := io.WriteString(env.Stdout, text)
				return err
			}
			return runs.WriteBytesAtomic(out, []byte(text))
		},
	}
}
