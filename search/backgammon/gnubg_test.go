package backgammon

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// readJSONL decodes every line of the testdata file name into a fresh T
// and passes it to each with its line number.
func readJSONL[T any](t *testing.T, name string, each func(line int, rec T)) int {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		var rec T
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		each(n, rec)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// moveTextRecord is a line of testdata/gnubg-movetext.jsonl, written by
// testdata/gnubg-movetext.py from gnubg's hint list.
type moveTextRecord struct {
	Dice   [2]int    `json:"dice"`
	Mover  Points    `json:"mover"`
	Opp    Points    `json:"opp"`
	Moves  [][2]int8 `json:"moves"`
	Text   string    `json:"text"`
	Source string    `json:"source"`
	Parsed [][2]int8 `json:"parsed"`
}

// TestFormatPlayGnubg checks FormatPlay against the text gnubg 1.07.001
// writes for each play of the fixture, its checker moves in the order
// gnubg's move generator made them (TestFormatPlayAnyOrder tries the
// other orders).
func TestFormatPlayGnubg(t *testing.T) {
	n := readJSONL(t, "testdata/gnubg-movetext.jsonl", func(line int, r moveTextRecord) {
		if got := FormatPlay(&r.Mover, &r.Opp, r.Moves); got != r.Text {
			t.Errorf("line %d: FormatPlay(%v) = %q, gnubg writes %q", line, r.Moves, got, r.Text)
		}
	})
	if n < 100 {
		t.Fatalf("only %d plays in the fixture", n)
	}
}

// TestParsePlayGnubg checks that ParsePlay reads each text of the fixture
// into the checker moves gnubg's own parser reads (gnubg.parsemove), up to
// their order, and that they lead to the same position as the play's
// moves.
func TestParsePlayGnubg(t *testing.T) {
	readJSONL(t, "testdata/gnubg-movetext.jsonl", func(line int, r moveTextRecord) {
		got, err := ParsePlay(r.Text)
		if err != nil {
			t.Errorf("line %d: %v", line, err)
			return
		}
		if !sameTextMoves(got, r.Parsed) {
			t.Errorf("line %d: ParsePlay(%q) = %v, gnubg reads %v", line, r.Text, got, r.Parsed)
		}
		if a, b := textPlayPoints(r.Mover, got), textPlayPoints(r.Mover, r.Moves); a != b {
			t.Errorf("line %d: ParsePlay(%q) = %v leads to %v, the play to %v", line, r.Text, got, a, b)
		}
	})
}

// sameTextMoves reports whether a and b hold the same moves, in any order.
func sameTextMoves(a, b [][2]int8) bool {
	cmp := func(x, y [2]int8) int { return int(x[0])*32 + int(x[1]) - int(y[0])*32 - int(y[1]) }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, cmp)
	slices.SortFunc(b, cmp)
	return slices.Equal(a, b)
}

// textPlayPoints is the mover's checkers after moves, hits aside.
func textPlayPoints(p Points, moves [][2]int8) Points {
	for _, m := range moves {
		p[m[0]]--
		p[m[1]]++
	}
	return p
}

// idRecord is a line of testdata/gnubg-ids.jsonl, written by
// testdata/gnubg-ids.py; which fields are set depends on Kind.
type idRecord struct {
	Kind string `json:"kind"`
	// position and xgid
	OnRoll Points `json:"onroll"`
	Other  Points `json:"other"`
	// position, badposition and match
	ID  string `json:"id"`
	Why string `json:"why"`
	// match
	Cube     int    `json:"cube"`
	Owner    int    `json:"owner"`
	Move     int    `json:"move"`
	Crawford int    `json:"crawford"`
	State    int    `json:"state"`
	Turn     int    `json:"turn"`
	Doubled  int    `json:"doubled"`
	Resigned int    `json:"resigned"`
	Dice     [2]int `json:"dice"`
	Length   int    `json:"length"`
	Score    [2]int `json:"score"`
	Jacoby   int    `json:"jacoby"`
	// xgid
	XGID       string `json:"xgid"`
	PositionID string `json:"positionid"`
	MatchID    string `json:"matchid"`
}

