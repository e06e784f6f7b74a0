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

// analyzeFlags are the analyze command's flag values, which its setFlags
// resets before every run.
type analyzeFlags struct {
	outputFlags
	gameName, suite string
	set             selfplay.AnalyzeSettings
	rollout         selfplay.RolloutJudge // -judge rollout's
}

// analyzeCommand returns the analyze command, with its own flag state.
func analyzeCommand() *Command {
	return command(&analyzeFlags{}, &Command{
		UsageLine: "analyze [-judge SPEC] [-workers N] [-out DIR] [-json] MATCH | -suite FILE [-game G] ENGINE [ENGINE]",
		Short:     "how well each engine of a match played, by a judge's values of every decision",
		Long: `Analyze judges every decision with more than one legal move of the match
run MATCH, a match of two engines: each legal move is valued by the judge,
an engine spec of the game searched to a depth (the position the move
leads to searched one ply shallower; at depth 1 the judge's evaluation of
it, gnubg's 0-ply in backgammon) or, in backgammon, gnubg:plies=N (GNU
Backgammon's N-ply evaluation of that position, one gnubg a worker), and
the chosen move loses the best's value less its own. For each engine it
prints the mean loss per decision with its 95% interval clustered by pair
of games (a pair's games share their dice, and a game's decisions are not
independent), the shares of errors (a loss above 0.04 of a point) and
blunders (above 0.08), and its worst decisions, each with its position in
the game's notation (backgammon: gnubg's Position ID, side and roll, which
gnubg's "set board" and "set dice" take).

Values and losses are in points: in backgammon the cubeless equity (losses
times 1000 are gnubg's millipoints). The run directory holds
analysis.parquet, one row a decision (game, position, moves, chosen and
best move, their values, the loss), and summary.json; a stopped run
resumes (-resume) with the games it had not judged.

With -suite FILE, in place of a match, one or two engine specs (ENGINE,
"A" and "B") are judged on the suite's positions, which must be decisions
(backgammon: rolled positions): each engine chooses its move at each
position with more than one, and the judge values every legal move; the
intervals are over positions, which are independent, and -shard i/N
judges the positions whose number less one is i modulo N.

With -judge rollout each legal move's position is valued by a rollout of
it (starlab rollout): -rollout-trials trials played by -rollout-player,
less the luck -rollout-luck sees, trial t of every move of a decision from
the same dice (-rollout-seed). A rollout judge costs its trials for every
legal move of every decision: use it on a few positions, or on games whose
decisions have few moves.`,
		Interspersed: true,
	})
}

// setFlags declares the analyze command's flags on fs.
func (f *analyzeFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.set = selfplay.AnalyzeSettings{Workers: 2}
	f.suite = ""
	f.rollout = selfplay.RolloutJudge{Player: "staretc:depth=1", Trials: 36, Seed: 1}
	fs.StringVar(&f.rollout.Player, "rollout-player", f.rollout.Player, "with -judge rollout: the engine that plays the trials")
	fs.IntVar(&f.rollout.Trials, "rollout-trials", f.rollout.Trials, "with -judge rollout: trials per position valued")
	fs.StringVar(&f.rollout.Luck, "rollout-luck", "", "with -judge rollout: the variance reduction's reference, or none (default: the game's luck reference)")
	fs.Uint64Var(&f.rollout.Seed, "rollout-seed", f.rollout.Seed, "with -judge rollout: the seed of the trials' dice")
	f.outputFlags.set(fs, newRunUsage, resumeUsage, "print the result as JSON")
	gameFlag(fs, &f.gameName)
	fs.StringVar(&f.suite, "suite", "", "judge engines on this suite's positions (decisions), in place of a match")
	fs.StringVar(&f.set.Judge, "judge", "staretc:depth=3", "the judge: an engine spec of the game searched to a depth, gnubg:plies=N (backgammon), or rollout (-rollout-*)")
	fs.IntVar(&f.set.Workers, "workers", f.set.Workers, "games judged at once")
	fs.Var(&f.set.Shard, "shard", "judge only shard i/N of the match's pairs (starlab merge joins the shards)")
}

