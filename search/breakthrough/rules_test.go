package breakthrough

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"starlab/search/game"
	"starlab/search/game/gametest"
)

const start8x8 = "8 8 w bbbbbbbb/bbbbbbbb/......../......../......../......../wwwwwwww/wwwwwwww"

func mustParse(t testing.TB, text string) *Board {
	t.Helper()
	b, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// moveTexts returns the legal moves of b in notation, in Legal's order.
func moveTexts(b *Board) []string {
	var out []string
	for _, m := range b.Legal(nil) {
		out = append(out, Game{}.FormatMove(b, m))
	}
	return out
}

func TestStart(t *testing.T) {
	b, err := New(8, 8)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != start8x8 {
		t.Fatalf("8x8 start %q, want %q", b, start8x8)
	}
	if *mustParse(t, start8x8) != *b {
		t.Fatal("the parsed start differs from New's")
	}
	for _, tc := range []struct {
		w, h int
		want string
	}{
		{3, 4, "3 4 w bbb/bbb/www/www"},
		{5, 5, "5 5 w bbbbb/bbbbb/...../wwwww/wwwww"},
		{4, 6, "4 6 w bbbb/bbbb/..../..../wwww/wwww"},
	} {
		b, _ := New(tc.w, tc.h)
		if b.String() != tc.want {
			t.Errorf("New(%d, %d) = %q, want %q", tc.w, tc.h, b, tc.want)
		}
	}
	for _, wh := range [][2]int{{2, 5}, {9, 5}, {5, 3}, {5, 9}} {
		if _, err := New(wh[0], wh[1]); err == nil {
			t.Errorf("New(%d, %d) accepted", wh[0], wh[1])
		}
	}
}

// TestMoves pins the moves of positions by hand: captures only
// diagonally, no move sideways, backwards or straight onto a piece, the
// board's edges, and the roll always.
func TestMoves(t *testing.T) {
	for _, tc := range []struct {
		pos  string
		want []string
	}{
		// Rows 2 and 3 face each other: only diagonal captures.
		{"3 4 w bbb/bbb/www/www", []string{"a2xb3", "b2xa3", "b2xc3", "c2xb3", "roll"}},
		{"3 4 b bbb/bbb/www/www", []string{"b3xa2", "c3xb2", "a3xb2", "b3xc2", "roll"}},
		// The 8x8 start: 22 moves and the roll.
		{start8x8, nil},
		// A black piece before a white one: no straight move either way,
		// diagonals onto empty squares.
		{"4 5 w ..../...b/.b../.w../....", []string{"b2-a3", "b2-c3", "roll"}},
		{"4 5 b ..../...b/.b../.w../....", []string{"b3-a2", "b3-c2", "d4-d3", "d4-c3", "roll"}},
		// Captures, and a straight move onto an empty square.
		{"4 5 b ..../...b/.b../w.w./....", []string{"b3xa2", "b3xc2", "b3-b2", "d4-d3", "d4-c3", "roll"}},
		{"4 5 w ..../...b/.b../w.w./....", []string{"a2xb3", "c2xb3", "a2-a3", "c2-c3", "c2-d3", "roll"}},
		// Edges: a piece on column a has no left diagonal, on the last
		// column no right one.
		{"4 5 w ..b./..../..../w..w/....", []string{"a2-a3", "a2-b3", "d2-d3", "d2-c3", "roll"}},
		// A piece whose squares ahead hold its own pieces cannot move.
		{"3 5 w ..b/.../www/.w./...", []string{"a3-a4", "a3-b4", "b3-a4", "b3-b4", "b3-c4", "c3-b4", "c3-c4", "roll"}},
	} {
		b := mustParse(t, tc.pos)
		got := moveTexts(b)
		if tc.want == nil {
			if len(got) != 23 || got[22] != "roll" {
				t.Errorf("%s: %d moves %v, want 22 and the roll", tc.pos, len(got), got)
			}
			continue
		}
		gs, ws := slices.Clone(got), slices.Clone(tc.want)
		slices.Sort(gs)
		slices.Sort(ws)
		if !slices.Equal(gs, ws) || got[len(got)-1] != "roll" {
			t.Errorf("%s: moves %v, want %v (the roll last)", tc.pos, got, tc.want)
		}
	}
}

// TestEvents pins the roll's events: one per occupied square of weight 1,
// Nothing of weight the empty squares when one is empty, total W*H.
func TestEvents(t *testing.T) {
	for _, tc := range []struct {
		pos   string
		want  string // the events in notation with their weights
		total int
	}{
		{"3 4 rb bbb/bbb/www/www", "a1:1 b1:1 c1:1 a2:1 b2:1 c2:1 a3:1 b3:1 c3:1 a4:1 b4:1 c4:1", 12},
		{"4 5 rw ..../...b/.b../w.w./....", "nothing:16 a2:1 c2:1 b3:1 d4:1", 20},
	} {
		b := mustParse(t, tc.pos)
		evs, total := b.Outcomes(nil)
		var got []string
		for _, e := range evs {
			got = append(got, Game{}.FormatEvent(b, e)+":"+strconv.Itoa(int(e.Weight)))
		}
		if strings.Join(got, " ") != tc.want || total != tc.total {
			t.Errorf("%s: events %q (total %d), want %q (total %d)", tc.pos, strings.Join(got, " "), total, tc.want, tc.total)
		}
	}
}

// TestEndOfGame pins the end conditions and their results from the side to
// move's view, after moves and after events, the roller's own last piece
// included, and a position that is finished when given.
func TestEndOfGame(t *testing.T) {
	for _, tc := range []struct {
		pos    string
		step   string // a move or an event in notation, "" for none
		kind   game.Kind
		result float64
	}{
		// White breaks through: Black to move has lost.
		{"3 4 w ..b/w../.../...", "a3-a4", game.Over, -1},
		// Black breaks through by a capture.
		{"3 4 b ..b/.../b../.w.", "a2xb1", game.Over, -1},
		// White captures Black's last piece.
		{"3 4 w .../b../.w./...", "b2xa3", game.Over, -1},
		// White captures Black's last piece on its far row: both end
		// conditions at once, naming the same winner.
		{"3 4 w .b./w../.../...", "a3xb4", game.Over, -1},
		// White rolls and the dice remove Black's last piece: Black, to
		// move, has lost.
		{"3 4 rb ..b/.../w../...", "c4", game.Over, -1},
		// White rolls and the dice remove White's own last piece: Black,
		// to move, has won.
		{"3 4 rb ..b/.../w../...", "a2", game.Over, 1},
		// The dice pick an empty square: a pass.
		{"3 4 rb ..b/.../w../...", "nothing", game.Decision, 0},
		// Given finished: the side to move on its far row has won, without
		// a piece has lost.
		{"3 4 w w../.b./.../...", "", game.Over, 1},
		{"3 4 w .../.b./.../...", "", game.Over, -1},
		{"3 4 b .../.b./.../...", "", game.Over, 1},
	} {
		b := mustParse(t, tc.pos)
		if tc.step != "" {
			if b.Kind() == game.Chance {
				evs, _ := b.Outcomes(nil)
				found := false
				for _, e := range evs {
					if FormatEvent(int(e.ID)) == tc.step {
						b.Happen(e)
						found = true
					}
				}
				if !found {
					t.Fatalf("%s: no event %s", tc.pos, tc.step)
				}
			} else {
				m, err := Game{}.ParseMove(b, tc.step)
				if err != nil {
					t.Fatal(err)
				}
				b.Play(m)
			}
		}
		if b.Kind() != tc.kind || (tc.kind == game.Over && b.Result() != tc.result) {
			t.Errorf("%s then %q: %s is %v with result %v, want %v with %v", tc.pos, tc.step, b, b.Kind(), b.Result(), tc.kind, tc.result)
		}
	}
}

// TestEvaluate pins the material evaluator by hand.
func TestEvaluate(t *testing.T) {
	for _, tc := range []struct {
		pos  string
		want float64
	}{
		{start8x8, 0},
		{"8 8 b bbbbbbbb/bbbbbbbb/......../......../......../......../wwwwwwww/wwwwwwww", 0},
		// White: 3 pieces, advance 1 (row 2); Black: 1 piece, advance 1
		// (row 4 of 5): 200*2 / 1500.
		{"4 5 w ..../b.../..../.w../ww..", 400.0 / 1500},
		{"4 5 b ..../b.../..../.w../ww..", -400.0 / 1500},
		// Advance: White on row 4 (3), Black on row 4 of 5 (1): 50*2.
		{"4 5 w ..../bw../..../..../....", 100.0 / 1500},
		// Clamped: 15 pieces ahead.
		{"8 8 w .......b/......../......../......../......../......../wwwwwwww/wwwwwwww", 1},
		{"8 8 b .......b/......../......../......../......../......../wwwwwwww/wwwwwwww", -1},
		// At a chance node, from the view of the side that moves after the
		// event.
		{"4 5 rb ..../b.../..../.w../ww..", -400.0 / 1500},
	} {
		if got := mustParse(t, tc.pos).Evaluate(); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: Evaluate %v, want %v", tc.pos, got, tc.want)
		}
	}
}

func TestContract(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	for _, v := range []string{"3x4", "4x5", "5x5", "8x8"} {
		gametest.Check(t, Game{}, Description().MoveSep, v, 1, games)
	}
}

func TestVariants(t *testing.T) {
	for w := MinW; w <= MaxW; w++ {
		for h := MinH; h <= MaxH; h++ {
			var g Game
			s, err := g.New(Variant(w, h))
			if err != nil || g.Variant(s) != Variant(w, h) {
				t.Fatalf("variant %s: %v, %v", Variant(w, h), s, err)
			}
		}
	}
	for _, bad := range []string{"", "8", "8x", "x8", "8x8x8", "08x8", "8x08", "+8x8", "2x8", "9x8", "8x3", "8x9", "8X8", " 8x8", "８x8", "100x8"} {
		_, err := Game{}.New(bad)
		if err == nil {
			t.Errorf("variant %q accepted", bad)
		} else if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.Contains(msg, "variant") {
			t.Errorf("variant %q: error %q", bad, msg)
		}
	}
}
