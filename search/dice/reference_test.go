package dice

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// This file holds a brute-force reference written from the rules alone (it
// shares nothing with Board but the Zobrist tables), and the property test
// that checks the incremental Board against it, and against a board parsed
// afresh from its own DPN, along thousands of random games.

// refPos is a position kept by the test itself, independently of Board.
type refPos struct {
	n, m int
	stm  byte // 'b' or 'r'
	roll int  // -1 or the rolled line
	grid [MaxN][MaxN]byte
}

func newRefPos(n, m int) *refPos {
	p := &refPos{n: n, m: m, stm: 'b', roll: -1}
	for r := range p.grid {
		for c := range p.grid[r] {
			p.grid[r][c] = '-'
		}
	}
	return p
}

// refFromDPN reads a DPN that the test trusts (built by the test itself).
func refFromDPN(t testing.TB, s string) *refPos {
	t.Helper()
	f := strings.Fields(s)
	n, err1 := strconv.Atoi(f[0])
	m, err2 := strconv.Atoi(f[1])
	roll, err3 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || err3 != nil || len(f) != 4+n*n {
		t.Fatalf("test bug: bad reference DPN %q", s)
	}
	p := newRefPos(n, m)
	p.stm = f[2][0]
	p.roll = roll
	for i, c := range f[4:] {
		p.grid[i/n][i%n] = c[0]
	}
	return p
}

// dpn formats the position by hand.
func (p *refPos) dpn() string {
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(p.n) + " " + strconv.Itoa(p.m) + " " + string(p.stm) + " " + strconv.Itoa(p.roll))
	for r := 0; r < p.n; r++ {
		for c := 0; c < p.n; c++ {
			sb.WriteByte(' ')
			sb.WriteByte(p.grid[r][c])
		}
	}
	return sb.String()
}

// play puts the side to move's checker on (r, c) and passes the turn.
func (p *refPos) play(r, c int) {
	p.grid[r][c] = p.stm
	if p.stm == 'b' {
		p.stm = 'r'
	} else {
		p.stm = 'b'
	}
	p.roll = -1
}

// refLines lists every line of the board in each of the four directions, as
// coordinate lists in order along the line: rows, columns, diagonals (c-r
// constant) and anti-diagonals (r+c constant).
func refLines(n int) [][][2]int {
	var lines [][][2]int
	for r := 0; r < n; r++ {
		var l [][2]int
		for c := 0; c < n; c++ {
			l = append(l, [2]int{r, c})
		}
		lines = append(lines, l)
	}
	for c := 0; c < n; c++ {
		var l [][2]int
		for r := 0; r < n; r++ {
			l = append(l, [2]int{r, c})
		}
		lines = append(lines, l)
	}
	for s := -(n - 1); s <= n-1; s++ {
		var l [][2]int
		for r := 0; r < n; r++ {
			if c := r + s; c >= 0 && c < n {
				l = append(l, [2]int{r, c})
			}
		}
		lines = append(lines, l)
	}
	for s := 0; s <= 2*n-2; s++ {
		var l [][2]int
		for r := 0; r < n; r++ {
			if c := s - r; c >= 0 && c < n {
				l = append(l, [2]int{r, c})
			}
		}
		lines = append(lines, l)
	}
	return lines
}

var refLinesCache [MaxN + 1][][][2]int

func linesOf(n int) [][][2]int {
	if refLinesCache[n] == nil {
		refLinesCache[n] = refLines(n)
	}
	return refLinesCache[n]
}

// refEval is everything the reference derives from a position.
type refEval struct {
	winner   int // -1 none, 0 blue, 1 red
	streaks  [2][MaxN + 1]int
	wins     [2]int // runs of m or more
	pairs    [2]int
	empties  int
	rowEmpty [MaxN]int
	colEmpty [MaxN]int
}

func colourIndex(ch byte) int {
	if ch == 'b' {
		return 0
	}
	return 1
}

func (p *refPos) eval() refEval {
	e := refEval{winner: -1}
	for r := 0; r < p.n; r++ {
		for c := 0; c < p.n; c++ {
			if p.grid[r][c] == '-' {
				e.empties++
				e.rowEmpty[r]++
				e.colEmpty[c]++
			}
		}
	}
	var buf [MaxN]byte
	for _, line := range linesOf(p.n) {
		seq := buf[:len(line)]
		for i, rc := range line {
			seq[i] = p.grid[rc[0]][rc[1]]
		}
		// Runs: maximal blocks of equal non-empty checkers.
		for i := 0; i < len(seq); {
			j := i
			for j < len(seq) && seq[j] == seq[i] {
				j++
			}
			if seq[i] != '-' {
				col, k := colourIndex(seq[i]), j-i
				switch {
				case k >= p.m:
					e.wins[col]++
					e.winner = col
				case k >= 2:
					e.streaks[col][k]++
				}
			}
			i = j
		}
		// Pairs: adjacent equal checkers, or equal checkers around one empty cell.
		for i := range seq {
			if seq[i] == '-' {
				continue
			}
			if i+1 < len(seq) && seq[i+1] == seq[i] {
				e.pairs[colourIndex(seq[i])]++
			}
			if i+2 < len(seq) && seq[i+1] == '-' && seq[i+2] == seq[i] {
				e.pairs[colourIndex(seq[i])]++
			}
		}
	}
	return e
}

