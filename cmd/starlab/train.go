package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"
	"starlab/search/games"
	"starlab/td"
)

// layoutFlag is -hidden: the hidden units of one layer, or of each layer
// in order ("64,32"), into Settings.Hidden and Settings.Layers.
type layoutFlag struct{ s *td.Settings }

func (f layoutFlag) String() string {
	if f.s == nil || f.s.Hidden == 0 {
		return "0"
	}
	return nn.LayoutString(append([]int{f.s.Hidden}, f.s.Layers...))
}

func (f layoutFlag) Set(v string) error {
	var sizes []int
	for _, part := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 0 {
			return fmt.Errorf("want a number of hidden units, or one per layer separated by commas (64,32)")
		}
		sizes = append(sizes, n)
	}
	if len(sizes) > 1 && slices.Contains(sizes, 0) {
		return fmt.Errorf("a layer of 0 units")
	}
	f.s.Hidden, f.s.Layers = sizes[0], sizes[1:]
	if len(f.s.Layers) == 0 {
		f.s.Layers = nil
	}
	return nil
}

// trainFlags are the train command's settings and flag values, which its
// setFlags resets before every run.
type trainFlags struct {
	outputFlags
	set td.Settings
	gf  gameFlags
}

// trainCommand returns the train command, with its own flag state.
func trainCommand() *Command {
	return command(&trainFlags{}, &Command{
		UsageLine: "train [-game G] [-variant V | -n N -m M] [flags] | train -resume RUN",
		Short:     "train an evaluation network by TD self-play",
		Long: `Train trains the evaluation network of a game (-game, default dice) and
variant (-variant; for Dice, -n and -m give the variant "<n>x<n>-<m>", 5x5-4
by default) by self-play with temporal differences (Veness 2006, section
4.2.3): 1-ply searches choose the moves, and the position each move leads
to is moved towards the next such position's value, TD(0) by default
(-lambda for TD(lambda), -expected for the mean over every chance event of
the best 1-ply value as target), with the game's result as the last target.
The inputs of the net are the game's (-inputs names another of its input
sets: Dice's threats adds six inputs that count each side's winning cells,
as the built-in 5x5/4 net has; backgammon's features adds 24 hand-made
features a side, hits, escapes, containment, anchors and pips, and gives
way to the exact bear-off databases). -outcomes gives the net the game's
outputs of probabilities in place of its one value (backgammon: gnubg's
five, the chances of winning, of winning and of losing a gammon and a
backgammon; the net's value is their cubeless equity in money play, the
chance of winning in a one-point game), each learnt by TD(0) towards its
own value at the next position. The net starts from small
random weights (-init) drawn from -seed.

Every -measure-every games the net plays -measure-games duplicate-dice games
at depth 1 against the game's hand evaluator at depth 1 (pairs in Dice,
material in ChanceBreakthrough); the learning curve (curve.parquet) records
those scores (score_vs_hand, the evaluator's name in opponent) with their
intervals beside the training's error (td_error for TD, fit_error for
-target search), and the best net by score is kept as
best.json. A measurement whose pairs of games are not all different (from
one start where the players never meet chance, every pair is the same
pair) says so beside its score: its interval is too narrow, or means
nothing; give -measure-suite. Every -checkpoint games net.json and
state.json are written; -resume RUN continues a killed or interrupted run
from its last checkpoint. Games are played in rounds of -batch games;
-batch 1 is online TD (a second worker then has nothing to do: give -batch
16 or so). With more, -workers play a round and take its TD targets with
the weights as they were before the round before was learnt, while the net
learns that one in game order (-target search labels a round with the
weights of its start): a run depends on -batch, not on -workers.

With -target search each position the games lead to is fitted instead
to the value a deeper search of it finds (-target-spec, an engine spec with
a depth; eval=mlp without net= searches with the net being trained), with
Adam over mini-batches (-minibatch) of the squared error; -hidden 64,32
gives a net of two hidden layers, -starts FILE starts the games from a
suite's positions in turn, -play-depth lets the target's engine choose
the self-play moves, and -treestrap fits every position right after a
move in the target search's tree to its value there (TreeStrap; the tree
is expectimax's, the net at its leaves), not the root alone; -plays N
fits at every decision the N plays best by the net's 1-ply values, not
only the one played.

With -target rollout -rollouts RUN no games are played: the positions of a
rollout run (starlab rollout, of positions before their roll) are fitted to
their rolled-out values with Adam, each "game" one position and an epoch
as many as the run has rows, in an order shuffled each epoch; only rows
from the first whose every trial is played are read (-rollout-rows
fewer), so a rollout still going gives what it has so far, and a resumed
run fits the same rows. -from NET refines a net trained by TD.

With -from NET -phase race (backgammon) the net's race net is trained,
by TD or -target search, on the races of the games alone: a copy of the
main net where NET has none. The games are played by the whole net, the
race net in the races; the main net stays as it is, and the net written
holds both (a version-4 weight file).

It ends with one line: games, time and games/s of the whole run (a resumed
run's included), and the last score against the hand evaluator with its
95% interval; -json prints it as an object (the score as score_vs_hand,
the evaluator's name as opponent).`,
	})
}

