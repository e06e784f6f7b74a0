// Package cli runs a program of subcommands in the shape of cmd/go's
// (starlab's): each command declares its flags, whose defaults may come
// from the game the command line names, and runs with what is left of
// its arguments; every error is one line, a usage error (runs.IsUsage)
// or a bad flag exits 2 and a failure while working 1. A flag may be given
// once unless its value says it is repeatable, and a string flag not with
// an empty value; flags may follow the arguments where a command allows
// it. Package main of cmd/starlab lists
// its commands and calls Program.Run; any Go program can do the same.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"starlab/runs"
	"starlab/search"
)

// Program is a command-line program of subcommands.
type Program struct {
	Name    string // the program's name in messages and help ("starlab")
	Summary string // the first line of its usage
	// Commands returns every command, each with flag state of its own: a
	// call of Run builds its own, so runs in one process (the tests)
	// share nothing.
	Commands func() []*Command
	// GameOf returns the game a command line names with -game, before its
	// flags are parsed, so that their defaults are the game's.
	GameOf func(args []string) search.Kit
}

// commands returns the program's commands sorted by name.
func (p *Program) commands() []*Command {
	cs := p.Commands()
	slices.SortFunc(cs, func(a, b *Command) int { return strings.Compare(a.Name, b.Name) })
	return cs
}

// Command is one subcommand of a Program, in the shape of cmd/go's commands.
type Command struct {
	Name      string // the word after the program's name
	UsageLine string // "show DPN"
	Short     string // one line for "starlab help"
	Long      string // the text of "starlab help NAME"
	// SetFlags resets the command's settings to their defaults and
	// declares its flags on fs; Run reads the values through the closures
	// it set up. It runs before every Run, so that one process (a test)
	// can run a command many times. g is the game the command line names
	// with -game (Program.GameOf), whose defaults (evaluator, suite, depths,
	// pairs, phases) the flags take: a flag given wins, one not given has
	// the game's value, and -h shows it.
	SetFlags func(fs *flag.FlagSet, g search.Kit)
	// Run runs the command with the arguments left after the flags.
	Run func(ctx context.Context, env *Env, args []string) error
	// Interspersed lets flags follow the arguments ("match A B -games 10").
	// Commands whose arguments are DPN, where "-" and "-1" are cells and
	// rolls, leave it off: their flags come first.
	Interspersed bool
}

// Env is what a command may touch of the outside world.
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	Flags  *flag.FlagSet
	// Args is the command line as given, for the run manifest: the
	// program's name, the command name, then its flags and arguments.
	Args []string
}

