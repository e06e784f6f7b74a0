package backgammon

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
)

// idFromBits is the Position ID whose 80-bit string has the given bits
// set, packed as gnubg packs it: built without PositionID, to pin its bit
// layout.
func idFromBits(bits ...int) string {
	var key [10]byte
	for _, b := range bits {
		key[b/8] |= 1 << (b % 8)
	}
	return base64.RawStdEncoding.EncodeToString(key[:])
}

// idWithOff returns p with Off set to the checkers missing from its board.
func idWithOff(p Points) Points {
	n := 0
	for i := 1; i <= Bar; i++ {
		n += int(p[i])
	}
	p[Off] = int8(Checkers - n)
	return p
}

func TestPositionIDStart(t *testing.T) {
	const want = "4HPwATDgc/ABMA"
	if got := PositionID(&Start, &Start); got != want {
		t.Errorf("PositionID(Start, Start) = %q, want %q", got, want)
	}
	onRoll, other, err := ParsePositionID(want)
	if err != nil || onRoll != Start || other != Start {
		t.Errorf("ParsePositionID(%q) = %v, %v, %v; want Start twice", want, onRoll, other, err)
	}
}

// TestPositionID pins the encoding on positions whose bit strings are
// worked by hand: the side not on roll first, points 1 to 24 and the bar,
// a 1 per checker and a 0 after each place.
func TestPositionID(t *testing.T) {
	for _, tc := range []struct {
		name          string
		onRoll, other Points
		id            string
	}{
		// 25 zeros for the side not on roll, then a checker on point 1.
		{"one checker left on roll, none other", Points{1: 1}, Points{}, idFromBits(25)},
		// The other side's point 1 (bit 0), then its bar: 24 zeros later.
		{"one each", Points{3: 1}, Points{1: 1, Bar: 1}, idFromBits(0, 25, 27+2)},
		{"on roll on the bar", Points{Bar: 2}, Points{}, idFromBits(25+24, 25+25)},
		{"fifteen on a point", Points{6: 15}, Points{Bar: 15}, idFromBits(func() []int {
			var b []int
			for i := 0; i < 15; i++ {
				b = append(b, 24+i, 40+5+i)
			}
			return b
		}()...)},
		// From gnubg: the other side has borne off all its checkers.
		{"finished game", Points{4: 1}, Points{}, "AAAAEAAAAAAAAA"},
		// From gnubg: both on the bar, one home board open.
		{"both on the bar", Points{1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, Bar: 3}, Points{2: 2, 3: 2, 4: 2, 5: 2, 6: 2, Bar: 3}, "tm0AANy2bQAAHA"},
	} {
		if got := PositionID(&tc.onRoll, &tc.other); got != tc.id {
			t.Errorf("%s: PositionID = %q, want %q", tc.name, got, tc.id)
		}
		onRoll, other, err := ParsePositionID(tc.id)
		if err != nil || onRoll != idWithOff(tc.onRoll) || other != idWithOff(tc.other) {
			t.Errorf("%s: ParsePositionID(%q) = %v, %v, %v; want %v, %v", tc.name, tc.id, onRoll, other, err, idWithOff(tc.onRoll), idWithOff(tc.other))
		}
	}
}

// randomIDSides returns two sides of a random position of a game: each
// side's checkers spread over its points, bar and off, no point held by
// both, and not both on the bar against closed boards.
func randomIDSides(r *rand.Rand) (onRoll, other Points) {
	for {
		onRoll, other = Points{}, Points{}
		for _, side := range []*Points{&onRoll, &other} {
			for n := r.IntN(Checkers + 1); n > 0; n-- {
				p := 1 + r.IntN(24)
				switch r.IntN(10) {
				case 0:
					p = Bar
				case 1, 2:
					p = 1 + r.IntN(6)
				}
				side[p]++
			}
		}
		for p := 1; p <= 24; p++ {
			if onRoll[p] > 0 && other[25-p] > 0 {
				if r.IntN(2) == 0 {
					onRoll[p] = 0
				} else {
					other[25-p] = 0
				}
			}
		}
		onRoll, other = idWithOff(onRoll), idWithOff(other)
		if checkIDSides(&onRoll, &other) == nil {
			return onRoll, other
		}
	}
}

