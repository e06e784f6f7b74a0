package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestProgressFitsTerminal draws bars through update, every report drawn,
// as a terminal of each width would get them, and checks that no line is
// wider than the terminal (a wider line wraps, and each redraw of it then
// floods the terminal with a new line), and that a status whose length
// changes leaves the bar where it was instead of starting it again.
func TestProgressFitsTerminal(t *testing.T) {
	longStatus := "algorithms cpc:nodes=20000,net=out/20261124-001122-run/01-train/best.json,probcut=out/20261124-001122-run/03-fit/probcut.json vs staretc:nodes=20000,net=out/20261124-001122-run/01-train/best.json  51.2%% ± 3.4%%  %d games/s" // a format: %d games/s
	ansi := regexp.MustCompile(`\x1b\[[0-9;]*m`)
	for _, width := range []int{30, 50, 80, 120, 300} {
		for _, status := range []string{"", "short %d", longStatus} {
			for _, total := range []int64{7, 20000, 123456789} {
				var buf bytes.Buffer
				p := &progress{w: &buf, unit: "games", cols: func() int { return width }}
				var first any
				for i, done := range []int64{0, total / 3, total / 2, total - 1} {
					s := status
					if strings.Contains(s, "%d") {
						s = fmt.Sprintf(s, []int{9, 990, 1000, 98}[i]) // a status of changing length
					}
					p.update(done, total, s)
					if i == 0 {
						first = p.bar
					} else if any(p.bar) != first {
						t.Errorf("width %d, total %d: the bar was made again when the status changed", width, total)
					}
				}
				lines := strings.Split(ansi.ReplaceAllString(buf.String(), ""), "\r")
				for _, line := range lines {
					if n := utf8.RuneCountInString(line); n >= width {
						t.Errorf("width %d, total %d, status %.20q: a line of %d columns: %q", width, total, status, n, line)
					}
				}
				last := lines[len(lines)-1]
				if width >= 80 && (!strings.Contains(last, fmt.Sprintf("(%d/%d)", total-1, total)) || !strings.HasPrefix(last, "games") && !strings.HasPrefix(last, "…")) {
					t.Errorf("width %d, total %d: the last line %q lacks the description or the count", width, total, last)
				}
				// A match's running score ends its status: a long status
				// loses its start, never the score (at 80 columns there is
				// room for it beside a count of a match's size).
				if width >= 80 && total <= 20000 && status == longStatus && !strings.Contains(last, "51.2% ± 3.4%  98 games/s") {
					t.Errorf("width %d, total %d: the last line %q lacks the running score", width, total, last)
				}
			}
		}
	}
	if desc, _ := fitLine("", longStatus, 2000, 300); strings.Contains(desc, "out/") || !strings.Contains(desc, "net=best.json") || !strings.Contains(desc, "games/s") {
		t.Errorf("paths not cut to base names, or more cut: %q", desc)
	}
}
