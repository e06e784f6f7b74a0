package dice

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// mustParse parses a DPN the test expects to be valid.
func mustParse(t testing.TB, s string) *Board {
	t.Helper()
	b, err := ParseDPN(s)
	if err != nil {
		t.Fatalf("ParseDPN(%q): %v", s, err)
	}
	return b
}

// grid builds a DPN from rows written with '.' (or '-') for empty cells.
func grid(n, m int, stm string, roll int, rows ...string) string {
	parts := []string{fmt.Sprint(n), fmt.Sprint(m), stm, fmt.Sprint(roll)}
	for _, row := range rows {
		for _, ch := range row {
			if ch == '.' {
				ch = '-'
			}
			parts = append(parts, string(ch))
		}
	}
	return strings.Join(parts, " ")
}

// cellsOf parses a list of moves in notation.
func cellsOf(t testing.TB, n int, moves ...string) []int {
	t.Helper()
	var out []int
	for _, s := range moves {
		c, err := ParseMove(s, n)
		if err != nil {
			t.Fatalf("ParseMove(%q, %d): %v", s, n, err)
		}
		out = append(out, c)
	}
	return out
}

// playOne rolls the line of cell for the side to move and plays cell,
// checking that it is legal; it mirrors the move on p when p is not nil.
func playOne(t testing.TB, b *Board, p *refPos, cell int) {
	t.Helper()
	line := cell / b.N()
	if b.SideToMove() == Red {
		line = cell % b.N()
	}
	if b.LineEmpty(line) == 0 {
		t.Fatalf("%s: line %d of %s is full, cannot roll it", b.DPN(), line, b.SideToMove())
	}
	b.SetRoll(line)
	if !b.IsLegal(cell) {
		t.Fatalf("%s: %s is not legal", b.DPN(), FormatMove(cell, b.N()))
	}
	b.Make(cell)
	if p != nil {
		p.play(cell/b.N(), cell%b.N())
	}
}

func TestNewRejectsBadSizes(t *testing.T) {
	for _, tc := range []struct{ n, m int }{{2, 2}, {18, 5}, {0, 0}, {-3, 2}, {5, 1}, {5, 6}, {17, 18}, {3, 4}} {
		if b, err := New(tc.n, tc.m); err == nil || b != nil {
			t.Errorf("New(%d, %d) = %v, %v; want an error", tc.n, tc.m, b, err)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("New(%d, %d) error has a newline: %q", tc.n, tc.m, err)
		}
	}
	for _, tc := range []struct{ n, m int }{{3, 2}, {3, 3}, {17, 2}, {17, 17}, {9, 6}} {
		b, err := New(tc.n, tc.m)
		if err != nil {
			t.Fatalf("New(%d, %d): %v", tc.n, tc.m, err)
		}
		want := fmt.Sprintf("%d %d b -1%s", tc.n, tc.m, strings.Repeat(" -", tc.n*tc.n))
		if b.DPN() != want || b.N() != tc.n || b.M() != tc.m || b.SideToMove() != Blue || b.Roll() != NoRoll ||
			b.Empties() != tc.n*tc.n || b.Checkers() != 0 || b.Over() {
			t.Errorf("New(%d, %d) = %s, want %s", tc.n, tc.m, b.DPN(), want)
		}
	}
}

