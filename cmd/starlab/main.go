// Command starlab searches, trains and plays two-player games with chance,
// Dice and ChanceBreakthrough, with the *-minimax family of algorithms. Run
// "starlab help" for its subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"starlab/runs"
	"starlab/search"
)

// Command is one starlab subcommand, in the shape of cmd/go's commands.
type Command struct {
	Name      string // the word after "starlab"
	UsageLine string // "show DPN"
	Short     string // one line for "starlab help"
	Long      string // the text of "starlab help NAME"
	// SetFlags resets the command's settings to their defaults and
	// declares its flags on fs; Run reads the values through the closures
	// it set up. It runs before every Run, so that one process (a test)
	// can run a command many times. g is the game the command line names
	// with -game (gameOf), whose defaults (evaluator, suite, depths,
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
	// Args is the command line as given, for the run manifest:
	// "starlab", the command name, then its flags and arguments.
	Args []string
}

// usagef is a usage error: a bad argument or input file; it exits with 2.
func usagef(format string, args ...any) error { return runs.Usagef(format, args...) }

// commands returns every command, sorted by name, each with flag state of
// its own: a call of run builds its own, so runs in one process (the
// tests) share nothing.
func commands() []*Command {
	cs := []*Command{benchCommand(), collectCommand(), evalCommand(), fitCommand(), genCommand(), matchCommand(), mergeCommand(), pipelineCommand(), playCommand(), reportCommand(), searchCommand(), showCommand(), trainCommand(), tuneCommand()}
	slices.SortFunc(cs, func(a, b *Command) int { return strings.Compare(a.Name, b.Name) })
	return cs
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

// main cancels the context on the first Ctrl-C or SIGTERM, so that a long
// stage stops at once and keeps what it finished; the signal handler is
// then removed, so a second Ctrl-C ends the process at once.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	stopProfile, err := runs.StartCPUProfile()
	if err != nil {
		fmt.Fprintf(os.Stderr, "starlab: %v\n", err)
		os.Exit(1)
	}
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

// flagGiven reports whether the flag called name was set on the command
// line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// run is main without the process: it returns the exit code, 0 on success,
// 1 on failure and 2 on a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cs := commands()
	if len(args) == 0 {
		mainUsage(cs, stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		return help(cs, args[1:], stdout, stderr)
	}
	cmd := lookup(cs, name)
	if cmd == nil {
		fmt.Fprintf(stderr, "starlab: unknown command %q; run 'starlab help'\n", name)
		return 2
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd.SetFlags != nil {
		cmd.SetFlags(fs, gameOf(args[1:]))
	}
	rest, err := parseFlags(fs, args[1:], cmd.Interspersed)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			commandHelp(cmd, fs, stdout)
			return 0
		}
		fmt.Fprintf(stderr, "starlab %s: %v (see 'starlab %s -h')\n", name, err, name)
		return 2
	}
	env := &Env{Stdout: stdout, Stderr: stderr, Flags: fs, Args: append([]string{"starlab"}, args...)}
	if err := cmd.Run(ctx, env, rest); err != nil {
		// One line, whatever the error: a usage error points at the help.
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		if runs.IsUsage(err) {
			fmt.Fprintf(stderr, "starlab %s: %s (see 'starlab %s -h')\n", name, msg, name)
			return 2
		}
		fmt.Fprintf(stderr, "starlab %s: %s\n", name, msg)
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

func mainUsage(cs []*Command, w io.Writer) {
	fmt.Fprint(w, "starlab searches, trains and plays two-player games with chance (Dice, ChanceBreakthrough and backgammon).\n\nUsage:\n\n\tstarlab <command> [flags] [arguments]\n\nThe commands are:\n\n")
	for _, c := range cs {
		fmt.Fprintf(w, "\t%-10s %s\n", c.Name, c.Short)
	}
	fmt.Fprint(w, "\nUse \"starlab help <command>\" or \"starlab <command> -h\" for more about a command.\n")
}

func help(cs []*Command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		mainUsage(cs, stdout)
		return 0
	}
	cmd := lookup(cs, args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "starlab help: unknown command %q; run 'starlab help'\n", args[0])
		return 2
	}
	fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	if cmd.SetFlags != nil {
		cmd.SetFlags(fs, gameOf(args[1:]))
	}
	commandHelp(cmd, fs, stdout)
	return 0
}

func commandHelp(cmd *Command, fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: starlab %s\n\n%s\n", cmd.UsageLine, strings.TrimSpace(cmd.Long))
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprint(w, "\nFlags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}
