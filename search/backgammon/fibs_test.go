package backgammon

import (
	"strings"
	"testing"
)

// TestFIBSBoard holds the board line to the one gnubg's external socket
// was seen to answer with 8/5 6/5 (the start, 31 to play, a 1-point
// match), and checks that a money board says so and that every line has
// the 52 fields gnubg's parser wants.
func TestFIBSBoard(t *testing.T) {
	b, err := Parse("4HPwATDgc/ABMA O 31")
	if err != nil {
		t.Fatal(err)
	}
	got, err := FIBSBoard(b)
	if err != nil {
		t.Fatal(err)
	}
	want := "board:You:Opp:1:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1"
	if got != want {
		t.Errorf("FIBS board of the start, 31:\n got %s\nwant %s", got, want)
	}
	m, err := Parse("4HPwATDgc/ABMA X 66 money")
	if err != nil {
		t.Fatal(err)
	}
	got, err = FIBSBoard(m)
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Split(got, ":"); len(f) != 53 || f[3] != "9999" || f[33] != "6" || f[34] != "6" {
		t.Errorf("money board %s: want 53 fields, length 9999 and dice 6 6", got)
	}
	before, _ := Parse("4HPwATDgc/ABMA O -")
	if got, err := FIBSBoard(before); err != nil || strings.Split(got, ":")[33] != "0" {
		t.Errorf("the start before the roll: %s, %v; want dice 0 0", got, err)
	}
}
