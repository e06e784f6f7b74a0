package backgammon

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFormatPlay pins FormatPlay on plays whose text gnubg 1.07.001's
// movetupletostring (its FormatMove) wrote for the same boards and moves.
func TestFormatPlay(t *testing.T) {
	bearOff := Points{Off: 3, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}
	inside := Points{Off: 1, Bar: 1, 19: 14}
	onBar := Points{Bar: 1, 24: 1, 13: 5, 8: 3, 6: 5}
	for _, tc := range []struct {
		name       string
		mover, opp Points
		moves      [][2]int8
		want       string
	}{
		{"start 3-1", Start, Start, [][2]int8{{8, 5}, {6, 5}}, "8/5 6/5"},
		{"start 6-6", Start, Start, [][2]int8{{24, 18}, {24, 18}, {13, 7}, {13, 7}}, "24/18(2) 13/7(2)"},
		{"one checker, no hit", Start, Start, [][2]int8{{24, 18}, {18, 13}}, "24/13"},
		{"one checker, hitting on the way", Start, Points{24: 2, 13: 5, 8: 3, 7: 1, 6: 4}, [][2]int8{{24, 18}, {18, 13}}, "24/18*/13"},
		{"sorted from high to low", Start, Start, [][2]int8{{13, 8}, {24, 18}}, "24/18 13/8"},
		{"entering", onBar, Start, [][2]int8{{25, 22}, {8, 7}}, "bar/22 8/7"},
		{"entering and going on", onBar, Start, [][2]int8{{25, 22}, {22, 21}}, "bar/21"},
		{"entering with a hit on the way", onBar, Points{24: 2, 13: 5, 8: 3, 6: 4, 3: 1}, [][2]int8{{25, 22}, {22, 21}}, "bar/22*/21"},
		{"bearing off 6-6", bearOff, inside, [][2]int8{{6, 0}, {6, 0}, {5, 0}, {5, 0}}, "6/off(2) 5/off(2)"},
		{"bearing off 6-4", bearOff, inside, [][2]int8{{6, 0}, {4, 0}}, "6/off 4/off"},
		{"bearing off, low die first", bearOff, inside, [][2]int8{{2, 0}, {6, 0}}, "6/off 2/off"},
		{"bearing off in two steps", bearOff, inside, [][2]int8{{6, 2}, {2, 0}}, "6/off"},
		{"two hitting the same point", Start, Points{24: 2, 18: 1, 13: 5, 8: 3, 6: 4}, [][2]int8{{13, 7}, {13, 7}}, "13/7*(2)"},
		{"one star a point", Start, Points{24: 2, 18: 1, 13: 5, 8: 3, 6: 4}, [][2]int8{{8, 7}, {13, 7}}, "13/7* 8/7"},
		// The chain takes the hit: the point between is written, with
		// its star, and the second checker to reach 7 gets none.
		{"hit and go on", Start, Points{18: 1, 13: 5, 12: 2, 8: 3, 6: 4}, [][2]int8{{13, 7}, {13, 7}, {7, 1}}, "13/7*/1 13/7"},
		{"four hits", Points{Off: 6, 13: 3, 8: 2, 6: 4}, Points{24: 1, 23: 1, 22: 1, 21: 1, 20: 1, 13: 2, 8: 3, 6: 5}, [][2]int8{{6, 5}, {5, 4}, {4, 3}, {3, 2}}, "6/5*/4*/3*/2*"},
		{"4-4 run", Start, Start, [][2]int8{{24, 20}, {20, 16}, {24, 20}, {20, 16}}, "24/16(2)"},
		// Another checker's move that starts where one ends joins it.
		{"two checkers joined", Points{Off: 13, 8: 1, 5: 1}, Points{Off: 15}, [][2]int8{{8, 5}, {5, 3}}, "8/3"},
		{"no move", Start, Start, nil, ""},
	} {
		if got := FormatPlay(&tc.mover, &tc.opp, tc.moves); got != tc.want {
			t.Errorf("%s: FormatPlay(%v) = %q, want %q", tc.name, tc.moves, got, tc.want)
		}
		for _, p := range movePermutations(tc.moves) {
			if got := FormatPlay(&tc.mover, &tc.opp, p); got != tc.want {
				t.Errorf("%s: FormatPlay(%v) = %q, want %q in any order", tc.name, p, got, tc.want)
			}
		}
		moves, err := ParsePlay(tc.want)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		} else if textPlayPoints(tc.mover, moves) != textPlayPoints(tc.mover, tc.moves) {
			t.Errorf("%s: ParsePlay(%q) = %v, which does not make the play %v", tc.name, tc.want, moves, tc.moves)
		}
	}
}