// run is the analyze command: the match's game looked up, selfplay.Analyze
// into a run directory, each engine's figures printed.
func (f *analyzeFlags) run(ctx context.Context, env *Env, args []string) error {
	run, _, err := f.start(env, &f.set, 0, func(env *Env) error { return f.settings(ctx, env, args) }, "workers")
	if err != nil {
		return err
	}
	res, err := runKitStage(env, run, "games", f.asJSON, "the games judged are kept: starlab analyze -resume "+run.Dir(), &f.set.Kit, &f.set.GameName,
		func(p runs.Progress) (*selfplay.AnalyzeResult, error) { return selfplay.Analyze(ctx, f.set, run, p) })
	if err != nil {
		return err
	}
	return f.print(env, res, func(w io.Writer) { writeAnalysis(w, res) })
}

// settings checks what the flags and the match give before a run exists:
// a match run of two engines, of a game, and a judge of that game.
func (f *analyzeFlags) settings(ctx context.Context, env *Env, args []string) error {
	var ro []string
	env.Flags.Visit(func(fl *flag.Flag) {
		if strings.HasPrefix(fl.Name, "rollout-") {
			ro = append(ro, "-"+fl.Name)
		}
	})
	switch {
	case f.set.Judge == "rollout":
		f.set.Rollout = &f.rollout
	case len(ro) > 0:
		return usagef("%s goes with -judge rollout", strings.Join(ro, " "))
	}
	if f.suite == "" {
		if flagGiven(env.Flags, "game") {
			return usagef("-game goes with -suite: a match's game is the one it played")
		}
		variant, err := matchOfTwo(args, &f.set.Match, &f.set.Kit, &f.set.GameName)
		if err != nil {
			return err
		}
		return f.set.Check(ctx, variant)
	}
	g, err := lookupGame(f.gameName)
	if err != nil {
		return err
	}
	if len(args) < 1 || len(args) > 2 {
		return usagef("with -suite give one or two engine specs to judge")
	}
	ps, err := search.ReadSuite(g, f.suite)
	if err != nil {
		return runs.Usage(err)
	}
	f.set.Kit, f.set.GameName, f.set.Engines = g, g.Name(), args
	for _, p := range ps {
		f.set.Positions = append(f.set.Positions, p.Pos.String())
	}
	if err := f.set.Check(ctx, g.Variant(ps[0].Pos)); err != nil {
		return err
	}
	m := selfplay.DefaultMatchSettings(g, append(args, args[0])[:2]...) // a match has two engines
	m.Variant, m.Starts, m.Luck = g.Variant(ps[0].Pos), f.set.Positions[:1], "none"
	_, err = m.Prepare(ctx) // the engines' specs, and an outside one started once
	return err
}

// writeAnalysis prints each engine's figures and its worst decisions.
func writeAnalysis(w io.Writer, res *selfplay.AnalyzeResult) {
	unit := "game"
	if res.Positions > 0 {
		unit = "position"
		fmt.Fprintf(w, "analyze: %d positions judged by %s; loss per decision in points, ± its 95%% interval\n", res.Positions, res.Judge)
	} else {
		fmt.Fprintf(w, "analyze: %d games judged by %s; loss per decision with more than one move in points, ± its 95%% interval by pair\n", res.Games, res.Judge)
		fmt.Fprintf(w, "A's result per game in points: the judge's account (start, less A's losses, plus B's) %s ± %s, scored %s ± %s\n",
			res.Predicted.Format("%+.4f"), res.PredictedCI95.Format("%.4f"), res.Actual.Format("%+.4f"), res.ActualCI95.Format("%.4f"))
	}
	for i, s := range res.Sides {
		if s.Engine == "" {
			continue
		}
		fmt.Fprintf(w, "%c %s: %d decisions, mean loss %s ± %s, errors %s, blunders %s\n", 'A'+i, s.Engine, s.Decisions,
			s.MeanLoss.Format("%.4f"), s.CI95.Format("%.4f"), s.Errors.Format("%.3f"), s.Blunders.Format("%.3f"))
		for _, d := range s.Worst[:min(3, len(s.Worst))] {
			fmt.Fprintf(w, "    %s %d: %s  played %s, best %s, loss %.4f\n", unit, d.Game, d.Position, d.Chosen, d.Best, d.Loss)
		}
	}
	if p := res.Paired; p != nil {
		fmt.Fprintf(w, "B less A: %s ± %s per decision, paired over the %d positions both chose at\n", p.Mean.Format("%+.4f"), p.CI95.Format("%.4f"), p.Positions)
	}
}
