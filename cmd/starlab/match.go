package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"strings"

	"starlab/runs"
	"starlab/search"
	"starlab/search/games"
	"starlab/selfplay"
)

// matchFlags are the match command's settings and flag values, which its
// setFlags resets before every run.
type matchFlags struct {
	outputFlags
	set selfplay.MatchSettings
	gf  gameFlags
}

// matchCommand returns the match command, with its own flag state.
func matchCommand() *Command {
	return command(&matchFlags{}, &Command{
		UsageLine: "match [flags] VARIANT VARIANT [VARIANT...] | match -resume RUN",
		Short:     "play engine variants against each other with trustworthy statistics",
		Long: `Match plays engine variants against each other in pairs of games with the
same dice and the colours swapped (duplicate dice), so that luck cancels
within a pair, and reports:

  - wins, draws, losses and score with a 95% interval over games (the
    papers' "50.6% ± 0.5%"), Elo with its interval, cutechess-cli's
    likelihood of superiority over the decisive games;
  - the pentanomial counts over pairs, the interval and LOS over pairs,
    and how much pairing narrowed the interval (variance ratio);
  - the luck-adjusted score: each roll's luck, valued by a fixed reference
    search (-luck), is taken out of the result, leaving an unbiased
    estimate with less variance (variance ratio to the plain estimates);
  - with -sprt elo0,elo1,alpha,beta, the generalised log-likelihood ratio of
    the pentanomial counts (normalized Elo, as fishtest), stopping the match
    at the first pair count where a bound is crossed.

A variant is algo:key=value,... with the keys of the search command's flags
(` + strings.Join(search.OptionKeys(), " ") + `) and at
least one limit: staretc:depth=9, cpc:movetime=100ms,t=1.6. In Dice a
depth must be odd: players search rolled positions, and an even depth ends
on a chance ply, which no evaluator reads (ChanceBreakthrough's depth counts
decisions only, so any depth plays). Variants are named by their canonical spec
(keys in a fixed order, defaults left out), so two spellings of one engine
are one variant. With more than two variants every pair of them plays
(round robin), or only the first against the others with -gauntlet, each
pairing with dice of its own; a cross table and a ranking follow.

The game is -game (default dice), played in its -variant (for Dice,
-n and -m give the variant "<n>x<n>-<m>", the 5x5 board with win length 4 by
default). Games start from the variant's start (Dice: the empty board), or
from the positions of -suite, in the game's notation (DPN for Dice; a Dice
position after the roll starts before it; pair i starts from position i
mod the suite size, so each is played in both seats). Each worker owns its engines and clears their tables before
every game: with depth or node limits the results do not depend on
-concurrency. Every finished pair is journalled; after a kill or Ctrl-C,
-resume RUN continues where the run stopped and ends with the statistics
an uninterrupted run would have given. -shard i/N plays only the pairs
whose index is i modulo N. The run directory gets games.parquet (one row
per game) and summary.json; -json prints the summary on stdout.`,
		Interspersed: true,
	})
}

// setFlags resets the settings to their defaults and declares the match
// command's flags on fs.
func (f *matchFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.set = selfplay.DefaultMatchSettings(search.Kit{})
	f.outputFlags.set(fs, newRunUsage, resumeUsage, "print the summary as JSON on stdout")
	fs.IntVar(&f.set.Games, "games", f.set.Games, "games per pairing (even: pairs of games)")
	fs.Uint64Var(&f.set.Seed, "seed", f.set.Seed, "seed of the dice")
	fs.IntVar(&f.set.Concurrency, "concurrency", runtime.NumCPU(), "games played at once")
	fs.StringVar(&f.set.Suite, "suite", "", "file of start positions in the game's notation (default: the variant's start)")
	f.gf.set(fs, "Dice's board size (-variant NxN-M)", "Dice's win length (-variant NxN-M)")
	fs.StringVar(&f.set.SPRT, "sprt", "", "sequential test elo0,elo1,alpha,beta (normalized Elo)")
	fs.StringVar(&f.set.Luck, "luck", f.set.Luck, "reference search that values the chance events, or none (default: staretc:depth=3,eval=HAND,tt=1 with the game's hand evaluator, pairs in Dice; in backgammon depth 1 with the built-in net; none, and -luck refused, where the games are played for points, as backgammon's money, whose luck no match reports)")
	fs.BoolVar(&f.set.Gauntlet, "gauntlet", false, "with 3+ variants, play only the first against the others")
	fs.Var(&f.set.Shard, "shard", "play only shard i/N of the pairs")
}

// run is the match command: the settings from the flags (or from the run
// to resume), selfplay.RunMatch into a run directory, the report printed.
func (f *matchFlags) run(ctx context.Context, env *Env, args []string) error {
	if f.resume != "" && len(args) != 0 {
		return usagef("-resume takes no variants: they are read from the run")
	}
	run, resumed, err := f.start(env, &f.set, f.set.Seed, func(env *Env) error { return f.settings(ctx, env, args) }, "json", "concurrency")
	if err != nil {
		return err
	}
	var rep *selfplay.MatchReport
	kept := "the finished pairs are kept: continue with starlab match -resume " + run.Dir()
	err = runStage(env, run, "games", f.asJSON, kept, func(p runs.Progress) (err error) {
		if resumed && f.set.GameName != "" { // a run of an older format names none, and is refused
			if f.set.Kit, err = games.Lookup(f.set.GameName); err != nil {
				return err
			}
		}
		rep, err = selfplay.RunMatch(ctx, f.set, run, p)
		return err
	})
	if err != nil {
		return err
	}
	// A match of one pairing prints that pairing's summary.
	var v any = rep
	if len(rep.Pairings) == 1 {
		v = rep.Pairings[0]
	}
	return f.print(env, v, rep.WriteText)
}

// settings takes the settings from the flags, with the game and the
// variant they name and the variants args gives, and checks them.
func (f *matchFlags) settings(ctx context.Context, env *Env, args []string) error {
	g, variant, err := f.gf.resolve(env.Flags)
	if err != nil {
		return err
	}
	f.set.Kit, f.set.Variant, f.set.Engines = g, variant, args
	// Before the run directory: an engine that cannot run
	// is refused in one line, leaving nothing behind.
	if _, err := f.set.Prepare(ctx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while starting the engines; nothing was written")
		}
		return err
	}
	return nil
}
