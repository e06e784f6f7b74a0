package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal: progress is drawn only there,
// so that redirected stderr (a log file, a test buffer) gets none of it.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// newProgress returns a progress bar over total steps described by desc. It
// draws on w only when w is a terminal and quiet (set by -json) is false;
// otherwise it draws nowhere, so callers use it unconditionally. Colour is
// off when NO_COLOR is set (https://no-color.org). The bar clears its line
// when finished, so that what follows on the terminal starts clean; on an
// early exit call stopProgress.
func newProgress(w io.Writer, total int64, desc string, quiet bool) *progressbar.ProgressBar {
	if quiet || !isTerminal(w) {
		return progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(io.Discard),
			progressbar.OptionSetVisibility(false))
	}
	color := os.Getenv("NO_COLOR") == ""
	theme := progressbar.ThemeASCII
	if color {
		theme = progressbar.Theme{Saucer: "[green]=[reset]", SaucerHead: "[green]>[reset]", SaucerPadding: " ", BarStart: "[", BarEnd: "]"}
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
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

// stopProgress erases bar from its line and stops it, for an exit before it
// has finished.
func stopProgress(bar *progressbar.ProgressBar) {
	_ = bar.Clear()
	_ = bar.Exit()
}
