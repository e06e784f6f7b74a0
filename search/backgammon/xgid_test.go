package backgammon

import (
	"strings"
	"testing"
)

// startXGID is the start of a money game, the bottom player on roll with
// 5-2, as XG writes it; gnubg reads it as 4HPwATDgc/ABMA:cIkKAAAAAAAE.
const startXGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"

func TestParseXGIDStart(t *testing.T) {
	for _, s := range []string{startXGID, strings.TrimPrefix(startXGID, "XGID="), "xgid=" + startXGID[5:]} {
		x, err := ParseXGID(s)
		if err != nil {
			t.Fatal(err)
		}
		want := XGID{
			OnRoll: Start, Other: Start, Player: 1, Dice: [2]int{5, 2},
			CubeValue: 1, CubeOwner: -1, MaxCubeLog: 10,
		}
		if x != want {
			t.Errorf("ParseXGID(%q) = %+v, want %+v", s, x, want)
		}
		if got := PositionID(&x.OnRoll, &x.Other) + ":" + x.MatchID().String(); got != "4HPwATDgc/ABMA:cIkKAAAAAAAE" {
			t.Errorf("ParseXGID(%q) reads as %s, gnubg as 4HPwATDgc/ABMA:cIkKAAAAAAAE", s, got)
		}
	}
}

func TestParseXGID(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    string
		want XGID
	}{
		{"top on roll", "XGID=a-BB--D-----C-----cbA-b--A:1:-1:-1:31:2:4:0:7:10", XGID{
			// The top player's checkers: its bar, and its point 25-i for a
			// letter a-p at i: 'c' at 18 is its 7, 'b' at 19 its 6, 'b' at
			// 22 its 3.
			OnRoll: Points{Off: 7, Bar: 1, 7: 3, 6: 2, 3: 2},
			Other:  Points{Off: 2, Bar: 1, 2: 2, 3: 2, 6: 4, 12: 3, 20: 1},
			Player: 0, Dice: [2]int{3, 1}, CubeValue: 2, CubeOwner: 0,
			Score: [2]int{4, 2}, MatchLength: 7, MaxCubeLog: 10,
		}},
		{"double offered, beavers", "-b----E-C---eE---c-e----B-:2:1:1:D:3:5:2:0:0", XGID{
			OnRoll: Start, Other: Start, Player: 1, Doubled: true, CubeValue: 4, CubeOwner: 1,
			Score: [2]int{5, 3}, Beavers: true,
		}},
		{"Crawford, Jacoby ignored", "-b----E-C---eE---c-e----B-:0:0:-1:66:4:2:1:5:10", XGID{
			OnRoll: Start, Other: Start, Player: 0, Dice: [2]int{6, 6}, CubeValue: 1, CubeOwner: -1,
			Score: [2]int{2, 4}, MatchLength: 5, Crawford: true, MaxCubeLog: 10,
		}},
		{"Jacoby and beavers", "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10", XGID{
			OnRoll: Start, Other: Start, Player: 1, CubeValue: 1, CubeOwner: -1,
			Jacoby: true, Beavers: true, MaxCubeLog: 10,
		}},
		{"one checker each", "-a----------------------A-:0:0:1:00:0:0:0:0:10", XGID{
			OnRoll: Points{Off: 14, 24: 1}, Other: Points{Off: 14, 24: 1}, Player: 1, CubeValue: 1, CubeOwner: -1, MaxCubeLog: 10,
		}},
		// A finished game: the bottom player has borne off all 15.
		{"bottom borne off", "-a------------------------:0:0:-1:21:0:0:0:0:10", XGID{
			OnRoll: Points{Off: 14, 24: 1}, Other: Points{Off: 15}, Player: 0, Dice: [2]int{2, 1},
			CubeValue: 1, CubeOwner: -1, MaxCubeLog: 10,
		}},
	} {
		got, err := ParseXGID(tc.s)
		if err != nil || got != tc.want {
			t.Errorf("%s: ParseXGID(%q) = %+v, %v;\nwant %+v", tc.name, tc.s, got, err, tc.want)
		}
	}
}

func TestXGIDMatchID(t *testing.T) {
	x, err := ParseXGID("XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:3:2:0:7:10")
	if err != nil {
		t.Fatal(err)
	}
	want := MatchID{
		CubeValue: 2, CubeOwner: 0, OnRoll: 1, State: StatusPlaying, Turn: 0, Doubled: true,
		MatchLength: 7, Score: [2]int{2, 3},
	}
	if got := x.MatchID(); got != want {
		t.Errorf("MatchID() = %+v, want %+v", got, want)
	}
}