// TestWins plays move sequences (blue first, alternating) whose last move
// wins, and checks that nobody has won before it, that the last move wins
// for the mover, and that every count agrees with the reference throughout.
func TestWins(t *testing.T) {
	tests := []struct {
		name   string
		n, m   int
		moves  string
		winner Color
	}{
		{"row interior", 5, 4, "a2 a4 b2 c4 c2 e4 d2", Blue},
		{"column bottom edge", 5, 4, "a1 b2 c1 b3 e1 b4 a5 b5", Red},
		{"diagonal from a1", 5, 4, "a1 e1 b2 a5 c3 e3 d4", Blue},
		{"anti-diagonal to b5", 5, 4, "a1 e2 c1 d3 a3 c4 e5 b5", Red},
		{"top row to e1 corner", 5, 4, "b1 a3 c1 c3 d1 e5 e1", Blue},
		{"bottom row from a5 corner", 5, 4, "a1 a5 c2 b5 e3 c5 b4 d5", Red},
		{"left column to a5 corner", 5, 4, "a2 c1 a3 c3 a4 e5 a5", Blue},
		{"right column from e1 corner", 5, 4, "a1 e1 a3 e2 c5 e3 b2 e4", Red},
		{"m=n full diagonal a1-e5", 5, 5, "a1 a5 b2 e1 c3 c1 d4 a3 e5", Blue},
		{"m=n full anti-diagonal e1-a5", 5, 5, "a1 e1 c1 d2 e3 c3 a2 b4 b5 a5", Red},
		{"m=n full row", 5, 5, "a3 a1 b3 c1 c3 e1 d3 b5 e3", Blue},
		{"m=n full column 3x3", 3, 3, "a1 b1 a2 b2 c3 c1 a3", Blue},
		{"m=n full row red 3x3", 3, 3, "a1 a3 b2 b3 a2 c3", Red},
		{"m=2 diagonal", 3, 2, "a1 c3 b2", Blue},
		{"m=2 anti-diagonal", 3, 2, "c1 a1 b2", Blue},
		{"m=2 row", 4, 2, "a1 d4 a3 c4", Red},
		{"m=2 column", 4, 2, "a1 d4 c1 d3", Red},
		{"join fills the gap of a row", 5, 5, "a1 a3 b1 b3 d1 d3 e1 e3 c1", Blue},
		{"join makes an overline", 7, 3, "b4 a1 c4 c1 e4 e1 f4 g1 d4", Blue},
		{"join on a diagonal", 6, 4, "f1 a1 f3 b2 a6 d4 c6 c3", Red},
		{"join in a column 2+1", 5, 4, "c1 a1 c2 a3 c4 e5 c3", Blue},
		{"9x9/6 diagonal to i9 corner", 9, 6, "d4 a1 e5 c1 f6 e1 g7 g1 h8 i1 i9", Blue},
		{"9x9/6 anti-diagonal from i1 corner", 9, 6, "a9 i1 c9 h2 e9 g3 g9 f4 i9 e5 a7 d6", Red},
		{"9x9/6 bottom row from a9 corner", 9, 6, "a9 a1 b9 c1 c9 e1 d9 g1 e9 i1 f9", Blue},
		{"17x17/8 column to q17 corner", 17, 8,
			"q10 a1 q11 c1 q12 e1 q13 g1 q14 i1 q15 k1 q16 m1 q17", Blue},
		{"17x17/8 bottom row to q17 corner", 17, 8,
			"a1 j17 c1 k17 e1 l17 g1 m17 i1 n17 k1 o17 m1 p17 o1 q17", Red},
		{"17x17/8 anti-diagonal from q1 corner", 17, 8,
			"q1 a17 p2 c17 o3 e17 n4 g17 m5 i17 l6 k17 k7 m17 j8", Blue},
		{"17x17/8 diagonal to q17 corner", 17, 8,
			"a1 j10 c1 k11 e1 l12 g1 m13 i1 n14 k1 o15 m1 p16 o1 q17", Red},
		{"17x17/8 left column from a1 corner", 17, 8,
			"a1 q1 a2 q3 a3 q5 a4 q7 a5 q9 a6 q11 a7 q13 a8", Blue},
		{"17x17/17 full row", 17, 17,
			"a9 a1 b9 c1 c9 e1 d9 g1 e9 i1 f9 k1 g9 m1 h9 o1 i9 q1 j9 a3 k9 c3 l9 e3 m9 g3 n9 i3 o9 k3 p9 m3 q9", Blue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := New(tc.n, tc.m)
			if err != nil {
				t.Fatal(err)
			}
			p := newRefPos(tc.n, tc.m)
			cells := cellsOf(t, tc.n, strings.Fields(tc.moves)...)
			for i, cell := range cells {
				if w, ok := b.Winner(); ok || b.Over() {
					t.Fatalf("before move %d (%s): winner %v, %v, over %v in %s", i+1, FormatMove(cell, tc.n), w, ok, b.Over(), b.DPN())
				}
				if mover := Color(i % 2); b.SideToMove() != mover {
					t.Fatalf("before move %d: %s to move, want %s", i+1, b.SideToMove(), mover)
				}
				playOne(t, b, p, cell)
				checkAgainstRef(t, b, p, fmt.Sprintf("%s after %s", tc.name, FormatMove(cell, tc.n)))
			}
			w, ok := b.Winner()
			if !ok || w != tc.winner {
				t.Fatalf("after the last move: winner %v, %v; want %s\n%s", w, ok, tc.winner, b.DPN())
			}
			if !b.Over() || b.Result() != -1 || b.SideToMove() != tc.winner.Other() {
				t.Fatalf("after the win: Over %v Result %v to move %s; want true, -1, %s", b.Over(), b.Result(), b.SideToMove(), tc.winner.Other())
			}
			// The winning move taken back: m-1 (or the two halves of a
			// join) is not a win, and the move is legal again.
			last := cells[len(cells)-1]
			b.Unmake(last)
			if _, ok := b.Winner(); ok || b.Over() {
				t.Fatalf("after Unmake of the winning move: still won/over: %s", b.DPN())
			}
			if !b.IsLegal(last) {
				t.Fatalf("after Unmake the winning move %s is not legal again", FormatMove(last, tc.n))
			}
		})
	}
}

