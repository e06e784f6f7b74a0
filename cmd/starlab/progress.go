package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"starlab/runs"
)

// isTerminal reports whether w is a terminal: progress is drawn only there,
// so that redirected stderr (a log file, a test buffer) gets none of it.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress draws a stage's runs.Progress reports as a bar on w, only when
// w is a terminal and quiet (set by -json) is false. Colour is off when
// NO_COLOR is set (https://no-color.org). The bar clears its line when
// done, so that what follows on the terminal starts clean.
type progress struct {
	w     io.Writer
	unit  string
	quiet bool
	bar   *progressbar.ProgressBar
	total int64
}

func newProgress(w io.Writer, unit string, quiet bool) *progress {
	return &progress{w: w, unit: unit, quiet: quiet || !isTerminal(w)}
}

// update is the runs.Progress callback.
func (p *progress) update(done, total int64, status string) {
	if p.quiet {
		return
	}
	if p.bar == nil || total != p.total {
		if p.bar != nil {
			_ = p.bar.Clear()
		}
		p.total = total
		p.bar = p.newBar(total)
	}
	if status != "" {
		p.bar.Describe(status)
	}
	_ = p.bar.Set64(done)
}

func (p *progress) newBar(total int64) *progressbar.ProgressBar {
	color := os.Getenv("NO_COLOR") == ""
	theme := progressbar.ThemeASCII
	if color {
		theme = progressbar.Theme{Saucer: "[green]=[reset]", SaucerHead: "[green]>[reset]", SaucerPadding: " ", BarStart: "[", BarEnd: "]"}
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(p.unit),
		progressbar.OptionEnableColorCodes(color),
		progressbar.OptionSetTheme(theme),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true))
}

// done erases the bar from its line.
func (p *progress) done() {
	if p.bar != nil {
		_ = p.bar.Clear()
		_ = p.bar.Exit()
	}
}

// runStage announces the run directory on stderr (unless quiet), warns
// when a resumed run was started by another build, runs the stage with a
// progress bar, and records in the run's manifest how it ended, releasing
// the run. A stage stopped by Ctrl-C or SIGTERM returns "interrupted; " and
// kept, which says what survives and how to go on.
func runStage(env *Env, run *runs.Run, unit string, quiet bool, kept string, stage func(runs.Progress) error) error {
	if !quiet {
		fmt.Fprintf(env.Stderr, "starlab %s: run directory %s\n", env.Args[1], run.Dir())
	}
	if m, now := run.Manifest(), runs.BuildVersion(); len(m.Resumes) > 0 && m.Build != now {
		fmt.Fprintf(env.Stderr, "starlab %s: warning: run %s was started by build %q, this is %q; results of the two builds may differ\n", env.Args[1], run.Dir(), m.Build, now)
	}
	bar := newProgress(env.Stderr, unit, quiet)
	err := stage(bar.update)
	bar.done()
	if ferr := run.Finish(err); err == nil {
		err = ferr
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted; %s", kept)
	}
	return err
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