func TestParseXGIDErrors(t *testing.T) {
	const pos = "-b----E-C---eE---c-e----B-"
	for _, tc := range []struct{ s, want string }{
		{"", "1 fields, want 10"},
		{"XGID=" + pos + ":0:0:1:52:0:0:0:0", "9 fields"},
		{"XGID=" + pos + ":0:0:1:52:0:0:0:0:10:1", "11 fields"},
		{"XGID=" + pos[1:] + ":0:0:1:52:0:0:0:0:10", "a position of 25 characters, want 26"},
		{"XGID=" + pos + "-:0:0:1:52:0:0:0:0:10", "27 characters"},
		{"XGID=-b----E-C---eE---c-e--x-B-:0:0:1:52:0:0:0:0:10", "position character 23, 'x'"},
		{"XGID=A-b---E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "checkers 'A' on the top player's bar"},
		{"XGID=-b----E-C---eE---c-e----Ba:0:0:1:52:0:0:0:0:10", "checkers 'a' on the bottom player's bar"},
		{"XGID=-b----P-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "the side on roll has 26 checkers, more than 15"},
		{"XGID=-b----E-C---pE---c-e----B-:0:0:1:52:0:0:0:0:10", "the other side has 26 checkers"},
		{"XGID=cBBBBBB------------bbbbbbC:0:0:1:52:0:0:0:0:10", "both sides are on the bar against closed home boards"},
		{"XGID=" + pos + ":13:0:1:52:0:0:0:0:10", `cube "13", want a number from 0 to 12`},
		{"XGID=" + pos + ":x:0:1:52:0:0:0:0:10", `cube "x"`},
		{"XGID=" + pos + ":01:0:1:52:0:0:0:0:10", `cube "01"`},
		{"XGID=" + pos + ":0:2:1:52:0:0:0:0:10", `cube position "2", want a number from -1 to 1`},
		{"XGID=" + pos + ":0:+1:1:52:0:0:0:0:10", `cube position "+1"`},
		{"XGID=" + pos + ":0:0:0:52:0:0:0:0:10", `turn "0", want 1 or -1`},
		{"XGID=" + pos + ":0:0:1:72:0:0:0:0:10", `dice "72"`},
		{"XGID=" + pos + ":0:0:1:05:0:0:0:0:10", `dice "05"`},
		{"XGID=" + pos + ":0:0:1:5:0:0:0:0:10", `dice "5"`},
		{"XGID=" + pos + ":0:0:1:B:0:0:0:0:10", `dice "B"`},
		{"XGID=" + pos + ":0:0:1:521:0:0:0:0:10", `dice "521"`},
		{"XGID=" + pos + ":0:0:1:52:7:0:0:7:10", `bottom score "7", want a number from 0 to 6`},
		{"XGID=" + pos + ":0:0:1:52:0:9:0:7:10", `top score "9"`},
		{"XGID=" + pos + ":0:0:1:52:-1:0:0:0:10", `bottom score "-1"`},
		{"XGID=" + pos + ":0:0:1:52:0:0:0:65:10", `match length "65", want a number from 0 to 64`},
		{"XGID=" + pos + ":0:0:1:52:0:0:2:7:10", `Crawford flag "2"`},
		{"XGID=" + pos + ":0:0:1:52:0:0:4:0:10", `money rules "4", want a number from 0 to 3`},
		{"XGID=" + pos + ":0:0:1:52:4:5:1:7:10", "the Crawford game at 4-5 in a match to 7"},
		{"XGID=" + pos + ":1:0:1:52:6:5:1:7:10", "the cube turned in the Crawford game"},
		{"XGID=" + pos + ":0:1:1:52:6:5:1:7:10", "the cube turned in the Crawford game"},
		{"XGID=" + pos + ":0:0:1:52:0:0:0:0:16", `largest cube "16"`},
		{"XGID=" + pos + ":0:0:1:52:0:0:0:0:", `largest cube ""`},
	} {
		_, err := ParseXGID(tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "XGID ") {
			t.Errorf("ParseXGID(%q): error %v, want %q", tc.s, err, tc.want)
		}
	}
}

// FuzzParseXGID feeds arbitrary text to ParseXGID: it must never panic,
// must refuse with a one-line error, and what it accepts must be a
// position of a game (its Position ID reads back to the same sides) with
// fields in range.
func FuzzParseXGID(f *testing.F) {
	for _, s := range []string{
		startXGID,
		"XGID=a-BB--D-----C-----cbA-b--A:1:-1:-1:31:2:4:0:7:10",
		"-b----E-C---eE---c-e----B-:2:1:1:D:3:5:2:0:0",
		"-b----E-C---eE---c-e----B-:0:0:-1:66:4:2:1:5:10",
		"-a------------------------:0:0:-1:21:0:0:0:0:10",
		"XGID=-b----E-C---eE---c-e----Ba:0:0:1:52:0:0:0:0:10",
		"XGID=cBBBBBB------------bbbbbbC:0:0:1:52:0:0:0:0:10",
		"", "XGID=", ":::::::::", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:99999999999999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseXGID(s)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("ParseXGID(%q) error is not one line: %q", s, msg)
			}
			return
		}
		onRoll, other, err := ParsePositionID(PositionID(&x.OnRoll, &x.Other))
		if err != nil || onRoll != x.OnRoll || other != x.Other {
			t.Fatalf("ParseXGID(%q) sides %v, %v read back as %v, %v, %v", s, x.OnRoll, x.Other, onRoll, other, err)
		}
		m := x.MatchID()
		if back, err := ParseMatchID(m.String()); err != nil {
			t.Fatalf("ParseXGID(%q) gives the match state %+v, which does not read back: %v", s, m, err)
		} else if back.Score != m.Score || back.CubeValue != m.CubeValue || back.CubeOwner != m.CubeOwner {
			t.Fatalf("ParseXGID(%q) gives the match state %+v, read back as %+v", s, m, back)
		}
	})
}
