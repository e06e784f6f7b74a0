package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/search/bench"
)

// tuneFlags are the tune command's settings and flag values, which its
// setFlags resets before every run.
type tuneFlags struct {
	outputFlags
	set                 regression.TuneSettings
	depths, ts, probcut string
}

// tuneCommand returns the tune command, with its own flag state.
func tuneCommand() *Command {
	return command(&tuneFlags{}, &Command{
		UsageLine: "tune [-game G] [-suite FILE] [-depths 9,11,13] [-t 3.2,1.6,...] [-probcut FILE] [-cpc SPEC]... [-shard i/N] [-json] | tune -resume RUN",
		Short:     "ChanceProbCut's nodes saved and move error for each t: the chapter's tables 5.6-5.8 and 5.10",
		Long: `Tune searches every position of -suite (default: the game's suite, ` + bench.DefaultSuite + ` for dice),
positions of -game (default dice) in its notation, all of one variant, to
each of -depths (default: the chapter's, 9,11,13 in Dice, 5 in
ChanceBreakthrough) with staretc and with each cpc engine at each -t, each
search with a fresh table, and measures, as tables 5.6 to 5.8 of Schadd et
al. (2009) do, the nodes cpc saves against staretc and the error of the
value of the move it chooses: cpc's value of its move against that move's
value in the full search (at a chance node, as in Dice before the roll,
the root's values). ACPCME is
the mean of the absolute error, DCPCME its sample standard deviation
(divisor n-1); "moved" is the share of rolled positions where cpc chose
another move than staretc. Each figure comes with its standard error over
the positions: the mean's, the sample standard deviation over sqrt(n); the
deviation's by the delta method, sqrt((m4 - s^4)/n)/(2s); the reduction's
as a ratio estimator's.

-cpc gives a cpc engine's options (` + strings.Join(cpcOptions(), ", ") + `).
Give it more than once to measure several engines over the same positions
and the same staretc searches (their eval, net, tt, k and etc must agree;
an engine given twice is refused): the table then gives, per depth and t,
each engine's line and the paired difference of its absolute errors against
the first engine's, with its standard error. The chapter's configuration is
` + chapterConfigs() + `.
-probcut FILE is the parameter file (probcut=FILE) of every engine that
names none itself.

The chapter's figures are printed once per depth and t beside a tune of a
board the chapter measured, and beside no other, on our scale: its Dice
evaluation is on [-10, 10] and its ChanceBreakthrough evaluation on
[-1500, 1500], ours on [-1, 1], so its errors are divided by 10 and by
1,500. The table is written into the run directory as tune.json (with
-json, its rows are printed, one JSON object per depth, t and engine),
tune.parquet (one record per position, depth, engine and t) and tune.png
and .svg, the reduction against the error.

-shard i/N measures only the positions whose index is i modulo N; starlab
merge joins the shards. -resume RUN measures a run that did not finish
again, with its own settings (a tune run keeps no partial results). The
suite, the nets and the parameter files are read and checked before the run
directory is made.`,
	})
}

// setFlags resets the settings to the game g's defaults and declares the
// tune command's flags on fs.
func (f *tuneFlags) setFlags(fs *flag.FlagSet, g search.Kit) {
	f.set, f.ts, f.probcut = regression.DefaultTuneSettings(g, ""), "3.2,1.6,0.8,0.4,0.2,0.1,0.05", ""
	f.depths = joinInts(f.set.Depths)
	f.outputFlags.set(fs, newRunUsage, remeasureUsage, "print one JSON object per depth, t and engine")
	gameFlag(fs, &f.set.GameName)
	fs.StringVar(&f.set.Suite, "suite", f.set.Suite, "positions, one per line in the game's notation (the game's suite by default)")
	fs.IntVar(&f.set.Limit, "limit", 0, "use only the first N positions (0 = all)")
	fs.StringVar(&f.depths, "depths", f.depths, "search depths (the game's by default)")
	fs.StringVar(&f.ts, "t", f.ts, "ChanceProbCut widths in sigmas")
	fs.Var(&specsFlag{list: &f.set.CPC}, "cpc", "a cpc engine `spec`, such as cpc:multi=0,r=4; give it again for each further engine")
	fs.StringVar(&f.probcut, "probcut", "", "ChanceProbCut parameter file (from starlab fit) of every engine that names none")
	fs.IntVar(&f.set.Workers, "workers", f.set.Workers, "positions searched in parallel")
	fs.Var(&f.set.Shard, "shard", "measure only shard i/N of the positions")
}

