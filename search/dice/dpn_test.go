package dice

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

const exampleDPN = "5 4 b 1 - - - - - b - - r - r b - - - r - b - - - - - - -"

// emptyCells returns n*n empty cells as DPN text, with a leading space.
func emptyCells(n int) string { return strings.Repeat(" -", n*n) }

// generatedPositions plays seeded random games and returns the DPNs of the
// positions met, before and after the roll, with the reference for each,
// and the final position of every game that was won.
func generatedPositions(t testing.TB, games int, seed uint64) []*refPos {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	var out []*refPos
	for g := 0; g < games; g++ {
		n := MinN + rng.IntN(MaxN-MinN+1)
		m := randomWinLength(rng, n)
		b, _ := New(n, m)
		p := newRefPos(n, m)
		for {
			if _, won := b.Winner(); won {
				q := *p
				out = append(out, &q)
				break
			}
			if rng.IntN(4) == 0 || b.Over() {
				q := *p
				out = append(out, &q)
			}
			if b.Over() {
				break
			}
			rolls := boardRolls(b)
			k := rolls[rng.IntN(len(rolls))]
			b.SetRoll(k)
			p.roll = k
			if rng.IntN(4) == 0 {
				q := *p
				out = append(out, &q)
			}
			moves := boardMoves(b)
			cell := moves[rng.IntN(len(moves))]
			b.Make(cell)
			p.play(cell/n, cell%n)
		}
	}
	return out
}

func TestDPNExample(t *testing.T) {
	b := mustParse(t, exampleDPN)
	if b.DPN() != exampleDPN || b.String() != exampleDPN {
		t.Fatalf("DPN() = %q, want %q", b.DPN(), exampleDPN)
	}
	if b.N() != 5 || b.M() != 4 || b.SideToMove() != Blue || b.Roll() != 1 || b.Checkers() != 6 || b.Empties() != 19 {
		t.Fatalf("example parsed as n=%d m=%d stm=%s roll=%d checkers=%d", b.N(), b.M(), b.SideToMove(), b.Roll(), b.Checkers())
	}
	want := map[string]uint8{"a2": BlueCell, "d2": RedCell, "a3": RedCell, "b3": BlueCell, "a4": RedCell, "c4": BlueCell}
	for cell := 0; cell < 25; cell++ {
		if got := b.At(cell); got != want[FormatMove(cell, 5)] {
			t.Errorf("At(%s) = %d, want %d", FormatMove(cell, 5), got, want[FormatMove(cell, 5)])
		}
	}
	checkAgainstRef(t, b, refFromDPN(t, exampleDPN), "example")
}

// TestDPNRoundTrip checks print(parse(x)) == x on generated positions, pre-
// and post-roll, and that the parsed board matches the reference.
func TestDPNRoundTrip(t *testing.T) {
	games := 400
	if testing.Short() || raceEnabled {
		games = 60
	}
	pos := generatedPositions(t, games, 1)
	pre, post := 0, 0
	for _, p := range pos {
		s := p.dpn()
		b, err := ParseDPN(s)
		if err != nil {
			t.Fatalf("ParseDPN(%q): %v", s, err)
		}
		if got := b.DPN(); got != s {
			t.Fatalf("round trip:\n got %q\nwant %q", got, s)
		}
		// Any run of whitespace separates fields.
		messy := "\t " + strings.ReplaceAll(s, " ", " \n\t ") + "\r\n"
		b2, err := ParseDPN(messy)
		if err != nil || *b2 != *b {
			t.Fatalf("ParseDPN with extra whitespace: %v (%q)", err, messy)
		}
		checkAgainstRef(t, b, p, "round trip")
		if p.roll < 0 {
			pre++
		} else {
			post++
		}
	}
	if pre < 100 || post < 100 {
		t.Fatalf("only %d pre-roll and %d post-roll positions generated", pre, post)
	}
}

