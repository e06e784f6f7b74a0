package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"starlab/regression"
	"starlab/runs"
	"starlab/search/bench"
	"starlab/selfplay"
)

func init() {
	var out string
	register(&Command{
		Name:         "merge",
		UsageLine:    "merge -out DIR RUN...",
		Interspersed: true,
		Short:        "join the shard runs of a match, collect, bench or tune into one run",
		Long: `Merge joins the runs of every shard of one match, collect, bench or tune
(made with -shard i/N, each i from 0 to N-1 once) into the run directory
-out, which then holds what the unsharded run with the same seed holds: the
match's journal, summary.json and games.parquet; the collect's part files;
the bench's bench.parquet and summary.json; the tune's tune.parquet,
tune.json and plot. Times are the shards' own. It refuses, in one line,
runs that are not finished, shards of different settings, seeds or builds,
and missing or duplicated shards.`,
		SetFlags: func(fs *flag.FlagSet) {
			out = ""
			fs.StringVar(&out, "out", "", "run directory of the merged run")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if out == "" {
				return usagef("-out DIR is needed")
			}
			sh, err := runs.CheckShards(args, "concurrency", "workers")
			if err != nil {
				return err
			}
			var settings any
			switch sh.Command {
			case "match":
				settings = &selfplay.MatchSettings{}
			case "collect":
				settings = &regression.CollectSettings{}
			case "bench":
				settings = &bench.Settings{}
			case "tune":
				settings = &regression.TuneSettings{}
			default:
				return fmt.Errorf("merge: %s runs are not sharded (match, collect, bench and tune are)", sh.Command)
			}
			if err := json.Unmarshal(sh.Settings, settings); err != nil {
				return err
			}
			run, err := runs.CreateAt(out, sh.Command, env.Args, settings, sh.Seed)
			if err != nil {
				return err
			}
			return runStage(env, run, "", false, "", func(p runs.Progress) error {
				what := ""
				switch sh.Command {
				case "match":
					rep, err := selfplay.MergeMatch(ctx, sh, run, p)
					if err != nil {
						return err
					}
					what = fmt.Sprintf("%d pairings", len(rep.Pairings))
				case "collect":
					res, err := regression.MergeCollect(ctx, sh, run, p)
					if err != nil {
						return err
					}
					what = fmt.Sprintf("%d rows in %d part files", res.Rows, res.Parts)
				case "bench":
					sum, err := bench.Merge(ctx, sh, run, p)
					if err != nil {
						return err
					}
					what = fmt.Sprintf("%d positions, %d algorithms", sum.Positions, len(sum.Algos))
				case "tune":
					res, err := regression.MergeTune(ctx, sh, run, p)
					if err != nil {
						return err
					}
					what = fmt.Sprintf("%d positions, %d rows", res.Positions, len(res.Rows))
				}
				fmt.Fprintf(env.Stdout, "merge: %d shards of a %s into %s (%s)\n", sh.Count, sh.Command, run.Dir(), what)
				return nil
			})
		},
	})
}