// TestWinNeedsM places m-1 checkers in a line (no win, a run of m-1 counted
// as a streak) and then the m-th (a win, the streak gone), in all four
// directions and for both colours.
func TestWinNeedsM(t *testing.T) {
	type dir struct {
		name   string
		dr, dc int
	}
	for _, n := range []int{5, 9, 17} {
		for _, m := range []int{3, 4, n} {
			for _, d := range []dir{{"row", 0, 1}, {"column", 1, 0}, {"diagonal", 1, 1}, {"anti-diagonal", 1, -1}} {
				for _, winner := range []Color{Blue, Red} {
					t.Run(fmt.Sprintf("%dx%d/%d %s %s", n, n, m, d.name, winner), func(t *testing.T) {
						// The line starts at the top edge (column 0, or n-1 for the anti-diagonal).
						r0, c0 := 0, 0
						if d.dc < 0 {
							c0 = n - 1
						}
						if d.dr == 0 {
							r0 = n / 2
						}
						var line []int
						onLine := map[int]bool{}
						for i := 0; i < m; i++ {
							cell := (r0+i*d.dr)*n + c0 + i*d.dc
							line = append(line, cell)
							onLine[cell] = true
						}
						// Filler for the other colour: isolated cells (every
						// other cell of every other row) off the line, so
						// they never form a run.
						var filler []int
						for r := 0; r < n && len(filler) < m; r += 2 {
							for c := 0; c < n && len(filler) < m; c += 2 {
								if cell := r*n + c; !onLine[cell] {
									filler = append(filler, cell)
								}
							}
						}
						if len(filler) < m {
							t.Skipf("no room for %d filler checkers", m)
						}
						var seq []int
						for i := 0; i < m; i++ {
							if winner == Blue {
								seq = append(seq, line[i], filler[i])
							} else {
								seq = append(seq, filler[i], line[i])
							}
						}
						b, _ := New(n, m)
						p := newRefPos(n, m)
						for i, cell := range seq {
							if b.Over() {
								t.Fatalf("game over before move %d: %s", i+1, b.DPN())
							}
							playOne(t, b, p, cell)
							if onLine[cell] {
								placed := 0
								for _, l := range line {
									if b.At(l) != Empty {
										placed++
									}
								}
								w, ok := b.Winner()
								switch {
								case placed < m && ok:
									t.Fatalf("%d of %d placed, yet %s has won: %s", placed, m, w, b.DPN())
								case placed == m-1 && m-1 >= 2 && b.Streaks(winner, m-1) != 1:
									t.Fatalf("%d placed: Streaks(%s, %d) = %d, want 1: %s", placed, winner, m-1, b.Streaks(winner, m-1), b.DPN())
								case placed == m:
									if !ok || w != winner {
										t.Fatalf("all %d placed: winner %v, %v; want %s: %s", m, w, ok, winner, b.DPN())
									}
									if m-1 >= 2 && b.Streaks(winner, m-1) != 0 {
										t.Fatalf("after the win the run of %d is still counted: %d", m-1, b.Streaks(winner, m-1))
									}
									checkAgainstRef(t, b, p, "win")
									return
								}
							}
						}
						t.Fatalf("sequence ended without a win: %s", b.DPN())
					})
				}
			}
		}
	}
}

