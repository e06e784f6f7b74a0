package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
)

// collectFlags are the collect command's settings and flag values, which
// its setFlags resets before every run.
type collectFlags struct {
	outputFlags
	set   regression.CollectSettings
	gf    gameFlags
	pairs string
}

// collectCommand returns the collect command, with its own flag state.
func collectCommand() *Command {
	return command(&collectFlags{}, &Command{
		UsageLine: "collect [-game G] [-suite FILE | -variant V | -n N -m M] [-pairs 3:7,5:9] [-engine SPEC] [flags] | collect -resume RUN",
		Short:     "search chance events to shallow and deep depths: the data of a ChanceProbCut fit",
		Long: `Collect takes every position of -suite, in the game's notation (DPN for
Dice), or, without it, -count positions of -game (default dice) in its
-variant (for Dice, -n and -m give the variant "<n>x<n>-<m>", 5x5-4 by
default) with phases -min to -max (Dice: checkers on the board) sampled
from self-play as starlab gen does, from -seed. For each position it takes
a chance node: the position itself if it is one, else the chance node the
game puts in its place (Dice: the position before its roll;
ChanceBreakthrough: the chance node its roll leads to); a finished
position, or one without a chance node, is refused. For each event of the
chance node it searches the position after the event to the shallow and
the deep depth of every -pairs entry with -engine, a sound algorithm, with
a fresh table and a full window (Schadd et al. 2009, section 5.6.2: pairs
(3, 7) and (5, 9) over 1,000 5x5 positions with 5 to 12 checkers).

Rows (one per event and pair: the game, variant, chance node, its phase,
the event with its weight and the node's total weight, the values, nodes
and times) go to Parquet part files under rows/ in the run directory, one
file per -chunk positions, each written whole or not at all: -resume RUN
after a kill searches only the chunks without a file. -shard i/N does only
the chunks whose index is i modulo N. starlab fit reads the run directory.
The suite, the engine's net and parameters are read and checked before
the run directory is made.`,
	})
}

// setFlags resets the settings to the game g's defaults and declares the
// collect command's flags on fs.
func (f *collectFlags) setFlags(fs *flag.FlagSet, g search.Kit) {
	f.set = regression.DefaultCollectSettings(g)
	f.pairs = regression.FormatPairs(f.set.Pairs)
	f.outputFlags.set(fs, newRunUsage, resumeUsage, "print the result as JSON")
	fs.StringVar(&f.set.Suite, "suite", "", "positions, one per line in the game's notation (default: sample them)")
	f.gf.set(fs, "Dice's board size of sampled positions (-variant NxN-M)", "Dice's win length of sampled positions (-variant NxN-M)")
	fs.IntVar(&f.set.Count, "count", f.set.Count, "positions to sample (the game's number by default)")
	fs.IntVar(&f.set.Min, "min", f.set.Min, "lowest phase of a sampled position (Dice: fewest checkers; the game's by default)")
	fs.IntVar(&f.set.Max, "max", f.set.Max, "highest phase of a sampled position (Dice: most checkers; the game's by default)")
	fs.Uint64Var(&f.set.Seed, "seed", f.set.Seed, "seed of the sampled positions")
	fs.StringVar(&f.pairs, "pairs", f.pairs, "depth pairs shallow:deep, comma-separated (the game's by default)")
	fs.StringVar(&f.set.Engine, "engine", f.set.Engine, "sound engine without limits, such as staretc:eval=pairs,tt=64")
	fs.IntVar(&f.set.Workers, "workers", f.set.Workers, "parallel searches")
	fs.IntVar(&f.set.Chunk, "chunk", f.set.Chunk, "positions per Parquet part file")
	fs.Var(&f.set.Shard, "shard", "do only shard i/N of the chunks")
}

// run is the collect command: the settings from the flags (or from the run
// to resume), regression.Collect into a run directory, the result printed.
func (f *collectFlags) run(ctx context.Context, env *Env, args []string) error {
	if err := noArgs(args); err != nil {
		return err
	}
	run, _, err := f.start(env, &f.set, f.set.Seed, f.settings, "json")
	if err != nil {
		return err
	}
	res, err := runKitStage(env, run, "positions", f.asJSON, "finished chunks are kept: continue with starlab collect -resume "+run.Dir(), &f.set.Kit, &f.set.GameName,
		func(p runs.Progress) (regression.CollectResult, error) { return regression.Collect(ctx, f.set, run, p) })
	if err != nil {
		return err
	}
	return f.print(env, res, func(w io.Writer) {
		fmt.Fprintf(w, "collect: %d positions, %d rows in %d part files (%d from before) in %.1f s; fit them with starlab fit %s\n",
			res.Positions, res.Rows, res.Parts, res.Resumed, res.Seconds, run.Dir())
	})
}

// settings takes the settings from the flags, with the game and the
// variant they name, and checks them.
func (f *collectFlags) settings(env *Env) error {
	if f.set.Suite != "" {
		for _, name := range []string{"count", "min", "max", "n", "m", "variant"} {
			if flagGiven(env.Flags, name) {
				return usagef("-%s samples positions; -suite gives them", name)
			}
		}
	}
	var err error
	if f.set.Kit, f.set.Variant, err = f.gf.resolve(env.Flags); err != nil {
		return err
	}
	ps, err := regression.ParsePairs(f.pairs)
	if err != nil {
		return usagef("-pairs: %v", err)
	}
	f.set.Pairs = ps
	return f.set.Check()
}