// lookup returns the command called name, nil if there is none.
func lookup(cs []*Command, name string) *Command {
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// FlagGiven reports whether the flag called name was set on the command
// line.
func FlagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// Run runs the command line args (without the program's name) and returns
// the exit code: 0 on success, 1 on a failure while working and 2 on a usage
// error (runs.IsUsage) or a bad flag, each error on one line.
func (p *Program) Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cs := p.commands()
	if len(args) == 0 {
		p.usage(cs, stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		return p.help(cs, args[1:], stdout, stderr)
	}
	cmd := lookup(cs, name)
	if cmd == nil {
		fmt.Fprintf(stderr, "%s: unknown command %q; run '%s help'\n", p.Name, name, p.Name)
		return 2
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd.SetFlags != nil {
		cmd.SetFlags(fs, p.GameOf(args[1:]))
	}
	rest, err := parseFlags(fs, args[1:], cmd.Interspersed)
	if err == nil {
		err = emptyGiven(fs)
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			p.commandHelp(cmd, fs, stdout)
			return 0
		}
		fmt.Fprintf(stderr, "%s %s: %v (see '%s %s -h')\n", p.Name, name, err, p.Name, name)
		return 2
	}
	env := &Env{Stdout: stdout, Stderr: stderr, Flags: fs, Args: append([]string{p.Name}, args...)}
	if err := cmd.Run(ctx, env, rest); err != nil {
		// One line, whatever the error: a usage error points at the help.
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		if runs.IsUsage(err) {
			fmt.Fprintf(stderr, "%s %s: %s (see '%s %s -h')\n", p.Name, name, msg, p.Name, name)
			return 2
		}
		fmt.Fprintf(stderr, "%s %s: %s\n", p.Name, name, msg)
		return 1
	}
	return 0
}

// parseFlags parses args into fs and returns the arguments that are not
// flags. With interspersed set, flags may come after arguments too; "--"
// ends the flags.
func parseFlags(fs *flag.FlagSet, args []string, interspersed bool) ([]string, error) {
	// Each flag may be given once, but for those that say they are
	// repeatable (tune's -cpc); the flags get their own values back after
	// parsing, for the help text and for the commands that look at them.
	fs.VisitAll(func(f *flag.Flag) { f.Value = once(f.Name, f.Value) })
	defer fs.VisitAll(func(f *flag.Flag) {
		switch v := f.Value.(type) {
		case *onceValue:
			f.Value = v.Value
		case onceBool:
			f.Value = v.Value
		}
	})
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if !interspersed {
		return fs.Args(), nil
	}
	var rest []string
	for {
		left := fs.Args()
		if len(left) == 0 {
			return rest, nil
		}
		if len(args) > len(left) && args[len(args)-len(left)-1] == "--" {
			return append(rest, left...), nil
		}
		rest = append(rest, left[0])
		args = left[1:]
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
	}
}

// emptyGiven refuses a string flag given an empty value (-variant ""):
// leaving a string flag out means its default, and an empty value, often
// a shell variable that expanded to nothing, would silently mean the same
// where the user meant something else.
func emptyGiven(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok && err == nil {
			if s, ok := g.Get().(string); ok && s == "" {
				err = fmt.Errorf("-%s is given an empty value; leave it out for its default", f.Name)
			}
		}
	})
	return err
}

// onceValue is a flag that may be given once: a second -depth would
// silently win over the first, which the user may not have meant.
type onceValue struct {
	flag.Value
	name string
	set  bool
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return fmt.Errorf("-%s is given twice", v.name)
	}
	v.set = true
	return v.Value.Set(s)
}

// onceBool is a onceValue for a boolean flag, which takes no argument.
type onceBool struct{ *onceValue }

func (onceBool) IsBoolFlag() bool { return true }

// repeatable is a flag that may be given more than once, each time adding
// a value rather than replacing the last.
type repeatable interface{ Repeatable() bool }

func once(name string, v flag.Value) flag.Value {
	if r, ok := v.(repeatable); ok && r.Repeatable() {
		return v
	}
	o := &onceValue{Value: v, name: name}
	if b, ok := v.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return onceBool{o}
	}
	return o
}

// usage writes the program's summary and its commands.
func (p *Program) usage(cs []*Command, w io.Writer) {
	fmt.Fprintf(w, "%s\n\nUsage:\n\n\t%s <command> [flags] [arguments]\n\nThe commands are:\n\n", p.Summary, p.Name)
	for _, c := range cs {
		fmt.Fprintf(w, "\t%-10s %s\n", c.Name, c.Short)
	}
	fmt.Fprintf(w, "\nUse \"%s help <command>\" or \"%s <command> -h\" for more about a command.\n", p.Name, p.Name)
}

func (p *Program) help(cs []*Command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		p.usage(cs, stdout)
		return 0
	}
	cmd := lookup(cs, args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "%s help: unknown command %q; run '%s help'\n", p.Name, args[0], p.Name)
		return 2
	}
	fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	if cmd.SetFlags != nil {
		cmd.SetFlags(fs, p.GameOf(args[1:]))
	}
	p.commandHelp(cmd, fs, stdout)
	return 0
}

func (p *Program) commandHelp(cmd *Command, fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: %s %s\n\n%s\n", p.Name, cmd.UsageLine, strings.TrimSpace(cmd.Long))
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprint(w, "\nFlags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}
