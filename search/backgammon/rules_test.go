package backgammon

import (
	"testing"
)

// TestOpeningPlays holds the plays of the start position per roll to
// gnubg's counts (the research notes' table, gnubg's hint).
func TestOpeningPlays(t *testing.T) {
	want := map[string]int{"11": 42, "21": 15, "31": 16, "41": 14, "51": 8, "61": 10, "22": 75, "32": 17, "42": 18, "52": 8, "62": 14, "33": 73, "43": 17, "53": 9, "63": 14, "44": 52, "54": 9, "64": 14, "55": 4, "65": 7, "66": 11}
	for r := 0; r < Rolls; r++ {
		hi, lo := RollDice(r)
		b := StartBoard(OnePoint)
		b.Roll(hi, lo)
		var codes [MaxPlays]int16
		n := b.Moves(&codes)
		key := string(rune('0'+hi)) + string(rune('0'+lo))
		if n != want[key] {
			t.Errorf("roll %s: %d plays, gnubg %d", key, n, want[key])
		}
		for _, c := range codes[:n] {
			var u Undo
			before := *b
			b.MakeSaving(int(c), &u)
			if b.key != b.computeKey() {
				t.Fatalf("roll %s play %d: incremental key differs", key, c)
			}
			b.UnmakeRestoring(int(c), &u)
			if *b != before {
				t.Fatalf("roll %s play %d: unmake does not restore", key, c)
			}
		}
	}
}