// movePermutations returns every order of moves.
func movePermutations(moves [][2]int8) [][][2]int8 {
	if len(moves) <= 1 {
		return [][][2]int8{slices.Clone(moves)}
	}
	var out [][][2]int8
	for i := range moves {
		rest := slices.Concat(moves[:i], moves[i+1:])
		for _, p := range movePermutations(rest) {
			out = append(out, append([][2]int8{moves[i]}, p...))
		}
	}
	return out
}

// TestFormatPlayAnyOrder checks on the gnubg fixture that FormatPlay
// writes the same text for every order of a play's moves.
func TestFormatPlayAnyOrder(t *testing.T) {
	readJSONL(t, "testdata/gnubg-movetext.jsonl", func(line int, r moveTextRecord) {
		for _, p := range movePermutations(r.Moves) {
			if got := FormatPlay(&r.Mover, &r.Opp, p); got != r.Text {
				t.Errorf("line %d: FormatPlay(%v) = %q, want %q", line, p, got, r.Text)
			}
		}
	})
}

func TestParsePlay(t *testing.T) {
	for _, tc := range []struct {
		text string
		want [][2]int8
	}{
		{"8/5 6/5", [][2]int8{{8, 5}, {6, 5}}},
		{"24/18(2) 13/7(2)", [][2]int8{{24, 18}, {24, 18}, {13, 7}, {13, 7}}},
		{"24/20/16", [][2]int8{{24, 20}, {20, 16}}},
		{"24/16", [][2]int8{{24, 16}}},
		{"24/16(2)", [][2]int8{{24, 16}, {24, 16}}},
		{"20/14*/8(2)", [][2]int8{{20, 14}, {14, 8}, {20, 14}, {14, 8}}},
		{"bar/22", [][2]int8{{25, 22}}},
		{"BAR/22 Bar/20", [][2]int8{{25, 22}, {25, 20}}},
		{"25/22", [][2]int8{{25, 22}}},
		{"6/off", [][2]int8{{6, 0}}},
		{"6/OFF 5/Off", [][2]int8{{6, 0}, {5, 0}}},
		{"6/0", [][2]int8{{6, 0}}},
		{"13/7*", [][2]int8{{13, 7}}},
		{"13/7*/5", [][2]int8{{13, 7}, {7, 5}}},
		{"6/5*/4*/3*/2*", [][2]int8{{6, 5}, {5, 4}, {4, 3}, {3, 2}}},
		{"bar/22*/21", [][2]int8{{25, 22}, {22, 21}}},
		{"13/7*(2)", [][2]int8{{13, 7}, {13, 7}}},
		{"6/off(4)", [][2]int8{{6, 0}, {6, 0}, {6, 0}, {6, 0}}},
		// gnubg's external interface and FIBS.
		{"25/20 20/17", [][2]int8{{25, 20}, {20, 17}}},
		{"6/0 4/0", [][2]int8{{6, 0}, {4, 0}}},
		{"24/18 24/18 13/7 13/7", [][2]int8{{24, 18}, {24, 18}, {13, 7}, {13, 7}}},
		{"6/2* 2/1*", [][2]int8{{6, 2}, {2, 1}}},
		{"8/5 6/5 \n", [][2]int8{{8, 5}, {6, 5}}},
		{"  8/5\t6/5", [][2]int8{{8, 5}, {6, 5}}},
		{"", nil},
		{" \n", nil},
	} {
		got, err := ParsePlay(tc.text)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParsePlay(%q) = %v, %v; want %v", tc.text, got, err, tc.want)
		}
	}
}

func TestParsePlayErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"8", `"8" is not a move FROM/TO`},
		{"8/5 6", `"6" is not a move FROM/TO`},
		{"bar", "is not a move"},
		{"(2)", "is not a move"},
		{"26/20", `"26" is not a point (0 to 25, bar or off)`},
		{"24/-1", `"-1" is not a point`},
		{"24/", `"" is not a point`},
		{"/18", `"" is not a point`},
		{"24//18", `"" is not a point`},
		{"024/18", `"024" is not a point`},
		{"08/5", `"08" is not a point`},
		{"8-5", `"8-5" is not a move`},
		{"8/5,", `"5," is not a point`},
		{"x/5", `"x" is not a point`},
		{"ba/20", `"ba" is not a point`},
		{"o/20", `"o" is not a point`},
		{"6/8", `"6/8" goes from 6 to 8, not towards home`},
		{"6/6", "goes from 6 to 6"},
		{"24/25", "goes from 24 to 25"},
		{"off/3", "goes from 0 to 3"},
		{"6/off/3", "goes from 0 to 3"},
		{"bar/bar", "goes from 25 to 25"},
		{"24*/18", "marks a hit on the point the checker leaves"},
		{"6/off*", `marks a hit on "off"`},
		{"6/0*", `marks a hit on "0"`},
		{"24/18**", `"18*" is not a point`},
		{"24/18(1)", `repeats a move "1" times, want 2 to 4`},
		{"24/18(5)", `repeats a move "5" times`},
		{"24/18()", `repeats a move "" times`},
		{"24/18(2", `"18(2" is not a point`},
		{"24/18)", "has a ')' without '('"},
		{"24/18(2)(2)", `"18(2)" is not a point`},
		{"24/18 24/18 24/18 24/18 24/18", "more than 4 checker moves"},
		{"24/18(3) 13/7(2)", "more than 4 checker moves"},
		{"24/20/16/12/8/4", "more than 4 checker moves"},
		{"24/20/16(2) 13/9", "more than 4 checker moves"},
	} {
		_, err := ParsePlay(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), fmt.Sprintf("backgammon play %q: ", tc.text)) {
			t.Errorf("ParsePlay(%q): error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// FuzzParsePlay feeds arbitrary text to ParsePlay: it must never panic,
// must refuse with a one-line error, and what it accepts must be at most
// four moves towards home between points 0 to 25, which read back the
// same when written one move at a time as FIBS writes them.
func FuzzParsePlay(f *testing.F) {
	for _, s := range []string{
		"8/5 6/5", "24/18(2) 13/7(2)", "24/20/16", "bar/22", "25/22", "6/off", "6/0", "13/7*", "13/7*/5",
		"25/20 20/17", "6/0 4/0", "20/14*/8(2)", "", "6/8", "24/18(5)", "24*/18", "BaR/22", "24/18)",
		"24/18 24/18 24/18 24/18 24/18", "99999999999999999999/1", "\xff/\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		moves, err := ParsePlay(text)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("ParsePlay(%q) error is not one line: %q", text, msg)
			}
			return
		}
		if len(moves) > maxTextMoves {
			t.Fatalf("ParsePlay(%q) = %v, more than %d moves", text, moves, maxTextMoves)
		}
		var fibs []string
		for _, m := range moves {
			if m[0] > Bar || m[1] < Off || m[1] >= m[0] {
				t.Fatalf("ParsePlay(%q) = %v, with the move %v", text, moves, m)
			}
			fibs = append(fibs, fmt.Sprintf("%d/%d", m[0], m[1]))
		}
		back, err := ParsePlay(strings.Join(fibs, " "))
		if err != nil || !slices.Equal(back, moves) {
			t.Fatalf("ParsePlay(%q) = %v, written %q, read back as %v, %v", text, moves, strings.Join(fibs, " "), back, err)
		}
	})
}

// FuzzFormatPlay gives FormatPlay arbitrary boards and moves, which it
// must write without panicking, and checks that the order of the moves
// does not change the text.
func FuzzFormatPlay(f *testing.F) {
	f.Add([]byte{8, 5, 6, 5}, []byte{6: 5, 8: 3, 13: 5, 24: 2})
	f.Add([]byte{25, 22, 22, 21, 0, 30, 200, 7}, []byte{3: 1, 25: 4})
	f.Fuzz(func(t *testing.T, mv, board []byte) {
		var mover, opp Points
		for i, b := range board {
			if i < len(mover) {
				mover[i] = int8(b)
			} else if i < 2*len(mover) {
				opp[i-len(mover)] = int8(b)
			}
		}
		var moves [][2]int8
		for i := 0; i+1 < len(mv) && len(moves) < 6; i += 2 {
			moves = append(moves, [2]int8{int8(mv[i]), int8(mv[i+1])})
		}
		text := FormatPlay(&mover, &opp, moves)
		rev := slices.Clone(moves)
		slices.Reverse(rev)
		if back := FormatPlay(&mover, &opp, rev); back != text && towardsHome(moves) {
			t.Fatalf("FormatPlay(%v) = %q, reversed %q", moves, text, back)
		}
	})
}

// towardsHome reports whether every move goes towards home between points
// 0 and 25, the moves for which FormatPlay's text cannot depend on their
// order.
func towardsHome(moves [][2]int8) bool {
	for _, m := range moves {
		if m[0] > Bar || m[1] < Off || m[1] >= m[0] {
			return false
		}
	}
	return true
}