func TestDPNErrors(t *testing.T) {
	e5 := emptyCells(5)
	full17 := strings.Repeat(" -", 18*18)
	tests := []struct {
		name string
		dpn  string
		word string // a word the error must contain
	}{
		{"empty string", "", "fields"},
		{"too few fields", "5 4 b", "fields"},
		{"non-number n", "five 4 b -1" + e5, "board size \"five\" is not a number"},
		{"n too small", "2 2 b -1" + emptyCells(2), "board size 2 out of range"},
		{"n too large", "18 5 b -1" + full17, "board size 18 out of range"},
		{"n negative", "-5 4 b -1" + e5, "board size -5 out of range"},
		{"non-number m", "5 four b -1" + e5, "win length \"four\" is not a number"},
		{"m too small", "5 1 b -1" + e5, "win length 1 out of range"},
		{"m larger than n", "5 6 b -1" + e5, "win length 6 out of range"},
		{"bad side letter", "5 4 x -1" + e5, "side to move \"x\""},
		{"side in capitals", "5 4 B -1" + e5, "side to move \"B\""},
		{"side as a word", "5 4 blue -1" + e5, "side to move \"blue\""},
		{"roll not a number", "5 4 b one" + e5, "roll \"one\" is not a number"},
		{"roll below -1", "5 4 b -2" + e5, "roll -2 out of range"},
		{"roll equal to n", "5 4 b 5" + e5, "roll 5 out of range"},
		{"roll on a full row", "3 3 b 0 b r b r - - - - -", "full row"},
		{"roll on a full column", "3 3 r 0 b - - r - - b - -", "full column"},
		{"too many cells", "5 4 b -1" + emptyCells(5) + " -", "26 cells"},
		{"too few cells", "5 4 b -1" + strings.Repeat(" -", 24), "24 cells"},
		{"no cells", "5 4 b -1", "0 cells"},
		{"unknown cell character", "3 3 b -1 - - - - x - - - -", "cell 5 (b2) is \"x\""},
		{"cell in capitals", "3 3 r -1 B - - - - - - - -", "cell 1 (a1) is \"B\""},
		{"dot for empty", "3 3 b -1 . - - - - - - - -", "cell 1 (a1)"},
		{"glued cells", "3 3 b -1 -- - - - - - - -", "8 cells"},
		{"unicode cell", "3 3 b -1 - - - - - - - - é", "cell 9 (c3) is \"é\""},
		{"red has more checkers", "3 3 b -1 r - - - - - - - -", "0 blue and 1 red checkers, impossible with blue to move"},
		{"blue two ahead", "3 3 r -1 b b - - - - - - -", "2 blue and 0 red checkers, impossible with red to move"},
		{"blue to move with blue one ahead", "3 3 b -1 b - - - - - - - -", "1 blue and 0 red checkers, impossible with blue to move"},
		{"red to move with equal counts", "3 3 r -1 b r - - - - - - -", "1 blue and 1 red checkers, impossible with red to move"},
		{"won by the side to move", "3 3 b -1 b b b r r - r - -", "won by blue, who is to move"},
		{"won by both", "4 3 r -1 b b b - r r r - b - - - - - - -", "both blue and red"},
		{"won, rolled", "5 4 r 0 b b b b - r r r - - - - - - - - - - - - - - - - -", "has a roll"},
		{"won twice over", "5 3 r -1 b b b - - r r - - - b b b - - r r - - - r - - - -", "ended sooner"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseDPN(tc.dpn)
			if err == nil {
				t.Fatalf("ParseDPN(%q) = %s, want an error", tc.dpn, b.DPN())
			}
			if b != nil {
				t.Errorf("ParseDPN(%q) returned a board with its error", tc.dpn)
			}
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") {
				t.Errorf("error is not one line: %q", msg)
			}
			if !strings.Contains(msg, tc.word) {
				t.Errorf("ParseDPN(%q) error %q does not contain %q", tc.dpn, msg, tc.word)
			}
			if !strings.HasPrefix(msg, "DPN") {
				t.Errorf("error %q does not name the input (DPN)", msg)
			}
		})
	}
}

func TestMoveNotationRoundTrip(t *testing.T) {
	for n := MinN; n <= MaxN; n++ {
		seen := map[string]bool{}
		for cell := 0; cell < n*n; cell++ {
			s := FormatMove(cell, n)
			want := string(rune('a'+cell%n)) + strconv.Itoa(cell/n+1)
			if s != want {
				t.Fatalf("FormatMove(%d, %d) = %q, want %q", cell, n, s, want)
			}
			if seen[s] {
				t.Fatalf("FormatMove(%d, %d) = %q twice", cell, n, s)
			}
			seen[s] = true
			got, err := ParseMove(s, n)
			if err != nil || got != cell {
				t.Fatalf("ParseMove(%q, %d) = %d, %v; want %d", s, n, got, err, cell)
			}
			// The cell in the same place of a smaller board is off it.
			if r, c := cell/n, cell%n; r == n-1 || c == n-1 {
				if n-1 >= MinN {
					if _, err := ParseMove(s, n-1); err == nil {
						t.Fatalf("ParseMove(%q, %d) accepted a cell off the board", s, n-1)
					}
				}
			}
		}
	}
	for _, tc := range []struct {
		cell, n int
		want    string
	}{{0, 5, "a1"}, {24, 5, "e5"}, {4, 5, "e1"}, {20, 5, "a5"}, {7, 5, "c2"}, {288, 17, "q17"}, {16, 17, "q1"}, {272, 17, "a17"}, {40, 9, "e5"}} {
		if got := FormatMove(tc.cell, tc.n); got != tc.want {
			t.Errorf("FormatMove(%d, %d) = %q, want %q", tc.cell, tc.n, got, tc.want)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		word string
	}{
		{"", 5, "not a column letter"},
		{"a", 5, "not a column letter"},
		{"1", 5, "not a column letter"},
		{"a0", 5, "off the 5x5 board"},
		{"z1", 5, "off the 5x5 board"},
		{"f1", 5, "off the 5x5 board"},
		{"a6", 5, "off the 5x5 board"},
		{"r1", 17, "off the 17x17 board"},
		{"a18", 17, "off the 17x17 board"},
		{"1a", 5, "not a column letter"},
		{"a+1", 5, "not a column letter"},
		{"a-1", 5, "not a column letter"},
		{"A1", 5, "not a column letter"},
		{" a1", 5, "not a column letter"},
		{"a1 ", 5, "not a column letter"},
		{"a 1", 5, "not a column letter"},
		{"aa1", 5, "not a column letter"},
		{"a1.0", 5, "not a column letter"},
		{"é1", 5, "not a column letter"},
		{"a99999999999999999999", 5, "not a column letter"},
	}
	for _, tc := range tests {
		c, err := ParseMove(tc.s, tc.n)
		if err == nil {
			t.Errorf("ParseMove(%q, %d) = %d, want an error", tc.s, tc.n, c)
			continue
		}
		if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.Contains(msg, tc.word) {
			t.Errorf("ParseMove(%q, %d) error %q, want one line containing %q", tc.s, tc.n, msg, tc.word)
		}
	}
}