// TestPositionIDGnubg checks PositionID and ParsePositionID against the
// IDs gnubg writes for the fixture's positions, and checks that
// ParsePositionID refuses the IDs gnubg refuses.
func TestPositionIDGnubg(t *testing.T) {
	good, bad := 0, 0
	readJSONL(t, "testdata/gnubg-ids.jsonl", func(line int, r idRecord) {
		switch r.Kind {
		case "position":
			good++
			if got := PositionID(&r.OnRoll, &r.Other); got != r.ID {
				t.Errorf("line %d: PositionID(%v, %v) = %q, gnubg writes %q", line, r.OnRoll, r.Other, got, r.ID)
			}
			onRoll, other, err := ParsePositionID(r.ID)
			if err != nil || onRoll != r.OnRoll || other != r.Other {
				t.Errorf("line %d: ParsePositionID(%q) = %v, %v, %v; want %v, %v", line, r.ID, onRoll, other, err, r.OnRoll, r.Other)
			}
		case "badposition":
			bad++
			if _, _, err := ParsePositionID(r.ID); err == nil {
				t.Errorf("line %d: ParsePositionID(%q) accepts %s, which gnubg refuses", line, r.ID, r.Why)
			}
		}
	})
	if good < 100 || bad < 5 {
		t.Fatalf("the fixture has %d positions and %d refused IDs", good, bad)
	}
}

// TestMatchIDGnubg checks ParseMatchID and MatchID.String against the
// Match IDs gnubg writes for the fixture's match states.
func TestMatchIDGnubg(t *testing.T) {
	n := 0
	readJSONL(t, "testdata/gnubg-ids.jsonl", func(line int, r idRecord) {
		if r.Kind != "match" {
			return
		}
		n++
		want := MatchID{
			CubeValue: r.Cube, CubeOwner: r.Owner, OnRoll: r.Move, Crawford: r.Crawford == 1,
			State: GameStatus(r.State), Turn: r.Turn, Doubled: r.Doubled == 1, Resigned: r.Resigned,
			Dice: r.Dice, MatchLength: r.Length, Score: r.Score, Jacoby: r.Jacoby == 1,
		}
		if got := want.String(); got != r.ID {
			t.Errorf("line %d: %+v.String() = %q, gnubg writes %q", line, want, got, r.ID)
		}
		if want.Dice[0] < want.Dice[1] {
			want.Dice[0], want.Dice[1] = want.Dice[1], want.Dice[0]
		}
		if got, err := ParseMatchID(r.ID); err != nil || got != want {
			t.Errorf("line %d: ParseMatchID(%q) = %+v, %v; want %+v", line, r.ID, got, err, want)
		}
	})
	if n < 100 {
		t.Fatalf("only %d match IDs in the fixture", n)
	}
}

// TestXGIDGnubg checks ParseXGID against what gnubg holds after reading
// each XGID of the fixture with "set xgid": its board and Position ID,
// and its Match ID, which is XGID.MatchID changed as gnubg changes it
// after SetXGID (it steps back from an offered double to the player on
// roll before the double, drops the Crawford flag in a 1-point match, and
// swaps the players when the top one is on roll).
func TestXGIDGnubg(t *testing.T) {
	n := 0
	readJSONL(t, "testdata/gnubg-ids.jsonl", func(line int, r idRecord) {
		if r.Kind != "xgid" {
			return
		}
		n++
		x, err := ParseXGID(r.XGID)
		if err != nil {
			t.Errorf("line %d: %v", line, err)
			return
		}
		if x.OnRoll != r.OnRoll || x.Other != r.Other {
			t.Errorf("line %d: ParseXGID(%q) sides %v, %v; gnubg's board %v, %v", line, r.XGID, x.OnRoll, x.Other, r.OnRoll, r.Other)
		}
		if got := PositionID(&x.OnRoll, &x.Other); got != r.PositionID {
			t.Errorf("line %d: ParseXGID(%q) has Position ID %q, gnubg %q", line, r.XGID, got, r.PositionID)
		}
		m := x.MatchID()
		if m.Doubled {
			m.Doubled, m.Turn = false, m.OnRoll
		}
		if m.MatchLength == 1 {
			m.Crawford = false
		}
		if x.Player == 0 {
			m.OnRoll, m.Turn = 1, 1
			if m.CubeOwner >= 0 {
				m.CubeOwner = 1 - m.CubeOwner
			}
			m.Score[0], m.Score[1] = m.Score[1], m.Score[0]
		}
		if got := m.String(); got != r.MatchID {
			g, _ := ParseMatchID(r.MatchID)
			t.Errorf("line %d: ParseXGID(%q) reads as match ID %q, %+v; gnubg %q, %+v", line, r.XGID, got, m, r.MatchID, g)
		}
	})
	if n < 100 {
		t.Fatalf("only %d XGIDs in the fixture", n)
	}
}
