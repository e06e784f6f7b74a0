package backgammon

import (
	"strings"
	"testing"
)

// TestPictureGnubg holds Picture's board to gnubg's own drawing of the
// same positions (testdata/gnubg-boards.jsonl, written by
// testdata/gnubg-boards.py): points and bars of 1 to 15 checkers, the
// fifth place showing a count of 6 to 9 as a digit and 10 to 15 as A to
// F. What stands beside the board differs (we print pips, gnubg the
// players), so each line is compared up to the board's right edge.
func TestPictureGnubg(t *testing.T) {
	type record struct {
		ID    string   `json:"id"`
		Board []string `json:"board"`
	}
	n := readJSONL(t, "testdata/gnubg-boards.jsonl", func(line int, r record) {
		onRoll, other, err := ParsePositionID(r.ID)
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		b, err := NewBoard(Money, 1, onRoll, other, 3, 1) // X on roll, as gnubg drew it
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		got := strings.Split(strings.TrimSuffix(b.Picture(), "\n"), "\n")
		if len(got) != len(r.Board) {
			t.Fatalf("line %d (%s): %d lines, gnubg draws %d:\n%s", line, r.ID, len(got), len(r.Board), b.Picture())
		}
		for i, want := range r.Board {
			if g := got[i][:min(len(got[i]), len(want))]; g != want {
				t.Errorf("line %d (%s), board line %d:\n got %q\nwant %q (gnubg)", line, r.ID, i+1, g, want)
			}
		}
	})
	if n < 6 {
		t.Fatalf("%d boards in testdata/gnubg-boards.jsonl, want 6", n)
	}
}

// TestPictureTallPoint pins the fifth place of a point of 6 to 15
// checkers to gnubg's characters (drawboard.c: "     X6789ABCDEF"), where
// a count's last digit once stood (10 drawn as 0).
func TestPictureTallPoint(t *testing.T) {
	for n, want := range map[int8]string{5: "X", 6: "6", 9: "9", 10: "A", 12: "C", 15: "F"} {
		var me, opp Points
		me[6], me[8] = n, Checkers-n
		opp[6] = Checkers
		b, err := NewBoard(Money, 1, me, opp, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.Picture(), "\n")
		// Point 6 is the first column right of the bar; the fifth place
		// is the line below the BAR line.
		if got := lines[7][26:27]; got != want {
			t.Errorf("%d checkers on a point: fifth place %q, want %q\n%s", n, got, want, b.Picture())
		}
	}
}
