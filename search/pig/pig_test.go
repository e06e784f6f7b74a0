package pig

import (
	"slices"
	"strings"
	"testing"

	"starlab/search/game"
	"starlab/search/game/gametest"
)

func TestContract(t *testing.T) {
	for _, v := range []string{"2", "12", "100", "bag12", "bag40"} {
		gametest.Check(t, Game{}, Description().MoveSep, v, 1, 100)
	}
}

// TestTurns pins the rules: a roll of 2 to 6 leaves the roller to decide,
// a 1 and a hold pass the turn, the goal reached by a roll ends the game
// with the roller to move, and the bag's weights are the tiles left.
func TestTurns(t *testing.T) {
	g := Game{}
	for _, tc := range []struct {
		start string
		steps []string // "roll", "hold" or a face
		want  string
	}{
		{"12 0 0 0 0", []string{"roll", "4", "roll", "3"}, "12 0 0 7 0"},
		{"12 0 0 7 0", []string{"roll", "1"}, "12 0 0 0 1"},
		{"12 0 0 7 0", []string{"hold"}, "12 7 0 0 1"},
		{"12 3 5 0 1", []string{"hold"}, "12 3 5 0 0"},
		{"12 7 5 4 0", []string{"roll", "2"}, "12 13 5 0 0"},
		{"bag12 0 0 - 1", []string{"roll", "3", "roll", "3", "roll", "2"}, "bag12 0 0 233 1"},
		{"bag12 0 0 233 1", []string{"hold"}, "bag12 0 8 - 0"},
	} {
		s, err := g.Parse(tc.start)
		if err != nil {
			t.Fatal(err)
		}
		for _, step := range tc.steps {
			if s.Kind() == game.Decision {
				m, err := g.ParseMove(s, step)
				if err != nil {
					t.Fatal(err)
				}
				s.Play(m)
				continue
			}
			events, _ := s.Outcomes(nil)
			found := false
			for _, e := range events {
				if strings.HasSuffix(g.FormatEvent(s, e), " "+step) {
					s.Happen(e)
					found = true
				}
			}
			if !found {
				t.Fatalf("%s: no event %s at %s", tc.start, step, s)
			}
		}
		if s.String() != tc.want {
			t.Errorf("%s then %v: %s, want %s", tc.start, tc.steps, s, tc.want)
		}
	}
	s, _ := g.Parse("bag12 0 0 233 r1")
	events, total := s.Outcomes(nil)
	var w []uint16
	for _, e := range events {
		w = append(w, e.Weight)
	}
	// The 1s, a 2 of two, no 3, and two each of 4, 5 and 6.
	if want := []uint16{2, 1, 2, 2, 2}; !slices.Equal(w, want) || total != 9 {
		t.Errorf("bag12 0 0 233 r1: weights %v of %d, want %v of 9", w, total, want)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"12 0 0 0", "want 5 fields"},
		{"101 0 0 0 0", "want a goal from 2 to 100"},
		{"bagx 0 0 - 0", "want a goal from 2 to 100"},
		{"12 0 x 0 0", `score "x"`},
		{"12 0 0 1 0", `turn total "1"`},
		{"12 0 0 3 2", `state "2"`},
		{"12 9 0 3 0", "reach the goal"},
		{"12 12 12 0 0", "both sides at the goal"},
		{"12 12 0 0 1", "is not to move"},
		{"bag12 0 0 2222 0", "bag draws"},
		{"bag12 0 0 17 0", "bag draws"},
	} {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) = %v, want one line with %q", tc.text, err, tc.want)
		}
	}
}