// TestPositionIDRoundTrip checks that ParsePositionID reads back what
// PositionID writes, Off included, on random positions.
func TestPositionIDRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		onRoll, other := randomIDSides(r)
		id := PositionID(&onRoll, &other)
		a, b, err := ParsePositionID(id)
		if err != nil || a != onRoll || b != other {
			t.Fatalf("ParsePositionID(PositionID(%v, %v) = %q) = %v, %v, %v", onRoll, other, id, a, b, err)
		}
		if len(id) != PositionIDLen {
			t.Fatalf("PositionID(%v, %v) = %q, %d characters", onRoll, other, id, len(id))
		}
	}
}

func TestParsePositionIDErrors(t *testing.T) {
	sixteen := make([]int, 16) // 16 checkers on the other side's point 1
	for i := range sixteen {
		sixteen[i] = i
	}
	for _, tc := range []struct{ id, want string }{
		{"", "0 characters, want 14"},
		{"4HPwATDgc/ABM", "13 characters"},
		{"4HPwATDgc/ABMAA", "15 characters"},
		{"4HPwATDgc/ABM=", `character 14, '=', is not base64`},
		{"4HPwATDgc-ABMA", `character 10, '-', is not base64`},
		{"4HPwATDgc/ABM\n", "not base64"},
		{"4HPwATDgc/ABMB", "beyond the 80"},
		{"4HPwATDgc/ABMP", "beyond the 80"},
		{idFromBits(sixteen...), "the side not on roll has more than 15 checkers"},
		{"4HPwATDg6+ADYA", "the side on roll has more than 15 checkers"},
		{"AAAA/38AAAD//w", "more than 15 checkers"},
		{"AQAAAAAAAgAAAA", "point 24 of the side on roll (1 of the other side) is held by both sides"},
		{"27YBAHDbtgEAcA", "both sides are on the bar against closed home boards"},
		// No checkers; bit 60 is after the 50 separators.
		{idFromBits(60), "bit 60 is set after the two sides' 50 places"},
		{idFromBits(25, 79), "bit 79 is set after"},
	} {
		_, _, err := ParsePositionID(tc.id)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "position ID") {
			t.Errorf("ParsePositionID(%q): error %v, want %q", tc.id, err, tc.want)
		}
	}
}

// FuzzParsePositionID feeds arbitrary text to ParsePositionID: it must
// never panic, must refuse with a one-line error, and what it accepts
// must be a position of a game whose ID is the text itself.
func FuzzParsePositionID(f *testing.F) {
	for _, s := range []string{
		"4HPwATDgc/ABMA", "AAAAEAAAAAAAAA", "tm0AANy2bQAAHA", "AAAAAAAAAAAAAA", "//////////////",
		"4HPwATDg6+ADYA", "AQAAAAAAAgAAAA", "27YBAHDbtgEAcA", "4HPwATDgc/ABMB", "4HPwATDgc/ABM",
		"", "4HPwATDgc/ABM\xff", "4HPwATDgc/AB==",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		onRoll, other, err := ParsePositionID(id)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("ParsePositionID(%q) error is not one line: %q", id, msg)
			}
			return
		}
		a, b := onRoll, other
		if err := checkIDSides(&a, &b); err != nil || a != onRoll || b != other {
			t.Fatalf("ParsePositionID(%q) = %v, %v, not a position: %v", id, onRoll, other, err)
		}
		if got := PositionID(&onRoll, &other); got != id {
			t.Fatalf("ParsePositionID(%q) = %v, %v, whose ID is %q", id, onRoll, other, got)
		}
	})
}
