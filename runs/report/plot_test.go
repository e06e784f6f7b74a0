package report

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

// TestPowerTicks checks that the bench plot's log axis labels every power
// of ten in one form (plot.LogTicks mixed 100000 with 1e+07) and only the
// powers.
func TestPowerTicks(t *testing.T) {
	form := regexp.MustCompile(`^10[⁰¹²³⁴⁵⁶⁷⁸⁹]+$`)
	labelled := 0
	for _, tick := range (powerTicks{}).Ticks(3e3, 4e8) {
		if tick.Label == "" {
			continue
		}
		labelled++
		if e := math.Log10(tick.Value); e != math.Round(e) || tick.Label != power(int(e)) {
			t.Errorf("tick at %g labelled %q, want only powers of ten, labelled as such", tick.Value, tick.Label)
		}
		if !form.MatchString(tick.Label) {
			t.Errorf("tick at %g labelled %q, want 10 with a superscript power", tick.Value, tick.Label)
		}
	}
	if labelled < 5 { // 10⁴ to 10⁸ at least
		t.Errorf("%d labelled ticks from 3e3 to 4e8, want 5 or more", labelled)
	}
	var short []string // an axis of two powers: 2 and 5 labelled too
	for _, tick := range (powerTicks{}).Ticks(90, 2500) {
		if tick.Label != "" && 90 <= tick.Value && tick.Value <= 2500 {
			short = append(short, tick.Label)
		}
	}
	if got := strings.Join(short, " "); got != "10² 2·10² 5·10² 10³ 2·10³" {
		t.Errorf("labels from 90 to 2500: %s", got)
	}
	if got := power(7); got != "10⁷" {
		t.Errorf("power(7) = %q", got)
	}
}

// TestDepthTicks checks that every measured depth gets a label on the
// bench plot's axis and the depths between them a mark without one.
func TestDepthTicks(t *testing.T) {
	ticks := depthTicks{3, 5, 7, 9, 11}.Ticks(2.6, 11.4)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "3 5 7 9 11" || len(ticks) != 9 {
		t.Errorf("labels %q over %d ticks, want 3 5 7 9 11 over the 9 whole numbers", got, len(ticks))
	}
}
