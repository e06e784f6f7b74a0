package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"starlab/runs"
	"starlab/search"
	"starlab/selfplay"
)

// exportFlags are the export command's flag values, which its setFlags
// resets before every run.
type exportFlags struct {
	outputFlags
	set selfplay.ExportSettings
}

// exportCommand returns the export command, with its own flag state.
func exportCommand() *Command {
	return command(&exportFlags{}, &Command{
		UsageLine: "export [-positions N] [-out DIR] [-json] MATCH",
		Short:     "write a match's games in a format another program opens",
		Long: `Export writes the games of the match run MATCH, a match of two engines,
into a new run directory in a format another program reads, so that it
can replay and analyse them: for backgammon, Jellyfish match files, which
GNU Backgammon opens with "import mat FILE" (and eXtreme Gammon, BGBlitz
and others read). A money match is one session, session.mat ("0 point
match"); a 1pt match is one one-point match a game, game-0001.mat and on,
since a match file holds one match and a one-point match ends after its
game. The match's first engine is each file's first player, whichever
side it played; each game is replayed through the rules as it is written.
A game an outside engine forfeited is left out and counted, and a game
that did not start at the variant's start (a match from a -suite) is
refused: the format's games start there. The game is the match's.

With -positions N it writes positions in place of games, for every game:
positions.suite, a suite of at most N decisions with more than one legal
move from each game, evenly spaced through it, each position once, in the
match's order (the positions "analyze -suite" judges engines on).`,
	})
}

// setFlags declares the export command's flags on fs.
func (f *exportFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.set = selfplay.ExportSettings{}
	f.outputFlags.set(fs, newRunUsage, "", "print the result as JSON")
	fs.IntVar(&f.set.Positions, "positions", 0, "write a suite of at most this many decisions a game, in place of the games")
}

// run is the export command: the match's game looked up, selfplay.Export
// into a new run directory, the files printed.
func (f *exportFlags) run(ctx context.Context, env *Env, args []string) error {
	if _, err := matchOfTwo(args, &f.set.Match, &f.set.Kit, &f.set.GameName); err != nil {
		return err
	}
	// What the export refuses is refused before a run directory exists.
	if _, _, err := selfplay.ExportFiles(ctx, f.set); err != nil {
		return err
	}
	run, _, err := f.start(env, &f.set, 0, func(*Env) error { return nil })
	if err != nil {
		return err
	}
	var res *selfplay.ExportResult
	err = runStage(env, run, "", f.asJSON, "", func(p runs.Progress) (err error) {
		res, err = selfplay.Export(ctx, f.set, run, p)
		return err
	})
	if err != nil {
		return err
	}
	return f.print(env, res, func(w io.Writer) {
		fmt.Fprintf(w, "export: %d games as %s in %s", res.Games, res.Format, run.Dir())
		if res.Forfeits > 0 {
			fmt.Fprintf(w, " (%d forfeited games left out)", res.Forfeits)
		}
		fmt.Fprintln(w)
	})
}

// matchOfTwo reads the one argument of a command that takes a match of two
// engines (export, analyze) before any run directory exists
// (selfplay.MatchOfTwo), puts its absolute path in match (a resumed run
// finds it from anywhere), looks its game up into kit and gameName, and
// returns its variant.
func matchOfTwo(args []string, match *string, kit *search.Kit, gameName *string) (string, error) {
	if len(args) != 1 {
		return "", usagef("give one match run directory")
	}
	set, err := selfplay.MatchOfTwo(args[0])
	if err != nil {
		return "", err
	}
	if *match, err = filepath.Abs(args[0]); err != nil {
		return "", err
	}
	if err := resumedGame(kit, &set.GameName); err != nil {
		return "", err
	}
	*gameName = set.GameName
	return set.Variant, nil
}