// setFlags resets the settings to td's defaults and declares the train
// command's flags on fs.
func (f *trainFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.set = td.DefaultSettings(search.Kit{})
	f.outputFlags.set(fs, newRunUsage, resumeUsage, "print the result as JSON")
	f.gf.set(fs, "Dice's board size (-variant NxN-M)", "Dice's win length (-variant NxN-M)")
	fs.Int64Var(&f.set.Games, "games", f.set.Games, "self-play games")
	fs.Uint64Var(&f.set.Seed, "seed", f.set.Seed, "seed of the initial weights and the games")
	fs.Float64Var(&f.set.Rate, "rate", f.set.Rate, "learning rate (0: the game's default, for Dice 2.5/n^2, 0.1 at 5x5)")
	fs.BoolVar(&f.set.Anneal, "anneal", f.set.Anneal, "anneal the rate as rate*(games/1000+1)^-0.3")
	fs.Float64Var(&f.set.Lambda, "lambda", f.set.Lambda, "TD(lambda) trace decay (0: TD(0))")
	fs.BoolVar(&f.set.Expected, "expected", f.set.Expected, "target: mean over every roll of the best 1-ply value")
	fs.Float64Var(&f.set.Explore, "explore", f.set.Explore, "probability of a random move")
	fs.Float64Var(&f.set.Init, "init", f.set.Init, "half-width of the uniform initial weights")
	fs.StringVar(&f.set.From, "from", "", "net file to start from instead of random weights (its inputs and layers; no -inputs; -hidden above its one layer's units widens it, the new units' output weights 0)")
	fs.StringVar(&f.set.Phase, "phase", "", "with -from, train the net's net of this phase (backgammon: race), a copy of the main net where it has none, on the phase's positions alone; the main net plays the rest and stays as it is (TD or -target search)")
	fs.Var(layoutFlag{&f.set}, "hidden", "hidden units of the net, or of each hidden layer in order: 40 or 64,32 (0: the game's size for the variant, 40 in backgammon)")
	fs.BoolVar(&f.set.Outcomes, "outcomes", false, "give the net the game's outputs of probabilities (backgammon: win, gammon and backgammon chances of each side) in place of one value")
	fs.StringVar(&f.set.Inputs, "inputs", "", "the net's input set: none for the game's own; threats (dice) adds each side's winning cells, features (backgammon) 48 hand-made features")
	fs.StringVar(&f.set.Target, "target", "td", "what each position moves towards: td (temporal differences), search (the value -target-spec finds) or rollout (the values of -rollouts)")
	fs.StringVar(&f.set.TargetSpec, "target-spec", "", "the search of -target search: an engine spec with a depth; eval=mlp without net= searches with the net being trained (default "+td.DefaultTargetSpec+")")
	fs.StringVar(&f.set.Rollouts, "rollouts", "", "the rollout run whose positions -target rollout fits to their rolled-out values")
	fs.IntVar(&f.set.RolloutRows, "rollout-rows", 0, "the rows of -rollouts to fit, from the first (default: every row from the first whose trials are all played)")
	fs.StringVar(&f.set.StartSuite, "starts", "", "a file of positions (starlab gen) the self-play games start from in turn (default: the variant's start)")
	fs.BoolVar(&f.set.TreeStrap, "treestrap", false, "with -target search, fit every position right after a move in the target search's tree to its value there (TreeStrap), not only the root; the tree is expectimax's, with the net's leaves")
	fs.IntVar(&f.set.Plays, "plays", 0, "with -target search, fit at every decision the afterstates of this many plays best by the net's 1-ply values, not only the one played (0: the one played)")
	fs.IntVar(&f.set.PlayDepth, "play-depth", 0, "with -target search, self-play moves by the target's engine to this depth (0, 1: the net's 1-ply values)")
	fs.StringVar(&f.set.Optimizer, "optimizer", "", "sgd (TD's step) or adam (mini-batches; the default for -target search and rollout, -rate then 0.001)")
	fs.IntVar(&f.set.MiniBatch, "minibatch", 0, "positions per optimiser step of -target search or rollout (default 256 with adam)")
	fs.IntVar(&f.set.Workers, "workers", f.set.Workers, "self-play workers")
	fs.IntVar(&f.set.Batch, "batch", f.set.Batch, "games per round, played with the same weights")
	fs.Int64Var(&f.set.CheckpointEvery, "checkpoint", f.set.CheckpointEvery, "games between checkpoints")
	fs.Int64Var(&f.set.MeasureEvery, "measure-every", f.set.MeasureEvery, "games between measurements against the hand evaluator")
	fs.IntVar(&f.set.MeasureGames, "measure-games", f.set.MeasureGames, "games of each measurement (even)")
	fs.StringVar(&f.set.MeasureSuite, "measure-suite", "", "file of start positions for the measurements, played in turn (starlab gen; default: the variant's start)")
	fs.StringVar(&f.set.JudgeSuite, "judge", "", "held-out suite with exact values (starlab gen -exact): each measurement adds the net's static mean absolute error against them to the curve")
	fs.StringVar(&f.set.JudgePositions, "judge-positions", "", "suite of decisions (starlab export -positions) on which each measurement has -judge-by judge the net's play at depth 1")
	fs.StringVar(&f.set.JudgeBy, "judge-by", "", "engine that judges the net's play on -judge-positions, such as gnubg:plies=1: each measurement adds the mean loss per decision to the curve")
}