// TestHandCounts pins streaks and pairs of hand-built positions to values
// counted by hand.
func TestHandCounts(t *testing.T) {
	type counts struct {
		streaks map[[2]int]int // (colour, k) -> runs of exactly k
		pairs   [2]int
	}
	tests := []struct {
		name string
		dpn  string
		want counts
	}{
		{"empty", grid(5, 4, "b", -1, ".....", ".....", ".....", ".....", "....."), counts{nil, [2]int{0, 0}}},
		{"adjacent and gap pair in a row", grid(5, 4, "r", -1, "bb.b.", "rr...", ".....", ".....", "....."),
			counts{map[[2]int]int{{0, 2}: 1, {1, 2}: 1}, [2]int{2, 1}}},
		{"gap across the other colour is no pair", grid(3, 3, "r", -1, "brb", "...", "..."), counts{nil, [2]int{0, 0}}},
		{"two empty cells apart is no pair", grid(5, 5, "b", -1, "b..b.", "r..r.", ".....", ".....", "....."), counts{nil, [2]int{0, 0}}},
		{"run of three", grid(5, 4, "r", -1, "bbb..", "r.r..", ".....", ".....", "....."),
			counts{map[[2]int]int{{0, 3}: 1}, [2]int{2, 1}}},
		{"gap pairs in rows and columns, none across a checker", grid(5, 4, "b", -1, "b.b..", ".r...", "b.b..", ".r...", ".r.r."),
			// blue: a1-c1, a3-c3, a1-a3, c1-c3 gap pairs = 4; a1-c3 and c1-a3
			// are split by the red b2, so no diagonal pair.
			// red: b2-b4 gap, b4-b5 adjacent (a run of 2), b5-d5 gap = 3.
			counts{map[[2]int]int{{1, 2}: 1}, [2]int{4, 3}}},
		{"blue diagonal run of 2 and anti-diagonal run of 2", grid(3, 3, "r", -1, "b.b", ".b.", "rr."),
			counts{map[[2]int]int{{0, 2}: 2, {1, 2}: 1}, [2]int{3, 1}}},
		{"full 4x4 draw board", grid(4, 4, "b", -1, "bbrr", "rrbb", "bbrr", "rrbb"),
			// Rows: each row one blue and one red run of 2 (4+4 pairs).
			// Diagonals (c-r): a1b2c3d4 b r r b: red run; b1c2d3 b b r: blue run;
			// a2b3c4 r b b: blue run; anti (r+c): d1c2b3a4 r b b r: blue run;
			// c1b2a3 r r b: red run; d2c3b4 b r r: red run.
			// Columns alternate: no pairs. Gap pairs need an empty cell: none.
			counts{map[[2]int]int{{0, 2}: 7, {1, 2}: 7}, [2]int{7, 7}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.dpn)
			for c := Blue; c <= Red; c++ {
				for k := 2; k < b.M(); k++ {
					if got, want := b.Streaks(c, k), tc.want.streaks[[2]int{int(c), k}]; got != want {
						t.Errorf("Streaks(%s, %d) = %d, want %d", c, k, got, want)
					}
				}
				if got := b.Pairs(c); got != tc.want.pairs[c] {
					t.Errorf("Pairs(%s) = %d, want %d", c, got, tc.want.pairs[c])
				}
			}
			checkAgainstRef(t, b, refFromDPN(t, tc.dpn), tc.name)
		})
	}
}

