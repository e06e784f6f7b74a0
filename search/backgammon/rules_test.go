package backgammon

import (
	"strings"
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

// TestParsePasted reads positions pasted from gnubg and XG, and refuses
// bad ones in one line.
func TestParsePasted(t *testing.T) {
	for text, want := range map[string]string{
		"4HPwATDgc/ABMA:cIkKAAAAAAAE":                         "4HPwATDgc/ABMA X 52 money",
		"4HPwATDgc/ABMA:cAkAAAAAAAAA":                         "4HPwATDgc/ABMA X - money",
		"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10": "4HPwATDgc/ABMA X 52 money",
		"4HPwATDgc/ABMA O 13":                                 "4HPwATDgc/ABMA O 31",
		"4HPwATDgc/ABMA X - money":                            "4HPwATDgc/ABMA X - money",
	} {
		b, err := Parse(text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if b.String() != want {
			t.Errorf("%s reads as %s, want %s", text, b, want)
		}
	}
	for _, bad := range []string{
		"4HPwATDgc/ABMA O 71", "4HPwATDgc/ABMA Z 31", "4HPwATDgc/ABMA o 31", "4HPwATDgc/ABMA x -", "4HPwATDgc/ABMA OX 31", "4HPwATDgc/ABM O 31", "4HPwATDgc/ABMA O",
		"AAAAAAAAAAAAAA O -", "4HPwATDgc/ABMA O 31 7pt", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10",
		"4HPwATDgc/ABMA:QYkqASAAIAAA", "//////////////:cIkKAAAAAAAE", "4HPwATDgc/ABMA O 31 money extra",
	} {
		if _, err := Parse(bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	// More than 15 checkers, and a point held by both sides.
	sixteen := Start
	sixteen[6]++
	if _, err := NewBoard(OnePoint, 0, sixteen, Start, 3, 1); err == nil {
		t.Error("16 checkers accepted")
	}
	both := Start
	both[Off], both[1] = 1, 1
	both[6]--
	if _, err := NewBoard(OnePoint, 0, both, Start, 3, 1); err == nil {
		t.Error("a point held by both sides accepted")
	}
}

// TestForPoints: a variant is played for points, before any game is, as
// its finished games say: money's winner scores points, 1pt's not.
func TestForPoints(t *testing.T) {
	won := Points{Off: Checkers}
	lost := Points{6: 15}
	for _, v := range []Variant{OnePoint, Money} {
		b, err := NewBoard(v, 1, lost, won, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Description().ForPoints(v.String()), b.Points() > 0; !b.Over() || got != want {
			t.Errorf("%s: ForPoints %v, a finished game's points %d", v, got, b.Points())
		}
	}
	if Description().ForPoints("7pt") {
		t.Error("ForPoints of an unknown variant")
	}
}
