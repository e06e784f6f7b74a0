package breakthrough

import (
	"strings"
	"testing"
)

// TestParseRefuses: every malformed text and every position that cannot
// arise in play gets a one-line error naming the text.
func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "want 4 fields"},
		{"3 4 w", "want 4 fields"},
		{"3 4 w bbb/bbb/www/www extra", "want 4 fields"},
		{"three 4 w bbb/bbb/www/www", "is not two numbers"},
		{"3 04 w bbb/bbb/www/www", "is not two numbers"},
		{"+3 4 w bbb/bbb/www/www", "is not two numbers"},
		{"2 4 w bb/bb/ww/ww", "width 2 out of range [3, 8]"},
		{"9 4 w bbbbbbbbb/bbbbbbbbb/wwwwwwwww/wwwwwwwww", "width 9 out of range [3, 8]"},
		{"3 3 w bbb/.../www", "height 3 out of range [4, 8]"},
		{"3 9 w bbb/bbb/.../.../.../.../.../www/www", "height 9 out of range [4, 8]"},
		{"3 4 x bbb/bbb/www/www", `side to move "x"`},
		{"3 4 W bbb/bbb/www/www", `side to move "W"`},
		{"3 4 r bbb/bbb/www/www", `side to move "r"`},
		{"3 4 wr bbb/bbb/www/www", `side to move "wr"`},
		{"3 4 w bbb/bbb/www", "3 rows, want 4"},
		{"3 4 w bbb/bbb/www/www/...", "5 rows, want 4"},
		{"3 4 w bbb/bb/www/www", `row 3, "bb", has 2 characters, want 3`},
		{"3 4 w bbb/bbbb/www/www", "has 4 characters"},
		{"3 4 w bbb/bBb/www/www", `'B' is not ., w or b`},
		{"3 4 w bbb/b-b/www/www", `'-' is not ., w or b`},
		{"3 4 w bbb/bé/www/www", "is not ., w or b"},
		{"3 4 w bbb//www/www", "has 0 characters"},
		{"3 4 w w../.../.../..b", "both sides stand on their far rows"},
		{"3 4 b .../.../.../...", "neither side has a piece"},
		{"3 4 rw .w./.b./.../...", "the game is over, so no roll can be pending"},
		{"3 4 rb .../.b./.../...", "the game is over, so no roll can be pending"},
	} {
		b, err := Parse(tc.text)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", tc.text, b)
			continue
		}
		msg := err.Error()
		if strings.ContainsAny(msg, "\n\r") || !strings.Contains(msg, "breakthrough position") || !strings.Contains(msg, tc.want) {
			t.Errorf("Parse(%q): error %q, want one line with %q", tc.text, msg, tc.want)
		}
	}
}

// TestParseAccepts: positions that arise in play, finished ones included,
// read back to themselves; whitespace between the fields is free.
func TestParseAccepts(t *testing.T) {
	for _, tc := range []struct{ text, canonical string }{
		{start8x8, start8x8},
		{"3 4 rb bbb/bbb/www/www", ""},
		{"3 4 rw .b./w../.../...", ""},
		{"3 4 b w../.b./.../...", ""},     // White broke through
		{"3 4 b w../.../.../...", ""},     // ... capturing Black's last piece
		{"3 4 w ..b/.../.../...", ""},     // White has no piece left
		{"4 4 b b.../..../..../...w", ""}, // both sides on their home rows
		{"  3\t4  w\nbbb/bbb/www/www ", "3 4 w bbb/bbb/www/www"},
	} {
		b, err := Parse(tc.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.text, err)
			continue
		}
		want := tc.canonical
		if want == "" {
			want = tc.text
		}
		if b.String() != want {
			t.Errorf("Parse(%q) reads back as %q, want %q", tc.text, b, want)
		}
	}
}

