package dice

import (
	"strings"
	"testing"
)

// FuzzParseDPN feeds arbitrary text to ParseDPN: it must never panic, must
// reject with a one-line error, and whatever it accepts must print to a DPN
// that parses back to the very same board, whose incremental fields equal a
// from-scratch recompute and the brute-force reference.
func FuzzParseDPN(f *testing.F) {
	seeds := []string{
		exampleDPN,
		"5 4 b -1" + emptyCells(5),
		"3 3 r -1 b r b b r r r b b",
		"4 4 b -1 b b r r r r b b b b r r r r b b",
		"3 2 r 1 - - - - b - - - -",
		"17 8 b 16" + emptyCells(17),
		"17 17 r 3 b" + strings.Repeat(" -", 17*17-1),
		"9 6 b 4 - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - b - - - - - - - - - - - - - - - - - - - - r - - - - - - - - - - - - - - - - - - - -",
		"",
		"5 4 b",
		"five 4 b -1" + emptyCells(5),
		"2 2 b -1 - - - -",
		"18 5 b -1" + emptyCells(18),
		"5 1 b -1" + emptyCells(5),
		"5 6 b -1" + emptyCells(5),
		"5 4 x -1" + emptyCells(5),
		"5 4 b z" + emptyCells(5),
		"5 4 b -2" + emptyCells(5),
		"5 4 b 5" + emptyCells(5),
		"3 3 b 0 b r b r - - - - -",
		"3 3 r 0 b - - r - - b - -",
		"5 4 b -1" + emptyCells(5) + " -",
		"3 3 b -1 - - - - x - - - -",
		"3 3 b -1 r - - - - - - - -",
		"3 3 r -1 b b - - - - - - -",
		"3 3 b -1 b - - - - - - - -",
		"3 3 r -1 b b b r r - - - -",
		"+5 04 b +0" + emptyCells(5),
		"５ ４ b -1" + emptyCells(5),
		"3 3 b -1 - - - - - - - - é",
		"3\u00a03 b -1 - - - - - - - - -",
		"\x00\xff\xfe 𝔟 𝔯 \u200b",
		"3 3 b -1 - - - - - - - - -\n3 3 b -1",
		"9223372036854775807 2 b -1",
		"3 3 b 9223372036854775808 - - - - - - - - -",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseDPN(s)
		if err != nil {
			if b != nil {
				t.Fatalf("ParseDPN(%q) returned a board and error %v", s, err)
			}
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("ParseDPN(%q) error is not one non-empty line: %q", s, msg)
			}
			return
		}
		out := b.DPN()
		b2, err := ParseDPN(out)
		if err != nil {
			t.Fatalf("ParseDPN(%q) ok, but its DPN %q does not parse: %v", s, out, err)
		}
		if again := b2.DPN(); again != out {
			t.Fatalf("DPN not stable:\n%q\n%q", out, again)
		}
		if *b2 != *b {
			t.Fatalf("re-parsed board differs for %q", s)
		}
		re := *b
		re.recompute()
		if re != *b {
			t.Fatalf("recompute differs for %q", s)
		}
		if w, won := b.Winner(); won && (w != b.SideToMove().Other() || b.Roll() != NoRoll) {
			t.Fatalf("ParseDPN accepted %q, won by %v with %v to move and roll %d", s, w, b.SideToMove(), b.Roll())
		}
		if b.Roll() != NoRoll && !b.IsLegal(boardMoves(b)[0]) {
			t.Fatalf("rolled position %q has no legal first move", s)
		}
		checkAgainstRef(t, b, refFromDPN(t, out), "fuzz input "+s)
	})
}