// TestDraws builds full boards with no m in a line, by DPN and by playing.
func TestDraws(t *testing.T) {
	draws := []string{
		grid(3, 3, "r", -1, "brb", "brr", "rbb"),
		grid(4, 4, "b", -1, "bbrr", "rrbb", "bbrr", "rrbb"),
		grid(4, 3, "b", -1, "bbrr", "rrbb", "bbrr", "rrbb"),
		grid(5, 3, "r", -1, "bbrrb", "rrbbr", "bbrrb", "rrbbr", "bbrrb"),
	}
	for _, s := range draws {
		b := mustParse(t, s)
		if _, won := b.Winner(); won || !b.Over() || b.Result() != 0 || b.Empties() != 0 {
			t.Errorf("%s: won %v over %v result %v empties %d; want a draw", s, won, b.Over(), b.Result(), b.Empties())
		}
		if k := boardRolls(b); len(k) != 0 {
			t.Errorf("%s: Rolls on a full board = %v, want none", s, k)
		}
		for cell := 0; cell < b.N()*b.N(); cell++ {
			if b.IsLegal(cell) {
				t.Errorf("%s: IsLegal(%d) on a full board", s, cell)
			}
		}
		checkAgainstRef(t, b, refFromDPN(t, s), "draw")
	}
	// The 3x3 draw played out move by move; the last move fills the board.
	b, _ := New(3, 3)
	p := newRefPos(3, 3)
	for i, cell := range cellsOf(t, 3, "a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3") {
		if b.Over() {
			t.Fatalf("over before move %d: %s", i+1, b.DPN())
		}
		playOne(t, b, p, cell)
	}
	if b.DPN() != draws[0] {
		t.Fatalf("played draw = %s, want %s", b.DPN(), draws[0])
	}
	if _, won := b.Winner(); won || !b.Over() || b.Result() != 0 || b.SideToMove() != Red {
		t.Fatalf("played draw: won %v over %v result %v stm %s", won, b.Over(), b.Result(), b.SideToMove())
	}
	checkAgainstRef(t, b, p, "played draw")
}

// TestRolls checks that the die only offers lines of the side to move that
// still have an empty cell.
func TestRolls(t *testing.T) {
	tests := []struct {
		dpn  string
		want []int
	}{
		{grid(3, 3, "b", -1, "...", "...", "..."), []int{0, 1, 2}},
		{grid(3, 3, "r", -1, "b..", "...", "..."), []int{0, 1, 2}},
		{grid(3, 3, "b", -1, "brb", "r..", "..."), []int{1, 2}},            // row 1 full
		{grid(3, 3, "r", -1, "b..", "r..", "b.."), []int{1, 2}},            // column a full
		{grid(3, 3, "b", -1, "brb", "...", "rbr"), []int{1}},               // rows 1 and 3 full
		{grid(3, 3, "r", -1, "b.b", "r.r", "b.."), []int{1, 2}},            // column a full
		{grid(4, 4, "r", -1, "bbr.", "rrb.", "bbr.", "r.b."), []int{1, 3}}, // columns a and c full
		{grid(4, 4, "b", -1, "bbrr", "....", "rrbb", "...."), []int{1, 3}},
		{grid(5, 4, "b", 1, ".....", "b..r.", "rb...", "r.b..", "....."), []int{0, 1, 2, 3, 4}},
	}
	for _, tc := range tests {
		b, err := ParseDPN(tc.dpn)
		if err != nil {
			t.Errorf("ParseDPN(%q): %v", tc.dpn, err)
			continue
		}
		if got := boardRolls(b); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Rolls = %v, want %v", tc.dpn, got, tc.want)
		}
		for k := 0; k < b.N(); k++ {
			full := b.LineEmpty(k) == 0
			if full == slices.Contains(tc.want, k) {
				t.Errorf("%s: LineEmpty(%d) = %d inconsistent with Rolls %v", tc.dpn, k, b.LineEmpty(k), tc.want)
			}
		}
	}
}

