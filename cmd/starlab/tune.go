package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/search/bench"
)

func init() {
	var set regression.TuneSettings
	var depths, ts, probcut, out, resume string
	var asJSON bool
	register(&Command{
		Name:      "tune",
		UsageLine: "tune [-suite FILE] [-depths 9,11,13] [-t 3.2,1.6,...] [-probcut FILE] [-cpc SPEC] [-shard i/N] [-json] | tune -resume RUN",
		Short:     "ChanceProbCut's nodes saved and move error for each t: the chapter's tables 5.6-5.8",
		Long: `Tune searches every position of -suite (default ` + bench.DefaultSuite + `)
to each of -depths with staretc and with cpc at each -t, each search with a
fresh table, and measures, as tables 5.6 to 5.8 of Schadd et al. (2009) do,
the nodes cpc saves against staretc and the error of the value of the move
it chooses: cpc's value of its move against that move's value in the full
search (before the roll, the root's values). ACPCME is the mean of the
absolute error, DCPCME its standard deviation; "moved" is the share of
rolled positions where cpc chose another move than staretc.

-cpc gives the cpc engine's options (` + strings.Join(cpcOptions(), ", ") + `),
-probcut its parameter file (probcut=FILE). The table is printed beside
the chapter's figures and written into the run directory as tune.json,
tune.parquet (one record per position, depth and t) and tune.png and .svg,
the reduction against the error.

-shard i/N measures only the positions whose index is i modulo N; starlab
merge joins the shards. -resume RUN measures a run that did not finish
again, with its own settings (a tune run keeps no partial results). The
suite, the net and the parameter file are read and checked before the run
directory is made.`,
		SetFlags: func(fs *flag.FlagSet) {
			set, depths, ts, probcut, out, resume, asJSON = regression.DefaultTuneSettings(bench.DefaultSuite), "9,11,13", "3.2,1.6,0.8,0.4,0.2,0.1,0.05", "", "", "", false
			fs.StringVar(&set.Suite, "suite", set.Suite, "positions, one DPN per line")
			fs.IntVar(&set.Limit, "limit", 0, "use only the first N positions (0 = all)")
			fs.StringVar(&depths, "depths", depths, "search depths")
			fs.StringVar(&ts, "t", ts, "ChanceProbCut widths in sigmas")
			fs.StringVar(&set.CPC, "cpc", set.CPC, "the cpc engine, such as cpc:multi=0,r=4,eval=pairs")
			fs.StringVar(&probcut, "probcut", "", "ChanceProbCut parameter file (from starlab fit)")
			fs.IntVar(&set.Workers, "workers", set.Workers, "positions searched in parallel")
			fs.Var(&set.Shard, "shard", "measure only shard i/N of the positions")
			fs.StringVar(&out, "out", "", "run directory (default: a new one under out/)")
			fs.StringVar(&resume, "resume", "", "measure the unfinished run in this directory again (latest: the newest under out/)")
			fs.BoolVar(&asJSON, "json", false, "print one JSON object per depth and t")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 0 {
				return usagef("unexpected arguments %q", strings.Join(args, " "))
			}
			if resume != "" {
				if err := checkResumeFlags(env.Flags, "json"); err != nil {
					return err
				}
			} else if err := tuneSettings(&set, depths, ts, probcut); err != nil {
				return err
			}
			run, _, err := runs.Start("out", out, resume, "tune", env.Args, &set, 0)
			if err != nil {
				return err
			}
			var res *regression.TuneResult
			err = runStage(env, run, "positions", asJSON, "measure it again with starlab tune -resume "+run.Dir(), func(p runs.Progress) (err error) {
				res, err = regression.Tune(ctx, set, run, p)
				return err
			})
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(env.Stdout)
				for _, r := range res.Rows {
					if err := enc.Encode(r); err != nil {
						return err
					}
				}
				return nil
			}
			fmt.Fprintf(env.Stdout, "tune: %s over %d positions (%s), parameters: %s\n", res.CPC, res.Positions, set.Suite, res.ProbCut)
			tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "depth\tt\tnodes\tstaretc\treduction\tACPCME\tDCPCME\tmax err\tmoved\t\tchapter: reduction\tACPCME\t")
			for _, r := range res.Rows {
				ch, ca := "-", "-"
				if !math.IsNaN(float64(r.ChapterReduction)) {
					ch, ca = fmt.Sprintf("%.1f%%", 100*float64(r.ChapterReduction)), fmt.Sprintf("%.2f", float64(r.ChapterACPCME))
				}
				fmt.Fprintf(tw, "%d\t%g\t%d\t%d\t%.1f%%\t%.4f\t%.4f\t%.3f\t%.1f%%\t\t%s\t%s\t\n",
					r.Depth, r.T, r.Nodes, r.BaseNodes, 100*r.Reduction, r.ACPCME, r.DCPCME, r.MaxError, 100*r.MoveChanged, ch, ca)
			}
			return tw.Flush()
		},
	})
}

// tuneSettings fills in the settings from the flags and checks them.
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

func tuneSettings(set *regression.TuneSettings, depths, ts, probcut string) error {
	var err error
	if set.Depths, err = bench.ParseDepths(depths); err != nil {
		return err
	}
	if set.Ts, err = regression.ParseTs(ts); err != nil {
		return usagef("%v", err)
	}
	if probcut != "" {
		if strings.Contains(set.CPC, "probcut=") {
			return usagef("give the parameter file once: -probcut or probcut= in -cpc")
		}
		sep := ","
		if !strings.Contains(set.CPC, ":") {
			sep = ":"
		}
		set.CPC += sep + "probcut=" + probcut
	}
	return set.Check()
}
