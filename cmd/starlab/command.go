package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"slices"
	"strings"

	"starlab/runs"
	"starlab/search"
	"starlab/search/games"
)

// flagState is a command's flag values. setFlags resets them to their
// defaults, the game g's where a game has its own, and declares the
// command's flags on fs, before every run, so that one process (a test)
// can run a command many times; run runs the command with the values the
// flags gave.
type flagState interface {
	setFlags(fs *flag.FlagSet, g search.Kit)
	run(ctx context.Context, env *Env, args []string) error
}

// command returns the command whose help c gives, run with the flag state
// s, which is its own. Its name is the first word of its usage line, as
// cmd/go's commands' are, so that the two cannot disagree.
func command(s flagState, c *Command) *Command {
	c.Name, _, _ = strings.Cut(c.UsageLine, " ")
	c.SetFlags, c.Run = s.setFlags, s.run
	return c
}

// The usage texts of -out and -resume, one each, so that the commands that
// make runs explain them in the same words.
const (
	newRunUsage    = "run directory (default: a new one under out/)"
	resumeUsage    = "resume the unfinished run in this directory (latest: the newest under out/)"
	remeasureUsage = "measure the unfinished run in this directory again (latest: the newest under out/)"
)

// outputFlags are where a command's work goes and how it prints it: -out,
// its run directory; -resume, an unfinished run it continues; -json, its
// result as JSON on stdout.
type outputFlags struct {
	out, resume string
	asJSON      bool
}

// set resets the flags and declares them on fs with the usage texts given;
// a command leaves out a flag whose text is "" (merge has no -json, fit
// no -resume).
func (f *outputFlags) set(fs *flag.FlagSet, out, resume, asJSON string) {
	*f = outputFlags{}
	if out != "" {
		fs.StringVar(&f.out, "out", "", out)
	}
	if resume != "" {
		fs.StringVar(&f.resume, "resume", "", resume)
	}
	if asJSON != "" {
		fs.BoolVar(&f.asJSON, "json", false, asJSON)
	}
}

// start starts the command's run. With -resume it is the unfinished run
// -resume names, whose manifest's settings replace settings, and every
// flag but keep is refused, as the flags would seem to change them; a
// flag of keep that was given (one that changes no result, such as the
// number of workers) keeps its value over the manifest's. Without, fill
// takes the settings from the flags and checks them, and the run is a new
// one (in -out, or under out/) with seed as its seed.
func (f *outputFlags) start(env *Env, settings any, seed uint64, fill func(*Env) error, keep ...string) (*runs.Run, bool, error) {
	given := map[string]string{}
	if f.resume != "" {
		if err := checkResumeFlags(env.Flags, keep...); err != nil {
			return nil, false, err
		}
		env.Flags.Visit(func(fl *flag.Flag) { given[fl.Name] = fl.Value.String() })
	} else if err := fill(env); err != nil {
		return nil, false, err
	}
	run, resumed, err := runs.Start("out", f.out, f.resume, env.Args[1], env.Args, settings, seed)
	for name, v := range given {
		if err == nil && name != "resume" {
			err = env.Flags.Set(name, v) // over the manifest's value
		}
	}
	return run, resumed, err
}

// print writes the command's result on stdout: res as one JSON object with
// -json, else as text writes it.
func (f *outputFlags) print(env *Env, res any, text func(w io.Writer)) error {
	if f.asJSON {
		return json.NewEncoder(env.Stdout).Encode(res)
	}
	text(env.Stdout)
	return nil
}

// checkResumeFlags refuses, with -resume, every flag but those in keep: a
// resumed run continues with the settings in its manifest, which the
// other flags would seem to change.
func checkResumeFlags(fs *flag.FlagSet, keep ...string) error {
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "resume" && !slices.Contains(keep, f.Name) {
			bad = append(bad, "-"+f.Name)
		}
	})
	if len(bad) > 0 {
		return usagef("-resume continues a run with its own settings; %v cannot change them", bad)
	}
	return nil
}

// resumedGame fills in g, the game of a resumed run's settings, whose
// manifest names it by name: Dice where a run of an earlier version names
// none. The game of a new run, which the flags named, stays.
func resumedGame(g *search.Kit, name *string) error {
	if g.Game != nil {
		return nil
	}
	if *name == "" {
		*name = games.Default
	}
	var err error
	*g, err = lookupGame(*name)
	return err
}

// noArgs refuses arguments, for a command that takes none.
func noArgs(args []string) error {
	if len(args) != 0 {
		return usagef("unexpected arguments %q", strings.Join(args, " "))
	}
	return nil
}