// TestMoves checks that Moves lists exactly the empty cells of the rolled
// line, for rows (blue) and columns (red).
func TestMoves(t *testing.T) {
	example := "5 4 b 1 - - - - - b - - r - r b - - - r - b - - - - - - -"
	tests := []struct {
		dpn  string
		want string
	}{
		{example, "b2 c2 e2"},
		{grid(5, 4, "b", 0, ".....", "b..r.", "rb...", "r.b..", "....."), "a1 b1 c1 d1 e1"},
		{grid(5, 4, "b", 3, ".....", "b..r.", "rb...", "r.b..", "....."), "b4 d4 e4"},
		{grid(5, 4, "r", 0, ".....", "b..r.", "rb...", "r.b..", "b...."), "a1"},
		{grid(5, 4, "r", 1, ".....", "b..r.", "rb...", "r.b..", "b...."), "b1 b2 b4 b5"},
		{grid(5, 4, "r", 4, ".....", "b..r.", "rb...", "r.b..", "b...."), "e1 e2 e3 e4 e5"},
		{grid(3, 3, "b", 2, "brb", "rb.", "r.."), "b3 c3"},
		{grid(17, 8, "r", 16, ".................", ".................", ".................", ".................",
			".................", ".................", ".................", ".................", ".................",
			".................", ".................", ".................", ".................", ".................",
			".................", "................b", "................."),
			"q1 q2 q3 q4 q5 q6 q7 q8 q9 q10 q11 q12 q13 q14 q15 q17"},
	}
	for _, tc := range tests {
		b, err := ParseDPN(tc.dpn)
		if err != nil {
			t.Errorf("ParseDPN(%q): %v", tc.dpn, err)
			continue
		}
		want := cellsOf(t, b.N(), strings.Fields(tc.want)...)
		if got := boardMoves(b); !slices.Equal(got, want) {
			t.Errorf("%s: Moves = %v, want %v (%s)", tc.dpn, got, want, tc.want)
		}
		if b.LineEmpty(b.Roll()) != len(want) {
			t.Errorf("%s: LineEmpty(roll) = %d, want %d", tc.dpn, b.LineEmpty(b.Roll()), len(want))
		}
		for cell := -2; cell < b.N()*b.N()+2; cell++ {
			if b.IsLegal(cell) != slices.Contains(want, cell) {
				t.Errorf("%s: IsLegal(%d) = %v", tc.dpn, cell, b.IsLegal(cell))
			}
		}
	}
}

