package backgammon

import (
	"math"
	"strings"
	"testing"

	"starlab/search/game"
)

// gnubgPlays is a line of testdata/gnubg-plays.jsonl: a position, its
// roll, and its legal plays as gnubg lists them (testdata/gnubg-plays.py
// made it).
type gnubgPlays struct {
	Case     string `json:"case"`
	Position string `json:"position"`
	Plays    []struct {
		Move  string `json:"move"`
		After string `json:"after"`
	} `json:"plays"`
}

// readAll returns every record of a JSON-lines file.
func readAll[T any](t *testing.T, path string) []T {
	t.Helper()
	var out []T
	readJSONL(t, path, func(_ int, r T) { out = append(out, r) })
	return out
}

// TestPlaysEqualGnubg holds every position of the fixture to gnubg's list
// of legal plays: the same resulting positions, each once, each written
// as gnubg writes it, and every text read back to its play.
func TestPlaysEqualGnubg(t *testing.T) {
	cases := readAll[gnubgPlays](t, "testdata/gnubg-plays.jsonl")
	perCase := map[string]int{}
	for _, c := range cases {
		perCase[c.Case]++
		f := strings.Fields(c.Position)
		b, err := Parse(f[0] + " O " + f[1])
		if err != nil {
			t.Fatalf("%s: %v", c.Position, err)
		}
		want := map[string]string{}
		for _, p := range c.Plays {
			want[p.After] = p.Move
		}
		if len(want) != len(c.Plays) {
			t.Fatalf("%s: gnubg lists a resulting position twice", c.Position)
		}
		var codes [MaxPlays]int16
		n := b.Moves(&codes)
		if len(c.Plays) == 0 {
			if n != 1 || codes[0] != PassPlay {
				t.Errorf("%s (%s): gnubg has no legal play, we have %d", c.Position, c.Case, n)
			}
			continue
		}
		if n != len(c.Plays) {
			t.Errorf("%s (%s): %d plays, gnubg %d", c.Position, c.Case, n, len(c.Plays))
		}
		for _, code := range codes[:n] {
			text := b.FormatPlay(int(code))
			after := *b
			after.Play(game.Move(code))
			id := strings.Fields(after.String())[0]
			move, ok := want[id]
			switch {
			case !ok:
				t.Errorf("%s (%s): our play %s reaches %s, which gnubg does not list", c.Position, c.Case, text, id)
			case move != text:
				t.Errorf("%s (%s): we write %q, gnubg %q", c.Position, c.Case, text, move)
			}
			if back, err := b.ParsePlay(move); err != nil || back != int(code) {
				t.Errorf("%s (%s): gnubg's %q reads as %d (%v), not %d", c.Position, c.Case, move, back, err, code)
			}
		}
	}
	t.Logf("%d positions: %v", len(cases), perCase)
}

// TestBearoffExact holds two-sided bear-offs to their exact value, solved
// here to the end of the game, and that to gnubg's bear-off database
// (testdata/gnubg-bearoff.jsonl): 2·P(win) - 1 for the side on roll.
// gnubg's database keeps each value as a whole number over 65535,
// rounded down at each step of its making: its P(win) is within 3e-5.
func TestBearoffExact(t *testing.T) {
	cases := readAll[struct {
		Position string  `json:"position"`
		PWin     float64 `json:"pwin"`
	}](t, "testdata/gnubg-bearoff.jsonl")
	memo := map[uint64]float64{}
	for _, c := range cases {
		b, err := Parse(c.Position + " O -")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := RaceValue(b, memo), 2*c.PWin-1; math.Abs(got-want)/2 > 3e-5 {
			t.Errorf("%s: exact %.7f, gnubg's database %.7f", c.Position, got, want)
		}
	}
	t.Logf("%d bear-offs, %d positions solved", len(cases), len(memo))
}
