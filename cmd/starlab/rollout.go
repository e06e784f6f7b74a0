package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"

	"starlab/runs"
	"starlab/search"
	"starlab/selfplay"
)

// rolloutFlags are the rollout command's flag values, which its setFlags
// resets before every run.
type rolloutFlags struct {
	outputFlags
	gf    gameFlags
	suite string
	set   selfplay.RolloutSettings
}

// rolloutCommand returns the rollout command, with its own flag state.
func rolloutCommand() *Command {
	return command(&rolloutFlags{}, &Command{
		UsageLine: "rollout [-game G] [-player SPEC] [-trials N] [-truncate N] [-luck SPEC|none] [-plays] [-suite FILE] [-seed N] [-workers N] [-out DIR] [-json] [POSITION...]",
		Short:     "value positions by playing them out many times, with variance reduction",
		Long: `Rollout values each POSITION (one argument each, in the game's notation,
before or after its chance event; or the positions of -suite FILE; by
default the variant's start) by playing it out -trials times with the
engine -player on both sides, and gives the mean result in points for the
side on roll (backgammon: cubeless equity; its P(win) in 1pt games) with
its standard error. With -plays each POSITION must be rolled (a decision)
and every legal move of it is rolled out, valued for the side that moves:
trial t of every move sees the same dice.

Variance reduction: the luck of every chance event, as the reference
-luck values it (the value after the event less the mean over the events
that could have happened; default: the game's luck reference, in
backgammon the built-in net at depth 1), is taken out of each trial's
result, which leaves its mean unchanged and its variance smaller; both
estimates are printed, the plain one as VR's measure. -luck none gives
plain rollouts. The first two rolls of every trial are stratified (each
of the 36 rolls of two dice once in every 36 trials, every pair of first
two rolls once in every 1,296), and a trial's dice come from the seed and
the trial's number alone. -truncate N stops a trial at the first chance
event after N decisions and values it there by the reference.

Trials run on -workers workers and are journalled as they finish: after a
kill, -resume RUN plays the rest, and the numbers equal an uninterrupted
run's; -shard i/N plays only the trials whose number is i modulo N, and
starlab merge joins the shards into what one run gives, bit for bit. The
run directory holds rollout.parquet (one row a position or move) and
summary.json, with the trials played per second of one worker.`,
		Interspersed: true,
	})
}

// setFlags declares the rollout command's flags on fs.
func (f *rolloutFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.set = selfplay.RolloutSettings{Player: "staretc:depth=1", Trials: 1296, Seed: 1, Workers: 2}
	f.suite = ""
	f.outputFlags.set(fs, newRunUsage, resumeUsage, "print the result as JSON")
	f.gf.set(fs, "Dice's board size (-variant NxN-M)", "Dice's win length (-variant NxN-M)")
	fs.StringVar(&f.set.Player, "player", f.set.Player, "the engine that plays both sides of every trial: a search with a depth or node limit, or an outside engine (gnubg:plies=0)")
	fs.IntVar(&f.set.Trials, "trials", f.set.Trials, "trials per position (or move)")
	fs.IntVar(&f.set.Truncate, "truncate", 0, "stop each trial at the first chance event after this many decisions and value it by -luck's reference (0: play to the end)")
	fs.StringVar(&f.set.Luck, "luck", "", "the variance reduction's reference: a search with a depth or node limit, gnubg:plies=N, or none (default: the game's luck reference)")
	fs.BoolVar(&f.set.Plays, "plays", false, "roll out every legal move of each position, a decision")
	fs.StringVar(&f.suite, "suite", "", "file of positions to roll out, one a line, in the game's notation")
	fs.Uint64Var(&f.set.Seed, "seed", f.set.Seed, "seed of the dice")
	fs.IntVar(&f.set.Workers, "workers", f.set.Workers, "trials played at once")
	fs.Var(&f.set.Shard, "shard", "play only shard i/N of the trials (starlab merge joins the shards)")
}

// run is the rollout command: selfplay.Rollout into a run directory, each
// row printed.
func (f *rolloutFlags) run(ctx context.Context, env *Env, args []string) error {
	if f.resume != "" && len(args) != 0 {
		return usagef("-resume takes no positions: they are read from the run")
	}
	run, _, err := f.start(env, &f.set, f.set.Seed, func(env *Env) error { return f.settings(ctx, env, args) }, "workers", "json")
	if err != nil {
		return err
	}
	res, err := runKitStage(env, run, "trials", f.asJSON, "the trials played are kept: starlab rollout -resume "+run.Dir(), &f.set.Kit, &f.set.GameName,
		func(p runs.Progress) (*selfplay.RolloutResult, error) { return selfplay.Rollout(ctx, f.set, run, p) })
	if err != nil {
		return err
	}
	return f.print(env, res, func(w io.Writer) { writeRollout(w, res) })
}

// settings takes the game, the variant and the positions from the flags
// and args and checks them before a run exists.
func (f *rolloutFlags) settings(ctx context.Context, env *Env, args []string) error {
	g, variant, err := f.gf.resolve(env.Flags)
	if err != nil {
		return err
	}
	f.set.Kit, f.set.GameName, f.set.Variant, f.set.Positions = g, g.Name(), variant, args
	if f.suite != "" {
		if len(args) > 0 {
			return usagef("give positions or -suite, not both")
		}
		ps, err := search.ReadSuite(g, f.suite)
		if err != nil {
			return runs.Usage(err)
		}
		for _, p := range ps {
			f.set.Positions = append(f.set.Positions, p.Pos.String())
		}
	}
	if err := f.set.Check(ctx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while starting the engines; nothing was written")
		}
		return err
	}
	return nil
}

// writeRollout prints each row's estimates.
func writeRollout(w io.Writer, res *selfplay.RolloutResult) {
	fmt.Fprintf(w, "rollout: %d trials a row played by %s, luck reference %s; values in points for the side named, ± one standard error\n", res.Trials, res.Player, res.Luck)
	for _, r := range res.Rows {
		what := r.Position
		if r.Play != "" {
			what += "  " + r.Play
		}
		fmt.Fprintf(w, "%s: %s %s ± %s (plain %s ± %s)", what, r.Side, r.Value.Format("%+.4f"), r.SE.Format("%.4f"), r.Plain.Format("%+.4f"), r.PlainSE.Format("%.4f"))
		if !math.IsNaN(float64(r.Score)) {
			fmt.Fprintf(w, ", score %.4f", float64(r.Score))
		}
		fmt.Fprintf(w, ", win %s gammon %s backgammon %s lose gammon %s backgammon %s\n", r.Win.Format("%.3f"), r.Gammon.Format("%.3f"),
			r.Backgammon.Format("%.3f"), r.LoseGammon.Format("%.3f"), r.LoseBackgammon.Format("%.3f"))
	}
	fmt.Fprintf(w, "%.1f trials a second a worker (%.1f s of trials)\n", res.TrialsPerSecond, res.Seconds)
}
