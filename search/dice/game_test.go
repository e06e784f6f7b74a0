package dice

import (
	"strings"
	"testing"

	"starlab/search/game"
)

func TestVariantRoundTrip(t *testing.T) {
	for n := MinN; n <= MaxN; n++ {
		for m := 2; m <= n; m++ {
			s := Variant(n, m)
			gn, gm, err := ParseVariant(s)
			if err != nil || gn != n || gm != m {
				t.Fatalf("ParseVariant(%q) = %d, %d, %v; want %d, %d", s, gn, gm, err, n, m)
			}
			st, err := Game{}.New(s)
			if err != nil {
				t.Fatalf("Game.New(%q): %v", s, err)
			}
			b, _ := New(n, m)
			if st.String() != b.DPN() || (Game{}).Variant(st) != s {
				t.Fatalf("Game.New(%q) = %s (variant %q), want %s", s, st, Game{}.Variant(st), b.DPN())
			}
		}
	}
	for _, tc := range []struct {
		n, m int
		want string
	}{{5, 4, "5x5-4"}, {11, 8, "11x11-8"}, {3, 2, "3x3-2"}, {17, 17, "17x17-17"}} {
		if got := Variant(tc.n, tc.m); got != tc.want {
			t.Errorf("Variant(%d, %d) = %q, want %q", tc.n, tc.m, got, tc.want)
		}
	}
}

func TestParseVariantErrors(t *testing.T) {
	tests := []struct{ s, word string }{
		{"", "is not <n>x<n>-<m>"},
		{"5x5", "is not <n>x<n>-<m>"},
		{"5-4", "is not <n>x<n>-<m>"},
		{"5x5-", "is not <n>x<n>-<m>"},
		{"x5-4", "is not <n>x<n>-<m>"},
		{"5X5-4", "is not <n>x<n>-<m>"},
		{"5x5/4", "is not <n>x<n>-<m>"},
		{"5x5-4 ", "is not <n>x<n>-<m>"},
		{" 5x5-4", "is not <n>x<n>-<m>"},
		{"+5x5-4", "is not <n>x<n>-<m>"},
		{"5x5--4", "is not <n>x<n>-<m>"},
		{"5x5-4-1", "is not <n>x<n>-<m>"},
		{"5x5x5-4", "is not <n>x<n>-<m>"},
		{"５x５-４", "is not <n>x<n>-<m>"},
		{"dice", "is not <n>x<n>-<m>"},
		{"5x6-4", "5 rows and 6 columns: a Dice board is square"},
		{"99999999999999999999x5-4", "a Dice board is square"},
		{"2x2-2", "board size 2 out of range [3, 17]"},
		{"18x18-5", "board size 18 out of range [3, 17]"},
		{"0x0-0", "board size 0 out of range"},
		{"99999999999999999999x99999999999999999999-4", "board size 99999999999999999999 out of range"},
		{"5x5-1", "win length 1 out of range [2, 5]"},
		{"5x5-6", "win length 6 out of range [2, 5]"},
		{"3x3-4", "win length 4 out of range [2, 3]"},
		{"5x5-99999999999999999999", "win length 99999999999999999999 out of range"},
		{"05x05-4", `is written "5x5-4"`},
		{"5x5-04", `is written "5x5-4"`},
	}
	for _, tc := range tests {
		n, m, err := ParseVariant(tc.s)
		if err == nil {
			t.Errorf("ParseVariant(%q) = %d, %d; want an error", tc.s, n, m)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.word) || !strings.Contains(msg, "dice variant") || strings.ContainsAny(msg, "\n\r") {
			t.Errorf("ParseVariant(%q) error %q: want one line naming the variant and %q", tc.s, msg, tc.word)
		}
		if st, err2 := (Game{}).New(tc.s); err2 == nil || st != nil || err2.Error() != msg {
			t.Errorf("Game.New(%q) = %v, %v; want nil and %q", tc.s, st, err2, msg)
		}
	}
}

// FuzzParseVariant checks that ParseVariant never panics, rejects in one
// line, and accepts exactly the names Variant writes for boards New makes.
func FuzzParseVariant(f *testing.F) {
	for _, s := range []string{"5x5-4", "3x3-2", "17x17-17", "5x6-4", "05x05-4", "2x2-2", "5x5-", "", "x-", "9x9-99999999999999999999", "５x５-４"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, m, err := ParseVariant(s)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("ParseVariant(%q) error is not one line: %q", s, msg)
			}
			return
		}
		if Variant(n, m) != s {
			t.Fatalf("ParseVariant(%q) = %d, %d, which Variant writes %q", s, n, m, Variant(n, m))
		}
		if _, err := New(n, m); err != nil {
			t.Fatalf("ParseVariant(%q) = %d, %d, which New refuses: %v", s, n, m, err)
		}
	})
}