func TestIsLegal(t *testing.T) {
	pre := mustParse(t, grid(5, 4, "b", -1, ".....", "b..r.", "rb...", "r.b..", "....."))
	post := mustParse(t, grid(5, 4, "b", 1, ".....", "b..r.", "rb...", "r.b..", "....."))
	red := mustParse(t, grid(5, 4, "r", 2, ".....", "b..r.", "rb...", "r.b..", "b...."))
	won, _ := New(3, 3)
	for _, c := range cellsOf(t, 3, "a1", "b1", "a2", "b2", "a3") {
		playOne(t, won, nil, c)
	}
	won.SetRoll(1) // red rolls column b, which has an empty cell (b3)
	tests := []struct {
		name string
		b    *Board
		move string
		cell int // used when move is ""
		want bool
	}{
		{"not rolled yet", pre, "b2", 0, false},
		{"empty cell of the rolled row", post, "b2", 0, true},
		{"last empty cell of the rolled row", post, "e2", 0, true},
		{"occupied cell of the rolled row", post, "a2", 0, false},
		{"occupied cell of the rolled row (red)", post, "d2", 0, false},
		{"empty cell of another row", post, "b1", 0, false},
		{"empty cell in the rolled column number but a row roll", post, "b3", 0, false},
		{"negative cell", post, "", -1, false},
		{"cell past the end", post, "", 25, false},
		{"cell far past the end", post, "", 1000, false},
		{"red: empty cell of the rolled column", red, "c1", 0, true},
		{"red: empty cell of the rolled column, row 5", red, "c5", 0, true},
		{"red: occupied cell of the rolled column", red, "c4", 0, false},
		{"red: empty cell of the rolled row number", red, "a3", 0, false},
		{"game already won", won, "b3", 0, false},
	}
	for _, tc := range tests {
		cell := tc.cell
		if tc.move != "" {
			cell = cellsOf(t, tc.b.N(), tc.move)[0]
		}
		if got := tc.b.IsLegal(cell); got != tc.want {
			t.Errorf("%s: IsLegal(%s = %d) in %s = %v, want %v", tc.name, tc.move, cell, tc.b.DPN(), got, tc.want)
		}
	}
}

// TestKeyStates checks that the key tells apart the side to move and the roll
// state, and that SetRoll/ClearRoll and Make/Unmake restore it.
func TestKeyStates(t *testing.T) {
	b, _ := New(5, 4)
	k0 := b.Key()
	seen := map[uint64]string{k0: "pre-roll"}
	for k := 0; k < 5; k++ {
		b.SetRoll(k)
		if b.Roll() != k {
			t.Fatalf("Roll() = %d after SetRoll(%d)", b.Roll(), k)
		}
		if prev, dup := seen[b.Key()]; dup {
			t.Fatalf("SetRoll(%d) key equals that of %s", k, prev)
		}
		seen[b.Key()] = fmt.Sprint("roll ", k)
		if b.KeyBeforeRoll() != k0 {
			t.Fatalf("KeyBeforeRoll after SetRoll(%d): %#x, want the pre-roll key %#x", k, b.KeyBeforeRoll(), k0)
		}
		b.ClearRoll()
		if b.Key() != k0 || b.Roll() != NoRoll {
			t.Fatalf("ClearRoll after SetRoll(%d): key %#x roll %d, want %#x -1", k, b.Key(), b.Roll(), k0)
		}
	}
	// Same cells, other side to move (built directly: no legal DPN has it),
	// must have another key.
	x := *b
	x.stm = Red
	x.recompute()
	if x.Key() == b.Key() {
		t.Fatalf("red-to-move key equals blue-to-move key on the same cells")
	}
	// Blue rolls row 0 and red rolls column 0 after a move: different keys
	// from every pre-roll state, and Make/Unmake restore them.
	b.SetRoll(2)
	kRolled := b.Key()
	b.Make(12) // c3
	kAfter := b.Key()
	if kAfter == kRolled || kAfter == k0 {
		t.Fatalf("Make did not change the key")
	}
	b.SetRoll(2)
	kRed := b.Key()
	if _, dup := seen[kRed]; dup || kRed == kAfter {
		t.Fatalf("red roll key collides")
	}
	if b.KeyBeforeRoll() != kAfter {
		t.Fatalf("KeyBeforeRoll of red's roll %#x, want %#x", b.KeyBeforeRoll(), kAfter)
	}
	b.ClearRoll()
	if b.Key() != kAfter || b.KeyBeforeRoll() != kAfter {
		t.Fatalf("ClearRoll did not restore the key after Make")
	}
	b.Unmake(12)
	if b.Key() != kRolled || b.Roll() != 2 || b.SideToMove() != Blue {
		t.Fatalf("Unmake: key %#x roll %d stm %s, want %#x 2 b", b.Key(), b.Roll(), b.SideToMove(), kRolled)
	}
	b.ClearRoll()
	if b.Key() != k0 {
		t.Fatalf("back at the start the key is %#x, want %#x", b.Key(), k0)
	}
}