// run is the train command: the settings from the flags (or from the run
// to resume), td.Run into a run directory, the result printed.
func (f *trainFlags) run(ctx context.Context, env *Env, args []string) error {
	if len(args) != 0 {
		return usagef("unexpected arguments %v", args)
	}
	run, resumed, err := f.start(env, &f.set, f.set.Seed, f.settings, "json")
	if err != nil {
		return err
	}
	if resumed {
		if f.set.GameName == "" {
			return fmt.Errorf("%s: the run names no game: an older starlab made it; start a new run", run.Dir())
		}
		if f.set.Kit, err = games.Lookup(f.set.GameName); err != nil {
			return err
		}
	}
	var res *td.Result
	kept := "the last checkpoint is kept: continue with starlab train -resume " + run.Dir()
	err = runStage(env, run, "games", f.asJSON, kept, func(p runs.Progress) (err error) {
		res, err = td.Run(ctx, f.set, run, p)
		return err
	})
	if err != nil {
		return err
	}
	return f.print(env, res, func(w io.Writer) { writeTrained(w, res) })
}

// settings takes the settings from the flags, with the game and the
// variant they name, and checks them.
func (f *trainFlags) settings(env *Env) error {
	g, variant, err := f.gf.resolve(env.Flags)
	if err != nil {
		return err
	}
	f.set.Kit, f.set.GameName, f.set.Variant = g, g.Name(), variant
	return f.set.Check()
}

// writeTrained writes the one line of a training's end: its games, time
// and speed, and the net's last score against the hand evaluator.
func writeTrained(w io.Writer, res *td.Result) {
	repeated := ""
	if r := res.Repeated(); r != "" {
		repeated = " (" + r + ")"
	}
	// Games played for points (backgammon's money) have no
	// luck-adjusted score.
	luck := ""
	if l := float64(res.LuckScore); !math.IsNaN(l) {
		luck = fmt.Sprintf(", luck-adjusted %.1f%% ± %.1f%%", 100*l, 100*float64(res.LuckCI95))
	}
	judged := ""
	if e := float64(res.ExactMAE); !math.IsNaN(e) {
		judged = fmt.Sprintf("; static error against the held-out exact values %.4f ± %.4f", e, float64(res.ExactSE))
	}
	if l := float64(res.JudgeLoss); !math.IsNaN(l) {
		judged += fmt.Sprintf("; judged loss per decision %.4f ± %.4f", l, float64(res.JudgeCI95))
	}
	fmt.Fprintf(w, "train: %d games in %.1f s (%.0f games/s); score against %s at depth 1: %.1f%% ± %.1f%% with duplicate dice%s%s%s; net %s (id %s)\n",
		res.Games, res.Seconds, res.GamesPerS, res.Opponent, 100*float64(res.Score), 100*float64(res.ScoreCI95), repeated, luck, judged, res.Net, res.NetID)
}
