package main

import (
	"context"
	"flag"
	"strings"

	"starlab/runs"
	"starlab/search"
	"starlab/search/bench"
)

// benchFlags are the bench command's settings and flag values, which its
// setFlags resets before every run.
type benchFlags struct {
	outputFlags
	set           bench.Settings // setFlags sets both
	spec          search.Spec
	algos, depths string
}

// benchCommand returns the bench command, with its own flag state.
func benchCommand() *Command {
	return command(&benchFlags{}, &Command{
		UsageLine: "bench [-algos A,B,...] [-depths D,E,...] [-limit N] [-out DIR] [-shard i/N] [-json] [engine flags] [SUITE] | bench -resume RUN",
		Short:     "measure nodes and time to depth of several algorithms on a suite",
		Long: `Bench measures the *-minimax algorithms against each other, as in the
thesis's section 5 (figures 5.2 and 5.5): each algorithm of -algos searches
each position of SUITE (default: the game's suite, ` + bench.DefaultSuite + `
for dice, relative to the working directory; -limit N keeps its first N),
to -depths (default: the game's, 9, 11 and 13 for dice), with an empty table by
iterative deepening to the deepest of -depths. For each requested depth it
records the nodes and the time to the end of that iteration, cumulative over
the iterations as in the thesis, with the score and cut-off counts. A
position whose every line ends sooner is searched to the end of the game and
its last iteration stands for the deeper depths.

It prints, per depth, min, max, mean, median (the mean of the two middle
values for an even count) and sample standard deviation over the positions
of the nodes (like 3.58e+06) and of the time in milliseconds per algorithm,
the nodes per second (total nodes over total time), the ratios of the mean
nodes of each algorithm to each other (row over column) and the mean over
the positions of each algorithm's nodes over the first algorithm's. Last it
checks that the sound algorithms (all but cpc) agree on every score to 1e-9,
and fails if they do not. With -json it prints the summary as one JSON
object instead.

Everything goes to a run directory (-out DIR, default a new one under out/):
manifest.json; bench.parquet, one row per algorithm, position (1-based) and
depth with the columns algo, position, notation (the position in the game's notation), depth, searched_depth, nodes,
time_ms, score, nodes_per_s, sound and the cut-off counts alpha_beta,
tt_cut_move, tt_cut_chance, etc_cut, star2_cut, star1_cut, cpc_cut; and
summary.json, the object -json prints. The engine flags are those of search
but -algo and the limits; an option none of -algos reads is refused.
-workers searches positions in parallel (times then share the machine);
-shard i/N measures only the positions whose index is i modulo N; starlab
merge joins the shards. -resume RUN measures a run that did not finish
again, with its own settings (a bench run keeps no partial results).`,
		Interspersed: true,
	})
}

// setFlags resets the settings to the game g's defaults and declares the
// bench command's flags on fs.
func (f *benchFlags) setFlags(fs *flag.FlagSet, g search.Kit) {
	f.set = bench.DefaultSettings(g)
	f.outputFlags.set(fs, newRunUsage, remeasureUsage, "print the summary as one JSON object instead of tables")
	gameFlag(fs, &f.set.GameName)
	f.spec = search.Spec{Config: f.set.Engine}
	search.RegisterFlags(fs, &f.spec, "algo", "depth", "nodes", "movetime")
	fs.StringVar(&f.algos, "algos", strings.Join(f.set.Algos, ","), "comma-separated algorithms to compare: "+strings.Join(search.AlgorithmNames(), ", "))
	fs.StringVar(&f.depths, "depths", joinInts(f.set.Depths), "comma-separated depths in plies to record (the game's by default)")
	fs.IntVar(&f.set.Limit, "limit", 0, "use only the first N positions (0 = all)")
	fs.IntVar(&f.set.Workers, "workers", 1, "positions searched at once")
	fs.Var(&f.set.Shard, "shard", "measure only shard i/N of the positions")
}

// run is the bench command: the settings from the flags (or from the run
// to resume), bench.Run into a run directory, the summary printed.
func (f *benchFlags) run(ctx context.Context, env *Env, args []string) error {
	if len(args) > 1 {
		return usagef("want at most one SUITE, got %q", strings.Join(args, " "))
	}
	if f.resume != "" && len(args) > 0 {
		return usagef("-resume takes no SUITE: it is read from the run")
	}
	run, _, err := f.start(env, &f.set, 0, func(env *Env) error { return f.settings(env, args) }, "json")
	if err != nil {
		return err
	}
	sum, err := runKitStage(env, run, "positions", f.asJSON, "measure it again with starlab bench -resume "+run.Dir(), &f.set.Kit, &f.set.GameName,
		func(p runs.Progress) (*bench.Summary, error) { return bench.Run(ctx, f.set, run, p) })
	if sum != nil {
		if perr := f.print(env, sum, sum.WriteText); err == nil {
			err = perr
		}
	}
	return err
}

// settings takes the settings from the flags and the suite args names,
// if any, and checks them.
func (f *benchFlags) settings(env *Env, args []string) error {
	set, spec := &f.set, &f.spec
	var err error
	if set.Kit, err = lookupGame(set.GameName); err != nil {
		return err
	}
	if set.Algos, err = bench.ParseAlgos(f.algos); err != nil {
		return err
	}
	if set.Depths, err = bench.ParseDepths(f.depths); err != nil {
		return err
	}
	var as []search.Algorithm
	for _, a := range set.Algos {
		x, _ := search.ParseAlgorithm(a)
		as = append(as, x)
	}
	if err := search.CheckFlags(env.Flags, spec, as...); err != nil {
		return runs.Usage(err)
	}
	set.Engine = spec.Config
	if len(args) == 1 {
		set.Suite = args[0]
	} else if set.Suite == "" {
		return usagef("%s has no default suite: name a SUITE", set.Kit.Name())
	}
	_, err = set.Resolve()
	return err
}