func TestColorAndLabels(t *testing.T) {
	if Blue.String() != "b" || Red.String() != "r" || Blue.Name() != "blue" || Red.Name() != "red" ||
		Blue.Other() != Red || Red.Other() != Blue {
		t.Fatalf("Color methods wrong: %s %s %s %s %s %s", Blue, Red, Blue.Name(), Red.Name(), Blue.Other(), Red.Other())
	}
	b := mustParse(t, grid(5, 4, "b", -1, ".....", ".....", ".....", ".....", "....."))
	if b.LineLabel(0) != "1" || b.LineLabel(4) != "5" {
		t.Errorf("blue LineLabel = %q %q, want 1 5", b.LineLabel(0), b.LineLabel(4))
	}
	r := mustParse(t, grid(5, 4, "r", -1, "b....", ".....", ".....", ".....", "....."))
	if r.LineLabel(0) != "a" || r.LineLabel(4) != "e" {
		t.Errorf("red LineLabel = %q %q, want a e", r.LineLabel(0), r.LineLabel(4))
	}
	if b.String() != b.DPN() {
		t.Errorf("String() != DPN()")
	}
}

// TestWinsFromDPN parses positions one move from a win (die rolled), checks
// that m-1 in a line is not a win, plays the winning move and takes it back.
func TestWinsFromDPN(t *testing.T) {
	row17 := make([]string, 17)
	for i := range row17 {
		row17[i] = strings.Repeat(".", 17)
	}
	row17[0] = "r.r.r.r.r.r.r...."  // 7 red, never two adjacent
	row17[16] = ".........bbbbbbb." // blue j17..p17
	tests := []struct {
		name   string
		dpn    string
		move   string
		winner Color
	}{
		{"row", grid(5, 4, "b", 0, "bbb..", "rrr..", ".....", ".....", "....."), "d1", Blue},
		{"column", grid(5, 4, "r", 4, "b...r", "b...r", "....r", "b....", "....b"), "e4", Red},
		{"diagonal", grid(5, 4, "b", 4, "r....", ".b...", "..b..", "...b.", "rr..."), "e5", Blue},
		{"anti-diagonal", grid(4, 4, "r", 0, "b..r", "..r.", ".r..", ".bbb"), "a4", Red},
		{"17x17/8 row to q17", grid(17, 8, "b", 16, row17...), "q17", Blue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.dpn)
			before := *b
			if _, won := b.Winner(); won || b.Over() {
				t.Fatalf("m-1 in a line is already a win: %s", tc.dpn)
			}
			cell := cellsOf(t, b.N(), tc.move)[0]
			if !b.IsLegal(cell) {
				t.Fatalf("%s is not legal in %s", tc.move, tc.dpn)
			}
			b.Make(cell)
			p := refFromDPN(t, tc.dpn)
			p.play(cell/b.N(), cell%b.N())
			checkAgainstRef(t, b, p, tc.name)
			if w, won := b.Winner(); !won || w != tc.winner || !b.Over() || b.Result() != -1 {
				t.Fatalf("after %s: winner %v %v over %v result %v; want %s, -1", tc.move, w, won, b.Over(), b.Result(), tc.winner)
			}
			b.Unmake(cell)
			if *b != before {
				t.Fatalf("Unmake did not restore %s: %s", tc.dpn, b.DPN())
			}
		})
	}
}
