package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"starlab/runs"
	"starlab/search"
	"starlab/selfplay"
)

// analyzeFlags are the analyze command's flag values, which its setFlags
// resets before every run.
type analyzeFlags struct {
	outputFlags
	set selfplay.AnalyzeSettings
}

// analyzeCommand returns the analyze command, with its own flag state.
func analyzeCommand() *Command {
	return command(&analyzeFlags{}, &Command{
		UsageLine: "analyze [-judge SPEC] [-workers N] [-out DIR] [-json] MATCH",
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
resumes (-resume) with the games it had not judged.`,
		Interspersed: true,
	})
}

// setFlags declares the analyze command's flags on fs.
func (f *analyzeFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.set = selfplay.AnalyzeSettings{Workers: 2}
	f.outputFlags.set(fs, newRunUsage, resumeUsage, "print the result as JSON")
	fs.StringVar(&f.set.Judge, "judge", "staretc:depth=3", "the judge: an engine spec of the game searched to a depth, or gnubg:plies=N (backgammon)")
	fs.IntVar(&f.set.Workers, "workers", f.set.Workers, "games judged at once")
	fs.Var(&f.set.Shard, "shard", "judge only shard i/N of the match's pairs (starlab merge joins the shards)")
}

// run is the analyze command: the match's game looked up, selfplay.Analyze
// into a run directory, each engine's figures printed.
func (f *analyzeFlags) run(ctx context.Context, env *Env, args []string) error {
	run, _, err := f.start(env, &f.set, 0, func(*Env) error { return f.settings(ctx, args) }, "workers")
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
func (f *analyzeFlags) settings(ctx context.Context, args []string) error {
	variant, err := matchOfTwo(args, &f.set.Match, &f.set.Kit, &f.set.GameName)
	if err != nil {
		return err
	}
	return f.set.Check(ctx, variant)
}

// writeAnalysis prints each engine's figures and its worst decisions.
func writeAnalysis(w io.Writer, res *selfplay.AnalyzeResult) {
	fmt.Fprintf(w, "analyze: %d games judged by %s; loss per decision with more than one move in points, ± its 95%% interval by pair\n", res.Games, res.Judge)
	fmt.Fprintf(w, "A's result per game in points: the judge's account (start, less A's losses, plus B's) %s ± %s, scored %s ± %s\n",
		res.Predicted.Format("%+.4f"), res.PredictedCI95.Format("%.4f"), res.Actual.Format("%+.4f"), res.ActualCI95.Format("%.4f"))
	for i, s := range res.Sides {
		fmt.Fprintf(w, "%c %s: %d decisions, mean loss %s ± %s, errors %s, blunders %s\n", 'A'+i, s.Engine, s.Decisions,
			s.MeanLoss.Format("%.4f"), s.CI95.Format("%.4f"), s.Errors.Format("%.3f"), s.Blunders.Format("%.3f"))
		for _, d := range s.Worst[:min(3, len(s.Worst))] {
			fmt.Fprintf(w, "    game %d: %s  played %s, best %s, loss %.4f\n", d.Game, d.Position, d.Chosen, d.Best, d.Loss)
		}
	}
}
