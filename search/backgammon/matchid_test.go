package backgammon

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
)

// matchIDFromBits is the Match ID whose 72-bit key has the given bit
// fields set: pairs of (first bit, value), packed least significant bit
// first, built without MatchID.String.
func matchIDFromBits(fields ...int) string {
	var key [9]byte
	for i := 0; i < len(fields); i += 2 {
		for b := 0; fields[i+1]>>b > 0; b++ {
			if fields[i+1]>>b&1 == 1 {
				bit := fields[i] + b
				key[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	return base64.RawStdEncoding.EncodeToString(key[:])
}

func TestParseMatchID(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   string
		want MatchID
	}{
		// gnubg's manual: 2-4 in a 9-point match, player 0 owns a 2-cube,
		// player 1 has rolled 5-2.
		{"manual example", "QYkqASAAIAAA", MatchID{
			CubeValue: 2, CubeOwner: 0, OnRoll: 1, State: StatusPlaying, Turn: 1,
			Dice: [2]int{5, 2}, MatchLength: 9, Score: [2]int{2, 4}, Jacoby: true,
		}},
		// gnubg.matchid: the start of a money game with the Jacoby rule,
		// player 1 on roll with 3-1.
		{"money start", "cIkFAAAAAAAA", MatchID{
			CubeValue: 1, CubeOwner: -1, OnRoll: 1, State: StatusPlaying, Turn: 1,
			Dice: [2]int{3, 1}, Jacoby: true,
		}},
		// gnubg after "set xgid" of the start XGID: Jacoby off.
		{"xgid start", "cIkKAAAAAAAE", MatchID{
			CubeValue: 1, CubeOwner: -1, OnRoll: 1, State: StatusPlaying, Turn: 1,
			Dice: [2]int{5, 2},
		}},
		{"every field", matchIDFromBits(midCube, 12, midOwner, 1, midMove, 1, midCrawford, 1,
			midState, int(StatusResigned), midTurn, 0, midDoubled, 1, midResigned, 3, midDie0, 6, midDie1, 6,
			midLength, 64, midScore0, 63, midScore1, 64), MatchID{
			CubeValue: 4096, CubeOwner: 1, OnRoll: 1, Crawford: true, State: StatusResigned, Turn: 0,
			Doubled: true, Resigned: 3, Dice: [2]int{6, 6}, MatchLength: 64, Score: [2]int{63, 64}, Jacoby: true,
		}},
		{"no game, lower die first", matchIDFromBits(midOwner, 3, midDie0, 2, midDie1, 5, midNoJacoby, 1), MatchID{
			CubeValue: 1, CubeOwner: -1, State: StatusNone, Dice: [2]int{2, 5},
		}},
		{"money scores", matchIDFromBits(midOwner, 3, midScore0, 1<<15-1, midScore1, 12345), MatchID{
			CubeValue: 1, CubeOwner: -1, Score: [2]int{1<<15 - 1, 12345}, Jacoby: true,
		}},
	} {
		got, err := ParseMatchID(tc.id)
		if err != nil || got != tc.want {
			t.Errorf("%s: ParseMatchID(%q) = %+v, %v; want %+v", tc.name, tc.id, got, err, tc.want)
			continue
		}
		want := tc.id
		if got.Dice[0] < got.Dice[1] {
			got.Dice[0], got.Dice[1] = got.Dice[1], got.Dice[0]
			want = matchIDFromBits(midOwner, 3, midDie0, 5, midDie1, 2, midNoJacoby, 1)
		}
		if s := got.String(); s != want {
			t.Errorf("%s: %+v.String() = %q, want %q", tc.name, got, s, want)
		}
	}
}

// TestMatchIDRoundTrip checks that ParseMatchID reads back what
// MatchID.String writes, on random valid match states.
func TestMatchIDRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		m := MatchID{
			CubeValue: 1 << r.IntN(13), CubeOwner: r.IntN(3) - 1, OnRoll: r.IntN(2),
			State: GameStatus(r.IntN(5)), Turn: r.IntN(2), Doubled: r.IntN(2) == 1, Resigned: r.IntN(4),
			Jacoby: r.IntN(2) == 1,
		}
		if r.IntN(4) > 0 {
			m.Dice = [2]int{1 + r.IntN(6), 1 + r.IntN(6)}
			if m.Dice[0] < m.Dice[1] {
				m.Dice[0], m.Dice[1] = m.Dice[1], m.Dice[0]
			}
		}
		if r.IntN(3) > 0 {
			m.MatchLength = 1 + r.IntN(MaxMatchLength)
			m.Score = [2]int{r.IntN(m.MatchLength + 1), r.IntN(m.MatchLength + 1)}
			m.Crawford = r.IntN(2) == 1
		} else {
			m.Score = [2]int{r.IntN(1 << 15), r.IntN(1 << 15)}
		}
		id := m.String()
		got, err := ParseMatchID(id)
		if err != nil || got != m {
			t.Fatalf("ParseMatchID(%+v.String() = %q) = %+v, %v", m, id, got, err)
		}
	}
}

func TestParseMatchIDErrors(t *testing.T) {
	centred := []int{midOwner, 3}
	with := func(fields ...int) string { return matchIDFromBits(append(centred, fields...)...) }
	for _, tc := range []struct{ id, want string }{
		{"", "0 characters, want 12"},
		{"cIkFAAAAAAA", "11 characters"},
		{"cIkFAAAAAAAAA", "13 characters"},
		{"cIkFAAAAAA.A", `character 11, '.', is not base64`},
		{"cIkFAAAAAAAI", "bits set beyond the 67"},
		{with(67, 1), "bits set beyond the 67"},
		{with(71, 1), "bits set beyond the 67"},
		{with(midCube, 13), "cube 2^13, above 4096"},
		{with(midCube, 15), "cube 2^15"},
		{matchIDFromBits(midOwner, 2), "cube owner field 2"},
		{with(midState, 5), "game state 5"},
		{with(midState, 7), "game state 7"},
		{with(midDie0, 7, midDie1, 1), "a die of 7"},
		{with(midDie0, 3, midDie1, 7), "a die of 7"},
		{with(midDie0, 3), "dice 3 and 0: one rolled, one not"},
		{with(midDie1, 4), "dice 0 and 4"},
		{with(midLength, 65), "a match to 65 points, longer than 64"},
		{with(midLength, 7, midScore0, 8), "score 8-0 in a match to 7"},
		{with(midLength, 7, midScore1, 9), "score 0-9 in a match to 7"},
		{with(midCrawford, 1), "a Crawford game in money play"},
	} {
		_, err := ParseMatchID(tc.id)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.id) {
			t.Errorf("ParseMatchID(%q): error %v, want %q", tc.id, err, tc.want)
		}
	}
}

