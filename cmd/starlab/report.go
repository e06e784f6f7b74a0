package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"starlab/runs"
	"starlab/runs/report"
	"starlab/search"
	"starlab/search/games"
)

// reportFlags are the report command's flag values, which its setFlags
// resets before every run.
type reportFlags struct {
	outputFlags
}

// reportCommand returns the report command, with its own flag state.
func reportCommand() *Command {
	return command(&reportFlags{}, &Command{
		UsageLine: "report [-json] RUN",
		Short:     "write one self-contained HTML page for a run directory",
		Long: `Report writes RUN/report.html: one page, with no network needed (images
inline, no scripts), for a run directory of any stage, or a directory of
run directories (a pipeline run), one section each: the command line,
status, build and settings, and what the stage made (the learning curve;
the fit table and scatter plots; the t table beside the chapter's; the
node table and a nodes-against-depth plot; each match's statistics and a
plot of its scores with their intervals, and its ranking). A pipeline
run's summary and the recipe's reason for each match come first. It
prints the page's path.

A damaged file the page is made from fails the report of one run (exit
1, the file named); among several runs, that run's section says so and
the page is made from the others. A damaged journal, games.parquet,
bench.parquet or tune.parquet, which the page does not show, is named in
its run's section. Each file the page is made without gets one warning
line on stderr, naming it and the problem.`,
	})
}

// setFlags declares the report command's flags on fs.
func (f *reportFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.outputFlags.set(fs, "", "", "print the result as JSON")
}

// run is the report command: the page of the run directory args names
// written into it, its path printed.
func (f *reportFlags) run(ctx context.Context, env *Env, args []string) error {
	if len(args) != 1 {
		return usagef("give one run directory")
	}
	res, err := report.Run(ctx, args[0], games.Lookup, runs.NoProgress)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(env.Stderr, "starlab report: warning: %s\n", w)
	}
	return f.print(env, res, func(w io.Writer) {
		fmt.Fprintf(w, "report: %s (%d sections, %d images)\n", res.Path, res.Sections, res.Images)
	})
}
