package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"starlab/regression"
	"starlab/runs"
	"starlab/selfplay"
)

func init() {
	var out string
	register(&Command{
		Name:         "merge",
		UsageLine:    "merge -out DIR RUN...",
		Interspersed: true,
		Short:        "join the shard runs of a match or a collect into one run",
		Long: `Merge joins the runs of every shard of one match or one collect (made with
-shard i/N, each i from 0 to N-1 once) into the run directory -out, which
then holds what the unsharded run with the same seed holds: the match's
journal, summary.json and games.parquet, or the collect's part files. It
refuses, in one line, runs that are not finished, shards of different
settings, seeds or builds, and missing or duplicated shards.`,
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
				var s selfplay.MatchSettings
				settings = &s
			case "collect":
				var s regression.CollectSettings
				settings = &s
			default:
				return fmt.Errorf("merge: %s runs are not sharded (match and collect are)", sh.Command)
			}
			if err := json.Unmarshal(sh.Settings, settings); err != nil {
				return err
			}
			run, err := runs.CreateAt(out, sh.Command, env.Args, settings, sh.Seed)
			if err != nil {
				return err
			}
			return runStage(env, run, "", false, "", func(p runs.Progress) error {
				switch sh.Command {
				case "match":
					rep, err := selfplay.MergeMatch(ctx, sh, run, p)
					if err == nil {
						fmt.Fprintf(env.Stdout, "merge: %d shards of a match into %s (%d pairings)\n", sh.Count, run.Dir(), len(rep.Pairings))
					}
					return err
				default:
					res, err := regression.MergeCollect(ctx, sh, run, p)
					if err == nil {
						fmt.Fprintf(env.Stdout, "merge: %d shards of a collect into %s (%d rows in %d part files)\n", sh.Count, run.Dir(), res.Rows, res.Parts)
					}
					return err
				}
			})
		},
	})
}