// run is the tune command: the settings from the flags (or from the run
// to resume), regression.Tune into a run directory, the result printed.
func (f *tuneFlags) run(ctx context.Context, env *Env, args []string) error {
	if err := noArgs(args); err != nil {
		return err
	}
	run, _, err := f.start(env, &f.set, 0, f.settings, "json")
	if err != nil {
		return err
	}
	res, err := runKitStage(env, run, "positions", f.asJSON, "measure it again with starlab tune -resume "+run.Dir(), &f.set.Kit, &f.set.GameName,
		func(p runs.Progress) (*regression.TuneResult, error) { return regression.Tune(ctx, f.set, run, p) })
	if err != nil {
		return err
	}
	if f.asJSON {
		enc := json.NewEncoder(env.Stdout)
		for _, r := range res.Rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	return writeTune(env.Stdout, res, f.set.Suite)
}

// writeTune writes the tune's table, with the positions and engines it
// was measured on.
func writeTune(w io.Writer, res *regression.TuneResult, suite string) error {
	fmt.Fprintf(w, "tune over %d positions of %s %s (%s):\n", res.Positions, res.Game, res.Variant, suite)
	for i, c := range res.CPC {
		fmt.Fprintf(w, "  engine %d: %s; parameters: %s\n", i+1, c, res.ProbCut[i])
	}
	fmt.Fprintln(w, res.Caption())
	head, lines := res.Table()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, l := range lines {
		fmt.Fprintln(tw, strings.Join(l, "\t")+"\t")
	}
	return tw.Flush()
}

// chapterConfigs names the chapter's configuration on each board it tuned
// t on, as its game's descriptor gives it: "-cpc SPEC in dice 5x5-4
// (tables 5.6-5.8)".
func chapterConfigs() string {
	var cs []string
	for _, g := range allGames() {
		v := g.DefaultVariant()
		if ch := g.ChapterOf(v); ch != nil {
			cs = append(cs, fmt.Sprintf("-cpc %s in %s %s (%s)", ch.Engine, g.Name(), v, ch.Tables))
		}
	}
	return strings.Join(cs, " and\n")
}

// specsFlag is a flag that may be given more than once, each time adding
// a spec to the list; the first replaces the default.
type specsFlag struct {
	list  *regression.SpecList
	given bool
}

func (f *specsFlag) String() string {
	if f == nil || f.list == nil {
		return ""
	}
	return strings.Join(*f.list, " ")
}

func (f *specsFlag) Set(s string) error {
	if !f.given {
		*f.list, f.given = nil, true
	}
	*f.list = append(*f.list, s)
	return nil
}

// Repeatable tells parseFlags that the flag may be given more than once.
func (f *specsFlag) Repeatable() bool { return true }

// cpcOptions are the keys -cpc takes: the grammar's but the limits, which
// -depths sets, and t, which -t sets.
func cpcOptions() []string {
	var keys []string
	for _, k := range search.OptionKeys() {
		if !slices.Contains([]string{"depth", "nodes", "movetime", "t"}, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// settings takes the settings from the flags and checks them.
func (f *tuneFlags) settings(*Env) error {
	set := &f.set
	var err error
	if set.Kit, err = lookupGame(set.GameName); err != nil {
		return err
	}
	if set.Suite == "" {
		return usagef("%s has no default suite: give -suite", set.Kit.Name())
	}
	if set.Depths, err = bench.ParseDepths(f.depths); err != nil {
		return err
	}
	if set.Ts, err = regression.ParseTs(f.ts); err != nil {
		return usagef("%v", err)
	}
	if f.probcut != "" {
		if err := set.SetProbCut(f.probcut); err != nil {
			return err
		}
	}
	return set.Check()
}
