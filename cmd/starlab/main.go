// Command starlab searches, trains and plays two-player games with chance,
// Dice, ChanceBreakthrough and backgammon, with the *-minimax family of
// algorithms. Run "starlab help" for its subcommands. The machinery of
// subcommands, flags and exit codes is package starlab/cli; this package
// lists the commands, each flags -> settings -> one library call -> print.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"starlab/cli"
	"starlab/runs"
)

// Command and Env are cli's, under the names every command file uses.
type (
	Command = cli.Command
	Env     = cli.Env
)

// usagef is a usage error: a bad argument or input file; it exits with 2.
func usagef(format string, args ...any) error { return runs.Usagef(format, args...) }

// flagGiven reports whether the flag called name was set on the command
// line.
func flagGiven(fs *flag.FlagSet, name string) bool { return cli.FlagGiven(fs, name) }

// program is starlab: its commands, and the game a command line names.
var program = &cli.Program{
	Name:    "starlab",
	Summary: "starlab searches, trains and plays two-player games with chance (Dice, ChanceBreakthrough and backgammon).",
	Commands: func() []*Command {
		return []*Command{benchCommand(), collectCommand(), analyzeCommand(), evalCommand(), exportCommand(), fitCommand(), genCommand(), matchCommand(), mergeCommand(), pipelineCommand(), playCommand(), reportCommand(), rolloutCommand(), searchCommand(), showCommand(), trainCommand(), tuneCommand()}
	},
	GameOf: gameOf,
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

// run is main without the process: it returns the exit code, 0 on success,
// 1 on failure and 2 on a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return program.Run(ctx, args, stdout, stderr)
}
