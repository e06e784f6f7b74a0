package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestProgressFitsTerminal draws bars as a terminal of each width would
// get them and checks that no line is wider than the terminal: a wider
// line wraps, and each redraw of it then floods the terminal with a new
// line.
func TestProgressFitsTerminal(t *testing.T) {
	longStatus := "algorithms cpc:nodes=20000,net=out/20261124-001122-run/01-train/best.json,probcut=out/20261124-001122-run/03-fit/probcut.json vs staretc:nodes=20000,net=out/20261124-001122-run/01-train/best.json  51.2% ± 3.4%  581 games/s"
	ansi := regexp.MustCompile(`\x1b\[[0-9;]*m`)
	for _, width := range []int{30, 50, 80, 120, 300} {
		for _, status := range []string{"", "short", longStatus} {
			for _, total := range []int64{7, 20000, 123456789} {
				desc, bw := fitLine("games", status, total, width)
				var buf bytes.Buffer
				p := &progress{w: &buf, unit: "games"}
				bar := p.newBar(total, bw, desc)
				bar.Describe(desc)
				_ = bar.Set64(total / 3)
				_ = bar.Set64(total - 1)
				for _, line := range strings.Split(ansi.ReplaceAllString(buf.String(), ""), "\r") {
					if n := utf8.RuneCountInString(line); n >= width {
						t.Errorf("width %d, total %d, status %.20q: a line of %d columns: %q", width, total, status, n, line)
					}
				}
				if width >= 80 && (desc == "" || bw < minBarWidth) {
					t.Errorf("width %d: description %q and a bar of %d: the terminal has room for both", width, desc, bw)
				}
			}
		}
	}
	if desc, _ := fitLine("", longStatus, 2000, 300); strings.Contains(desc, "out/") || !strings.Contains(desc, "net=best.json") || !strings.Contains(desc, "games/s") {
		t.Errorf("paths not cut to base names, or more cut: %q", desc)
	}
}
