package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"starlab/runs"
	"starlab/search"
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
	// cols is the terminal's width now; width is what it was when the
	// bar was made.
	cols     func() int
	width    int
	status   string
	throttle time.Duration // the shortest time between redraws
}

func newProgress(w io.Writer, unit string, quiet bool) *progress {
	return &progress{w: w, unit: unit, quiet: quiet || !isTerminal(w),
		cols: func() int { return terminalWidth(w) }, throttle: 100 * time.Millisecond}
}

// terminalWidth is w's width in columns, 80 when it cannot be told.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}

// update is the runs.Progress callback. The bar is made again only when
// the total or the terminal's width changes (a new bar starts its clock
// and its count afresh); a new status is cut to the room the bar leaves.
func (p *progress) update(done, total int64, status string) {
	if p.quiet {
		return
	}
	if status != "" {
		p.status = status
	}
	width := p.cols()
	desc, barWidth := fitLine(p.unit, p.status, total, width)
	if p.bar == nil || total != p.total || width != p.width {
		if p.bar != nil {
			_ = p.bar.Clear()
		}
		p.total, p.width = total, width
		p.bar = p.newBar(total, barWidth, desc)
	}
	p.bar.Describe(desc)
	_ = p.bar.Set64(done)
}

// A progress line is the description, then "  42% ", the bar in
// brackets, the count "(done/total)" and the times "[12s:1m3s]"; a line
// longer than the terminal wraps, and every redraw then starts a new
// line. barStats is the room the line takes besides the description and
// the bar, for a total of that many digits; the times are at most
// "[9h59m59s:9h59m59s]".
func barStats(total int64) int {
	digits := len(strconv.FormatInt(total, 10))
	return len("  100% ") + len("[] ") + len("(/) ") + 2*digits + len("[9h59m59s:9h59m59s] ")
}

// The bar's widths: its usual width, and the least one worth drawing; and
// the room the description gets before the bar is narrowed below its usual
// width.
const (
	barWidth    = 30
	minBarWidth = 10
	descRoom    = 40
)

// fitLine makes a progress line fit a terminal of width columns. The bar's
// width depends on the terminal and the total only, so that it stays put as
// the status changes: its usual width when the description has descRoom
// columns beside it, narrower down to the least one, and 0 (no bar) when
// even that does not fit. The description (unit and status, file paths cut
// to their base names) gets the rest. A status too long for it loses its
// start, and the unit with it, since a status ends with what changes (a
// match's running score, games per second) and begins with what the
// command line already says (the variants): "…51.2% ± 3.4%  98 games/s".
func fitLine(unit, status string, total int64, width int) (string, int) {
	prefix, rest := "", []rune(unit)
	if status != "" {
		// A spec's file paths, such as the net=out/.../01-train/best.json
		// of a pipeline's variant, cut to their base names.
		rest = []rune(search.MapSpecsIn(status, filepath.Base))
		if unit != "" {
			prefix = unit + " "
		}
	}
	room := width - 1 - barStats(total) // 1: the cursor's column
	if room < minBarWidth {
		return "", 0
	}
	bw := min(barWidth, max(minBarWidth, room-descRoom))
	keep := room - bw
	switch {
	case len([]rune(prefix))+len(rest) <= keep:
		return prefix + string(rest), bw
	case len(rest) <= keep:
		return string(rest), bw
	case keep < 8:
		return "", bw
	}
	return "…" + strings.TrimLeft(string(rest[len(rest)-(keep-1):]), " "), bw // 1: the "…"
}

func (p *progress) newBar(total int64, width int, desc string) *progressbar.ProgressBar {
	color := os.Getenv("NO_COLOR") == ""
	theme := progressbar.ThemeASCII
	if color {
		theme = progressbar.Theme{Saucer: "[green]=[reset]", SaucerHead: "[green]>[reset]", SaucerPadding: " ", BarStart: "[", BarEnd: "]"}
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetVisibility(width > 0),
		progressbar.OptionEnableColorCodes(color),
		progressbar.OptionSetTheme(theme),
		progressbar.OptionSetWidth(width),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(p.throttle),
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
// runKitStage is runStage for a stage whose settings name their game
// (kit, recorded by name): the game of a resumed run is looked up first,
// inside the stage, so that a failure to find it is the run's, and the
// stage's result is returned, with its error.
func runKitStage[R any](env *Env, run *runs.Run, unit string, quiet bool, kept string, kit *search.Kit, name *string, stage func(runs.Progress) (R, error)) (res R, err error) {
	err = runStage(env, run, unit, quiet, kept, func(p runs.Progress) error {
		if err := resumedGame(kit, name); err != nil {
			return err
		}
		var err error
		res, err = stage(p)
		return err
	})
	return res, err
}

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