// TestMoveNotation: moves are written with "-" onto an empty square and
// "x" for a capture; ParseMove takes either separator and refuses in one
// line what is not a legal move.
func TestMoveNotation(t *testing.T) {
	b := mustParse(t, "4 5 w ..../...b/.b../w.w./....")
	for text, want := range map[string]string{
		"a2xb3": "a2xb3", "a2-b3": "a2xb3", "c2-d3": "c2-d3", "c2xd3": "c2-d3", "a2-a3": "a2-a3", "roll": "roll",
	} {
		m, err := ParseMove(b, text)
		if err != nil || FormatMove(b, m) != want {
			t.Errorf("ParseMove(%q) = %d (%s), %v; want %s", text, m, FormatMove(b, m), err, want)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"", "is not roll or <from>-<to>"},
		{"Roll", "is not roll or <from>-<to>"},
		{"a2b3", "is not roll or <from>-<to>"},
		{"a2:b3", "is not roll or <from>-<to>"},
		{"a2-e3", "is not roll or <from>-<to>"}, // column e is off a 4-column board
		{"a2-a6", "is not roll or <from>-<to>"},
		{"a0-a1", "is not roll or <from>-<to>"},
		{"b2-b3", "no white piece on b2"},
		{"b3-b2", "no white piece on b3"},
		{"a2-a4", "moves one square up"},
		{"a2-c3", "moves one square up"},
		{"c2-c1", "moves one square up"},
		{"a2-b2", "moves one square up"},
		{"c2-c3", ""},
	} {
		_, err := ParseMove(b, tc.text)
		if tc.want == "" {
			if err != nil {
				t.Errorf("ParseMove(%q): %v", tc.text, err)
			}
			continue
		}
		if err == nil || strings.ContainsAny(err.Error(), "\n\r") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q): error %v, want one line with %q", tc.text, err, tc.want)
		}
	}
	for _, tc := range []struct{ pos, text, want string }{
		{"4 5 w ..../.b../.b../.w../....", "b2-b3", "b3 is taken, and a piece captures only diagonally"},
		{"4 5 w ..../.b../..../.w../w...", "a1-b2", "b2 holds a white piece"},
		{"4 5 b ..../.b../..../.w../w...", "b4-b5", "moves one square down"},
		{"4 5 rb ..../.b../..../.w../w...", "a1-a2", "a roll is pending"},
		{"4 5 b .w../.b../..../..../....", "b4-b3", "the game is over"},
	} {
		_, err := ParseMove(mustParse(t, tc.pos), tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseMove(%q): error %v, want %q", tc.pos, tc.text, err, tc.want)
		}
	}
}

// FuzzParse feeds arbitrary text to Parse: it must never panic, must
// refuse with a one-line error, and whatever it accepts must print to a
// text that parses back to the very same board, whose key is the key from
// scratch, and which is not a finished game with a roll pending.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		start8x8,
		"3 4 w bbb/bbb/www/www",
		"3 4 rb bbb/bbb/www/www",
		"4 5 w ..../...b/.b../w.w./....",
		"3 4 b w../.../.../...",
		"3 4 w w../.../.../..b",
		"3 4 b .../.../.../...",
		"3 4 rw .w./.b./.../...",
		"",
		"3 4",
		"9 4 w bbbbbbbbb/bbbbbbbbb/wwwwwwwww/wwwwwwwww",
		"3 4 w bbb/bé/www/www",
		"３ 4 w bbb/bbb/www/www",
		"3 4 w bbb/bbb/www/www\n3 4 w",
		"9223372036854775807 4 w bbb",
		"\x00\xff w /////",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Parse(s)
		if err != nil {
			if b != nil {
				t.Fatalf("Parse(%q) returned a board and error %v", s, err)
			}
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("Parse(%q) error is not one non-empty line: %q", s, msg)
			}
			return
		}
		out := b.String()
		b2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) ok, but its text %q does not parse: %v", s, out, err)
		}
		if *b2 != *b || b2.String() != out {
			t.Fatalf("Parse(%q): %q reads back as %q", s, out, b2)
		}
		if b.Key() != b.computeKey() {
			t.Fatalf("Parse(%q): key %#x, from scratch %#x", s, b.Key(), b.computeKey())
		}
		if b.Over() && b.Pending() {
			t.Fatalf("Parse(%q) accepted a finished game with a roll pending", s)
		}
	})
}