// FuzzParseMatchID feeds arbitrary text to ParseMatchID: it must never
// panic, must refuse with a one-line error, and what it accepts must
// write back to the same ID (the dice put higher first) and read back the
// same.
func FuzzParseMatchID(f *testing.F) {
	for _, s := range []string{
		"QYkqASAAIAAA", "cIkFAAAAAAAA", "cIkKAAAAAAAE", "UQngACAAGAAE", "AAAAAAAAAAAA", "////////////",
		"cIkFAAAAAAAI", "", "cIkFAAAAAAA", "cIkFAAAAAA.A", "cIkFAAAAAAA\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		m, err := ParseMatchID(id)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("ParseMatchID(%q) error is not one line: %q", id, msg)
			}
			return
		}
		s := m.String()
		back, err := ParseMatchID(s)
		if err != nil {
			t.Fatalf("ParseMatchID(%q) = %+v, whose ID %q does not read: %v", id, m, s, err)
		}
		if m.Dice[0] >= m.Dice[1] && s != id {
			t.Fatalf("ParseMatchID(%q) = %+v, whose ID is %q", id, m, s)
		}
		if m.Dice[0] < m.Dice[1] {
			m.Dice[0], m.Dice[1] = m.Dice[1], m.Dice[0]
		}
		if back != m {
			t.Fatalf("ParseMatchID(%q) = %+v, read back as %+v", id, m, back)
		}
	})
}
