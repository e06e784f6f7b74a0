package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/search/bench"
	"starlab/search/games"
	"starlab/selfplay"
)

// mergeFlags are the merge command's flag values, which its setFlags
// resets before every run.
type mergeFlags struct {
	outputFlags
	gameName string
}

// mergeCommand returns the merge command, with its own flag state.
func mergeCommand() *Command {
	return command(&mergeFlags{}, &Command{
		UsageLine: "merge -out DIR RUN...",
		Short:     "join the shard runs of a match, analyze, rollout, collect, bench or tune into one run",
		Long: `Merge joins the runs of every shard of one match, analyze, rollout,
collect, bench or tune (made with -shard i/N, each i from 0 to N-1 once) into the run
directory -out, which then holds what the unsharded run with the same seed
holds: the match's journal, summary.json and games.parquet; the analysis's
journal, analysis.parquet and summary.json; the rollout's journal,
rollout.parquet and summary.json; the collect's part files; the
bench's bench.parquet and summary.json; the tune's tune.parquet, tune.json
and plot. Times are the shards' own. It refuses, in one line,
runs that are not finished, shards of different settings, seeds or builds,
and missing or duplicated shards. The game is the one the runs record (runs
of earlier versions, which record none, are of Dice); -game, if given, must
name it.`,
		Interspersed: true,
	})
}

// setFlags declares the merge command's flags on fs.
func (f *mergeFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.outputFlags.set(fs, "run directory of the merged run", "", "")
	fs.StringVar(&f.gameName, "game", "", "the game of the runs (default: the one they record)")
}

// run is the merge command: the shards' runs merged into one run
// directory by their stage's merge, the result printed.
func (f *mergeFlags) run(ctx context.Context, env *Env, args []string) error {
	if f.out == "" {
		return usagef("-out DIR is needed")
	}
	if f.gameName != "" {
		if _, err := lookupGame(f.gameName); err != nil {
			return err
		}
	}
	// Where each shard found its outside engines' programs
	// (each machine its own) changes no result.
	sh, err := runs.CheckShards(args, "concurrency", "workers", "programs")
	if err != nil {
		return err
	}
	m, ok := mergers[sh.Command]
	if !ok {
		return usagef("%s runs are not sharded (match, analyze, rollout, collect, bench and tune are)", sh.Command)
	}
	settings := m.settings() // recorded as the stage records them
	if err := json.Unmarshal(sh.Settings, settings); err != nil {
		return fmt.Errorf("%s: settings: %v", filepath.Join(sh.Dirs[0], runs.ManifestName), err)
	}
	// Every stage records its game as "game" in its settings; the runs
	// that record none are Dice's.
	var named struct {
		Game string `json:"game"`
	}
	_ = json.Unmarshal(sh.Settings, &named) // settings took the same bytes
	recorded := cmp.Or(named.Game, games.Default)
	if f.gameName != "" && f.gameName != recorded {
		return usagef("-game %s: the runs are of %s", f.gameName, recorded)
	}
	g, err := games.Lookup(recorded)
	if err != nil {
		return fmt.Errorf("%s: %v", filepath.Join(sh.Dirs[0], runs.ManifestName), err)
	}
	_, statErr := os.Stat(f.out)
	run, err := runs.CreateAt(f.out, sh.Command, env.Args, settings, sh.Seed)
	if errors.Is(err, runs.ErrUnfinished) && stoppedMerge(f.out) {
		// A merge has no resume: one that was killed is made again
		// from the shards, so that a retried merge job succeeds.
		clearDir(f.out)
		run, err = runs.CreateAt(f.out, sh.Command, env.Args, settings, sh.Seed)
	}
	if err != nil {
		return err
	}
	err = runStage(env, run, "", false, "", func(p runs.Progress) error {
		what, err := m.merge(ctx, g, sh, run, p)
		if err == nil {
			article := "a"
			if strings.ContainsRune("aeiou", rune(sh.Command[0])) {
				article = "an"
			}
			fmt.Fprintf(env.Stdout, "merge: %d shards of %s %s into %s (%s)\n", sh.Count, article, sh.Command, run.Dir(), what)
		}
		return err
	})
	if err != nil {
		// A merge has no resume: a failed one (a damaged shard, an
		// interruption) leaves nothing behind, so that the same
		// command can be run again once the shards are right.
		if errors.Is(statErr, fs.ErrNotExist) {
			os.RemoveAll(f.out)
		} else {
			clearDir(f.out)
		}
	}
	return err
}

// stoppedMerge reports whether dir holds a merge's run that did not finish
// and that no process holds: a merge killed on its way.
func stoppedMerge(dir string) bool {
	r, err := runs.Open(dir)
	if err != nil {
		return false
	}
	m := r.Manifest()
	st := runs.StateOf(dir, m)
	return len(m.Args) > 1 && m.Args[1] == "merge" && (st == runs.Stopped || st == runs.Failed)
}

// clearDir removes what dir holds, leaving dir.
func clearDir(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// mergers are the stages whose shards merge: their settings type and their
// merge, which says in a few words what it joined.
var mergers = map[string]struct {
	settings func() any
	merge    func(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, p runs.Progress) (string, error)
}{
	"analyze": {func() any { return &selfplay.AnalyzeSettings{} }, func(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, p runs.Progress) (string, error) {
		res, err := selfplay.MergeAnalyze(ctx, g, sh, run, p)
		if err != nil {
			return "", err
		}
		if res.Positions > 0 {
			return fmt.Sprintf("%d positions judged", res.Positions), nil
		}
		return fmt.Sprintf("%d games judged", res.Games), nil
	}},
	"rollout": {func() any { return &selfplay.RolloutSettings{} }, func(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, p runs.Progress) (string, error) {
		res, err := selfplay.MergeRollout(ctx, g, sh, run, p)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d rows of %d trials", len(res.Rows), res.Trials), nil
	}},
	"match": {func() any { return &selfplay.MatchSettings{} }, func(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, p runs.Progress) (string, error) {
		rep, err := selfplay.MergeMatch(ctx, g, sh, run, p)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d pairings", len(rep.Pairings)), nil
	}},
	"collect": {func() any { return &regression.CollectSettings{} }, func(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, p runs.Progress) (string, error) {
		res, err := regression.MergeCollect(ctx, g, sh, run, p)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d rows in %d part files", res.Rows, res.Parts), nil
	}},
	"bench": {func() any { return &bench.Settings{} }, func(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, p runs.Progress) (string, error) {
		sum, err := bench.Merge(ctx, g, sh, run, p)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d positions, %d algorithms", sum.Positions, len(sum.Algos)), nil
	}},
	"tune": {func() any { return &regression.TuneSettings{} }, func(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, p runs.Progress) (string, error) {
		res, err := regression.MergeTune(ctx, g, sh, run, p)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d positions, %d rows", res.Positions, len(res.Rows)), nil
	}},
}