// key is the Zobrist key computed from scratch from the tables.
func (p *refPos) key() uint64 {
	var k uint64
	for r := 0; r < p.n; r++ {
		for c := 0; c < p.n; c++ {
			switch p.grid[r][c] {
			case 'b':
				k ^= zCell[r*p.n+c][0]
			case 'r':
				k ^= zCell[r*p.n+c][1]
			}
		}
	}
	if p.stm == 'r' {
		k ^= zSide
	}
	return k ^ zRoll[p.roll+1]
}

// rolls lists the side to move's lines that still have an empty cell.
func (p *refPos) rolls() []int {
	var out []int
	for k := 0; k < p.n; k++ {
		for i := 0; i < p.n; i++ {
			cell := p.grid[k][i] // row k for blue
			if p.stm == 'r' {
				cell = p.grid[i][k] // column k for red
			}
			if cell == '-' {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// moves lists the empty cells of the rolled line, in increasing cell order.
func (p *refPos) moves() []int {
	var out []int
	for r := 0; r < p.n; r++ {
		for c := 0; c < p.n; c++ {
			if p.grid[r][c] != '-' {
				continue
			}
			if (p.stm == 'b' && r == p.roll) || (p.stm == 'r' && c == p.roll) {
				out = append(out, r*p.n+c)
			}
		}
	}
	return out
}

func boardRolls(b *Board) []int {
	var dst [MaxN]int8
	k := b.Rolls(&dst)
	out := []int{}
	for _, x := range dst[:k] {
		out = append(out, int(x))
	}
	return out
}

func boardMoves(b *Board) []int {
	var dst [MaxN]int16
	k := b.Moves(&dst)
	out := []int{}
	for _, x := range dst[:k] {
		out = append(out, int(x))
	}
	return out
}

// checkAgainstRef compares every observable of b with the reference and with
// a board rebuilt from scratch from b.DPN().
func checkAgainstRef(t testing.TB, b *Board, p *refPos, ctx string) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s\nboard: %s\nref:   %s", ctx, fmt.Sprintf(format, args...), b.DPN(), p.dpn())
	}
	if b.N() != p.n || b.M() != p.m {
		fail("N, M = %d, %d, want %d, %d", b.N(), b.M(), p.n, p.m)
	}
	if b.SideToMove().String() != string(p.stm) {
		fail("side to move %s, want %c", b.SideToMove(), p.stm)
	}
	if b.Roll() != p.roll {
		fail("roll %d, want %d", b.Roll(), p.roll)
	}
	if got, want := b.DPN(), p.dpn(); got != want {
		fail("DPN %q, want %q", got, want)
	}
	for cell := 0; cell < p.n*p.n; cell++ {
		want := Empty
		switch p.grid[cell/p.n][cell%p.n] {
		case 'b':
			want = BlueCell
		case 'r':
			want = RedCell
		}
		if b.At(cell) != want {
			fail("At(%d) = %d, want %d", cell, b.At(cell), want)
		}
	}
	if got, want := b.Key(), p.key(); got != want {
		fail("Key %#x, want %#x", got, want)
	}
	e := p.eval()
	if b.Empties() != e.empties || b.Checkers() != p.n*p.n-e.empties {
		fail("Empties %d Checkers %d, want %d, %d", b.Empties(), b.Checkers(), e.empties, p.n*p.n-e.empties)
	}
	w, ok := b.Winner()
	if ok != (e.winner >= 0) || (ok && int(w) != e.winner) {
		fail("Winner = %v, %v; want %d", w, ok, e.winner)
	}
	if over := e.winner >= 0 || e.empties == 0; b.Over() != over {
		fail("Over = %v, want %v", b.Over(), over)
	} else if over {
		want := 0.0
		if e.winner >= 0 {
			want = -1
		}
		if b.Result() != want {
			fail("Result = %v, want %v", b.Result(), want)
		}
	}
	for c := Blue; c <= Red; c++ {
		for k := 2; k < p.m; k++ {
			if b.Streaks(c, k) != e.streaks[c][k] {
				fail("Streaks(%s, %d) = %d, want %d", c, k, b.Streaks(c, k), e.streaks[c][k])
			}
		}
		if int(b.streaks[c][p.m]) != e.wins[c] {
			fail("runs of %d+ for %s = %d, want %d", p.m, c, b.streaks[c][p.m], e.wins[c])
		}
		if b.Pairs(c) != e.pairs[c] {
			fail("Pairs(%s) = %d, want %d", c, b.Pairs(c), e.pairs[c])
		}
	}
	for k := 0; k < p.n; k++ {
		want := e.rowEmpty[k]
		if p.stm == 'r' {
			want = e.colEmpty[k]
		}
		if b.LineEmpty(k) != want {
			fail("LineEmpty(%d) = %d, want %d", k, b.LineEmpty(k), want)
		}
	}
	if got, want := boardRolls(b), p.rolls(); !slices.Equal(got, want) {
		fail("Rolls = %v, want %v", got, want)
	}
	if p.roll >= 0 {
		mv := p.moves()
		if got := boardMoves(b); !slices.Equal(got, mv) {
			fail("Moves = %v, want %v", got, mv)
		}
		for cell := -1; cell <= p.n*p.n; cell++ {
			if want := slices.Contains(mv, cell) && !b.Over(); b.IsLegal(cell) != want {
				fail("IsLegal(%d) = %v, want %v", cell, b.IsLegal(cell), want)
			}
		}
	}
	// From scratch: a parsed board must equal the incremental one field by
	// field, won final positions included.
	fresh, err := ParseDPN(b.DPN())
	if err != nil {
		fail("ParseDPN(DPN()) failed: %v", err)
	}
	if *fresh != *b {
		fail("board parsed from its DPN differs from the incremental board:\n%+v\n%+v", *fresh, *b)
	}
}

// randomWinLength picks m for an n x n board, favouring the interesting ends.
func randomWinLength(rng *rand.Rand, n int) int {
	switch rng.IntN(6) {
	case 0:
		return n
	case 1:
		return 2
	case 2:
		return min(n, 4)
	default:
		return 2 + rng.IntN(n-1)
	}
}

// TestPropertyRandomGames plays random games on every size and checks the
// board against the reference after every roll, make and unmake.
func TestPropertyRandomGames(t *testing.T) {
	games := 2000
	if testing.Short() || raceEnabled {
		games = 250
	}
	rng := rand.New(rand.NewPCG(20240601, 7))
	plies, wins, draws := 0, 0, 0
	for g := 0; g < games; g++ {
		n := MinN + g%(MaxN-MinN+1)
		m := randomWinLength(rng, n)
		b, err := New(n, m)
		if err != nil {
			t.Fatalf("New(%d, %d): %v", n, m, err)
		}
		start := *b
		p := newRefPos(n, m)
		checkAgainstRef(t, b, p, fmt.Sprintf("game %d (%dx%d/%d) start", g, n, n, m))
		type step struct {
			before Board // board before SetRoll
			ref    refPos
			cell   int
			undo   Undo
		}
		// Odd games move with MakeSaving and UnmakeRestoring, which must
		// agree with the reference exactly as Make and Unmake do.
		saving := g%2 == 1
		var hist []step
		for !b.Over() {
			ctx := fmt.Sprintf("game %d (%dx%d/%d) ply %d", g, n, n, m, len(hist))
			before := *b
			rolls := boardRolls(b)
			if len(rolls) == 0 {
				t.Fatalf("%s: no rolls in a position that is not over: %s", ctx, b.DPN())
			}
			// Every roll changes the key to a distinct value, and
			// ClearRoll restores the position exactly.
			seen := map[uint64]int{b.Key(): -1}
			for _, k := range rolls {
				b.SetRoll(k)
				if j, dup := seen[b.Key()]; dup {
					t.Fatalf("%s: SetRoll(%d) key %#x equals that of roll %d", ctx, k, b.Key(), j)
				}
				seen[b.Key()] = k
				b.ClearRoll()
				if *b != before {
					t.Fatalf("%s: SetRoll(%d)+ClearRoll did not restore the board", ctx, k)
				}
			}
			roll := rolls[rng.IntN(len(rolls))]
			b.SetRoll(roll)
			p.roll = roll
			checkAgainstRef(t, b, p, ctx+" after SetRoll")
			moves := boardMoves(b)
			cell := moves[rng.IntN(len(moves))]
			hist = append(hist, step{before: before, ref: *p, cell: cell})
			keyBefore := b.Key()
			if saving {
				b.MakeSaving(cell, &hist[len(hist)-1].undo)
				if b.Key() != keyAfterRolled(before, roll, cell) {
					t.Fatalf("%s: KeyAfter(%d) differs from the key after Make", ctx, cell)
				}
			} else {
				b.Make(cell)
			}
			p.play(cell/n, cell%n)
			plies++
			if b.Key() == keyBefore {
				t.Fatalf("%s: Make(%d) left the key unchanged", ctx, cell)
			}
			checkAgainstRef(t, b, p, ctx+" after Make "+FormatMove(cell, n))
		}
		if _, ok := b.Winner(); ok {
			wins++
		} else {
			draws++
		}
		// Take the whole game back.
		for i := len(hist) - 1; i >= 0; i-- {
			h := &hist[i]
			if saving {
				b.UnmakeRestoring(h.cell, &h.undo)
			} else {
				b.Unmake(h.cell)
			}
			*p = h.ref
			ctx := fmt.Sprintf("game %d (%dx%d/%d) unmake ply %d", g, n, n, m, i)
			checkAgainstRef(t, b, p, ctx)
			b.ClearRoll()
			if *b != h.before {
				t.Fatalf("%s: Unmake+ClearRoll did not restore the board:\n got %s\nwant %s", ctx, b.DPN(), h.before.DPN())
			}
		}
		if *b != start || b.DPN() != start.DPN() || b.Key() != start.Key() {
			t.Fatalf("game %d: board after unmaking everything is not the start: %s", g, b.DPN())
		}
	}
	t.Logf("%d games, %d plies, %d wins, %d draws", games, plies, wins, draws)
	if wins == 0 || draws == 0 {
		t.Fatalf("random games gave %d wins and %d draws; the sample should have both", wins, draws)
	}
}

// TestReferenceSelfCheck pins the reference to hand-counted values, so that
// the property test cannot pass by the reference and the board sharing a
// mistake.
func TestReferenceSelfCheck(t *testing.T) {
	tests := []struct {
		dpn          string
		winner       int
		streaks      map[[2]int]int // (colour, k) -> count; absent means 0
		pairsB       int
		pairsR       int
		checkStreaks int // m for which streaks are listed
	}{
		// b b - b - in row 1: one adjacent pair, one gap pair (b1-d1); a run of 2.
		{"5 4 r -1 b b - b - r r - - - - - - - - - - - - - - - - - -", -1,
			map[[2]int]int{{0, 2}: 1, {1, 2}: 1}, 2, 1, 4},
		// b r b: no pair across a checker of the other colour.
		{"3 3 r -1 b r b - - - - - -", -1, nil, 0, 0, 3},
		// b b b across the top of 4x4, m=4: two adjacent pairs, one run of 3.
		{"4 4 r -1 b b b - r r - - - - - - - - - -", -1,
			map[[2]int]int{{0, 3}: 1, {1, 2}: 1}, 2, 1, 4},
		// Diagonal a1 b2 and anti-diagonal c1 b2 for blue, gap pair a1-c1 in the row.
		{"3 3 r -1 b - b - b - r r - ", -1,
			map[[2]int]int{{0, 2}: 2, {1, 2}: 1}, 3, 1, 3},
		// A win in column a.
		{"3 3 r -1 b r - b r - b - -", 0, map[[2]int]int{{1, 2}: 1}, 2, 1, 3},
	}
	for _, tc := range tests {
		p := refFromDPN(t, tc.dpn)
		e := p.eval()
		if e.winner != tc.winner {
			t.Errorf("%s: reference winner %d, want %d", tc.dpn, e.winner, tc.winner)
		}
		if e.pairs[0] != tc.pairsB || e.pairs[1] != tc.pairsR {
			t.Errorf("%s: reference pairs %v, want [%d %d]", tc.dpn, e.pairs, tc.pairsB, tc.pairsR)
		}
		for c := 0; c < 2; c++ {
			for k := 2; k < tc.checkStreaks; k++ {
				if e.streaks[c][k] != tc.streaks[[2]int{c, k}] {
					t.Errorf("%s: reference streaks[%d][%d] = %d, want %d", tc.dpn, c, k, e.streaks[c][k], tc.streaks[[2]int{c, k}])
				}
			}
		}
	}
}

// keyAfterRolled is KeyAfter of the position with the die showing roll,
// checking KeyAfterRoll on the way.
func keyAfterRolled(b Board, roll, cell int) uint64 {
	k := b.KeyAfterRoll(roll)
	b.SetRoll(roll)
	if b.Key() != k {
		return 0
	}
	return b.KeyAfter(cell)
}