func TestGameDescriptor(t *testing.T) {
	g := Game{}
	if g.Name() != "dice" || g.DefaultVariant() != "5x5-4" || !g.CountsChance() {
		t.Fatalf("Name, DefaultVariant, CountsChance = %q, %q, %v; want dice, 5x5-4, true", g.Name(), g.DefaultVariant(), g.CountsChance())
	}
	st, err := g.New(g.DefaultVariant())
	if err != nil {
		t.Fatalf("New(%q): %v", g.DefaultVariant(), err)
	}
	if want := "5 4 b -1" + emptyCells(5); st.String() != want {
		t.Fatalf("New(%q) = %s, want %s", g.DefaultVariant(), st, want)
	}

	s, err := g.Parse(exampleDPN)
	if err != nil {
		t.Fatalf("Parse(%q): %v", exampleDPN, err)
	}
	b := mustParse(t, exampleDPN)
	if s.String() != b.DPN() || s.Key() != b.Key() || g.Phase(s) != b.Checkers() || g.Variant(s) != Variant(b.N(), b.M()) {
		t.Fatalf("Parse(%q) = %s, phase %d, variant %q; want %s, %d, %q", exampleDPN, s, g.Phase(s), g.Variant(s), b.DPN(), b.Checkers(), Variant(b.N(), b.M()))
	}
	// A failed Parse gives a nil State, not a nil *Board inside one.
	if s, err := g.Parse("5 4 b"); err == nil || s != nil {
		t.Fatalf("Parse of a short DPN = %v, %v; want a nil State and an error", s, err)
	}
	if s, err := g.Parse("2 2 b -1 - - - -"); err == nil || s != nil || err.Error() != "DPN board size 2 out of range [3, 17]" {
		t.Fatalf("Parse of a 2x2 board = %v, %v; want ParseDPN's error", s, err)
	}

	for _, tc := range []struct {
		dpn   string
		phase int
	}{
		{"5 4 b -1" + emptyCells(5), 0},
		{"3 3 r 1 b - - - - - - - -", 1},
		{grid(3, 3, "r", -1, "bbr", "rrb", "bbr"), 9},
	} {
		if got := g.Phase(mustParse(t, tc.dpn)); got != tc.phase {
			t.Errorf("Phase(%s) = %d, want %d", tc.dpn, got, tc.phase)
		}
	}
}

func TestGameMovesAndEvents(t *testing.T) {
	g := Game{}
	// Blue rolled row 3 (line 2) on 5x5 with a checker of each colour on it.
	b := mustParse(t, grid(5, 4, "b", 2, ".....", ".....", "b.r..", ".....", "....."))
	var s game.State = b
	for _, m := range s.Legal(nil) {
		text := g.FormatMove(s, m)
		if text != FormatMove(int(m), 5) {
			t.Errorf("FormatMove(%d) = %q, want %q", m, text, FormatMove(int(m), 5))
		}
		got, err := g.ParseMove(s, text)
		if err != nil || got != m {
			t.Errorf("ParseMove(%q) = %d, %v; want %d", text, got, err, m)
		}
	}
	if got := g.FormatMove(s, 13); got != "d3" {
		t.Errorf("FormatMove(13) = %q, want d3", got)
	}

	red := mustParse(t, grid(5, 4, "r", -1, ".....", ".....", "b.r..", "..b..", "....."))
	over := mustParse(t, grid(3, 3, "r", -1, "bbr", "rrb", "bbr"))
	tests := []struct {
		s          *Board
		text, word string
	}{
		{b, "a3", `move "a3": the cell is taken`},
		{b, "c3", `move "c3": the cell is taken`},
		{b, "d2", `move "d2" is not on the rolled row 3`},
		{b, "f3", "off the 5x5 board"},
		{b, "3d", "not a column letter"},
		{b, "d3\nd4", "not a column letter"},
		{red, "d3", `move "d3": red has not rolled the die yet`},
		{over, "a1", `move "a1": the game is over`},
	}
	for _, tc := range tests {
		m, err := g.ParseMove(tc.s, tc.text)
		if err == nil {
			t.Errorf("%s: ParseMove(%q) = %d; want an error", tc.s, tc.text, m)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.word) || strings.ContainsAny(msg, "\n\r") {
			t.Errorf("%s: ParseMove(%q) error %q; want one line with %q", tc.s, tc.text, msg, tc.word)
		}
	}
	// Red rolls column d: d2 is on it, c2 is not.
	red.SetRoll(3)
	if m, err := g.ParseMove(red, "d2"); err != nil || m != 8 {
		t.Errorf("ParseMove(d2) after red rolled column d = %d, %v; want 8", m, err)
	}
	if _, err := g.ParseMove(red, "c2"); err == nil || !strings.Contains(err.Error(), "is not on the rolled column d") {
		t.Errorf("ParseMove(c2) after red rolled column d: %v; want not on the rolled column d", err)
	}
	red.ClearRoll()

	for _, tc := range []struct {
		s    *Board
		line uint16
		want string
	}{
		{mustParse(t, "5 4 b -1"+emptyCells(5)), 0, "row 1"},
		{mustParse(t, "5 4 b -1"+emptyCells(5)), 4, "row 5"},
		{red, 2, "column c"},
		{mustParse(t, "17 8 b -1"+emptyCells(17)), 16, "row 17"},
	} {
		if got := g.FormatEvent(tc.s, game.Event{ID: tc.line, Weight: 1}); got != tc.want {
			t.Errorf("%s: FormatEvent(line %d) = %q, want %q", tc.s, tc.line, got, tc.want)
		}
	}
}

// otherState is a State of some other game.
type otherState struct{ game.State }

func TestGameRefusesOtherStates(t *testing.T) {
	defer func() {
		r := recover()
		if msg, _ := r.(string); !strings.Contains(msg, "not a *dice.Board") {
			t.Fatalf("Phase of a foreign state: recovered %v, want a panic naming the type", r)
		}
	}()
	Game{}.Phase(otherState{})
}
