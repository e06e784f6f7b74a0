package dice

import "fmt"

// Board limits. Every per-board array is sized by these constants so that a
// Board is a plain value: copying it copies the position, and nothing in
// make/unmake allocates.
const (
	MinN     = 3            // smallest board side
	MaxN     = 17           // largest board side
	MaxCells = MaxN * MaxN  // cells on the largest board
	MaxPlies = MaxCells + 1 // longest game in plies, plus one for the terminal position
	NoRoll   = -1           // roll state of a position whose die must still be rolled
	noWinner = -1           // winner field of a position nobody has won
	offBoard = 3            // content of the border cells of the padded grid
	pad      = 2            // border width of the padded grid: pairs look two cells away
	maxPad   = (MaxN + 2*pad) * (MaxN + 2*pad)
)

// Geometry tables, built once per board size: the padded-grid index, row and
// column of every cell.
var (
	padOf [MaxN + 1][MaxCells]int16
	rowOf [MaxN + 1][MaxCells]uint8
	colOf [MaxN + 1][MaxCells]uint8
)

func init() {
	for n := MinN; n <= MaxN; n++ {
		stride := n + 2*pad
		for cell := 0; cell < n*n; cell++ {
			r, c := cell/n, cell%n
			padOf[n][cell] = int16((r+pad)*stride + c + pad)
			rowOf[n][cell] = uint8(r)
			colOf[n][cell] = uint8(c)
		}
	}
}

// Color is a player: Blue is the row player and moves first, Red the column
// player.
type Color int8

// The two players.
const (
	Blue Color = 0
	Red  Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return 1 - c }

// String returns "b" or "r", the letters DPN uses.
func (c Color) String() string {
	if c == Blue {
		return "b"
	}
	return "r"
}

// Cell contents.
const (
	Empty    uint8 = 0
	BlueCell uint8 = 1
	RedCell  uint8 = 2
)

// dirs are the four line directions (row, column): along a row, along a
// column, the diagonal and the anti-diagonal.
var dirs = [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}

// Board is a Dice position: cells, side to move, roll state, and the
// incrementally kept Zobrist key, empty-cell counts per line, streak counts
// and pair counts. The zero Board is not valid; use New or ParseDPN.
type Board struct {
	n, m   int
	stm    Color
	roll   int8
	winner int8
	empty  int
	key    uint64
	cells  [MaxCells]uint8
	// grid mirrors cells on an (n+4) x (n+4) grid whose two-cell border
	// holds offBoard, so the walks of update need no bounds checks.
	grid     [maxPad]uint8
	dir      [4]int // grid offsets of the four line directions
	rowEmpty [MaxN]uint8
	colEmpty [MaxN]uint8
	// streaks[c][k] counts the runs of exactly k checkers of colour c
	// (2 <= k < m); streaks[c][m] counts runs of m or more (a win).
	streaks [2][MaxN + 1]int16
	// pairs[c] is Hauk's pair count for colour c.
	pairs [2]int16
}

// New returns the empty n x n board with win length m, blue to move and the
// die not yet rolled.
func New(n, m int) (*Board, error) {
	if n < MinN || n > MaxN {
		return nil, fmt.Errorf("board size %d out of range [%d, %d]", n, MinN, MaxN)
	}
	if m < 2 || m > n {
		return nil, fmt.Errorf("win length %d out of range [2, %d]", m, n)
	}
	b := &Board{n: n, m: m, roll: NoRoll, winner: noWinner}
	b.recompute()
	return b, nil
}

// N returns the board side.
func (b *Board) N() int { return b.n }

// M returns the win length.
func (b *Board) M() int { return b.m }

// SideToMove returns the player to move (or to roll).
func (b *Board) SideToMove() Color { return b.stm }

// Roll returns the rolled line (0-based), or NoRoll if the die must be rolled.
func (b *Board) Roll() int { return int(b.roll) }

// Key returns the Zobrist key of the position: cells, side to move and roll
// state.
func (b *Board) Key() uint64 { return b.key }

// At returns the content of cell (Empty, BlueCell or RedCell).
func (b *Board) At(cell int) uint8 { return b.cells[cell] }

// Empties returns the number of empty cells.
func (b *Board) Empties() int { return b.empty }

// Checkers returns the number of checkers on the board.
func (b *Board) Checkers() int { return b.n*b.n - b.empty }

// Streaks returns the number of runs of colour c of exactly length k, for
// 2 <= k < M (see the package documentation for what a run is).
func (b *Board) Streaks(c Color, k int) int { return int(b.streaks[c][k]) }

// Pairs returns Hauk's pair count for colour c.
func (b *Board) Pairs(c Color) int { return int(b.pairs[c]) }

// Winner returns the player who has m connected, if any.
func (b *Board) Winner() (Color, bool) {
	if b.winner == noWinner {
		return 0, false
	}
	return Color(b.winner), true
}

// Over reports whether the game has ended, by a win or a full board.
func (b *Board) Over() bool { return b.winner != noWinner || b.empty == 0 }

// Result returns the value of a finished game from the side to move's view:
// -1 if the opponent has won (only the player who just moved can have won),
// 0 for a draw. It must only be called when Over is true.
func (b *Board) Result() float64 {
	if b.winner != noWinner {
		return -1
	}
	return 0
}

// LineEmpty returns the number of empty cells on line k of the side to move:
// row k for blue, column k for red.
func (b *Board) LineEmpty(k int) int {
	if b.stm == Blue {
		return int(b.rowEmpty[k])
	}
	return int(b.colEmpty[k])
}

// Rolls writes the side to move's possible die outcomes, its lines that still
// have an empty cell, into dst and returns how many there are. Each is equally
// likely: a roll of a full line is rolled again.
func (b *Board) Rolls(dst *[MaxN]int8) int {
	lines := &b.rowEmpty
	if b.stm == Red {
		lines = &b.colEmpty
	}
	k := 0
	for i := 0; i < b.n; i++ {
		if lines[i] != 0 {
			dst[k] = int8(i)
			k++
		}
	}
	return k
}

// Moves writes the empty cells of the rolled line into dst and returns how
// many there are. The die must have been rolled.
func (b *Board) Moves(dst *[MaxN]int16) int {
	k := 0
	r := int(b.roll)
	if b.stm == Blue {
		base := r * b.n
		for c := 0; c < b.n; c++ {
			if b.cells[base+c] == Empty {
				dst[k] = int16(base + c)
				k++
			}
		}
		return k
	}
	for cell := r; cell < b.n*b.n; cell += b.n {
		if b.cells[cell] == Empty {
			dst[k] = int16(cell)
			k++
		}
	}
	return k
}

// SetRoll makes the chance event "the die shows line k". The die must not
// have been rolled and line k of the side to move must have an empty cell.
func (b *Board) SetRoll(k int) {
	b.key = b.KeyAfterRoll(k)
	b.roll = int8(k)
}

// ClearRoll undoes SetRoll.
func (b *Board) ClearRoll() {
	b.key ^= zRoll[int(b.roll)+1] ^ zRoll[0]
	b.roll = NoRoll
}

// line returns the line of cell that a roll by c selects.
func (b *Board) line(c Color, cell int) int {
	if c == Blue {
		return cell / b.n
	}
	return cell % b.n
}

// Make plays the side to move's checker on cell, which must be an empty cell
// of the rolled line. Afterwards the opponent is to roll.
func (b *Board) Make(cell int) {
	piece := uint8(b.stm) + 1
	p := int(padOf[b.n][cell])
	b.update(p, piece, 1)
	b.cells[cell] = piece
	b.grid[p] = piece
	r, c := rowOf[b.n][cell], colOf[b.n][cell]
	b.rowEmpty[r]--
	b.colEmpty[c]--
	b.empty--
	b.key = b.KeyAfter(cell)
	b.roll = NoRoll
	b.stm = b.stm.Other()
}

// Unmake takes back the checker on cell, which must be the last move made,
// restoring the position exactly: mover to move, its roll the cell's line.
// It recomputes the counters the move changed; UnmakeRestoring restores
// them from a copy instead, and this is its specification.
func (b *Board) Unmake(cell int) {
	p, piece := b.takeBack(cell)
	b.update(p, piece, -1)
}

// Undo holds the counters a move changes (the mover's streak counts and
// both pair counts), saved by MakeSaving so that UnmakeRestoring can put
// them back instead of walking the lines again.
type Undo struct {
	streaks [MaxN + 1]int16
	pairs   [2]int16
}

// MakeSaving is Make that first saves into u the counters the move
// changes.
func (b *Board) MakeSaving(cell int, u *Undo) {
	u.streaks = b.streaks[b.stm]
	u.pairs = b.pairs
	b.Make(cell)
}

// UnmakeRestoring takes back the move made by MakeSaving(cell, u), which
// must be the last move made, restoring the counters from u. It leaves
// the board exactly as Unmake does.
func (b *Board) UnmakeRestoring(cell int, u *Undo) {
	_, piece := b.takeBack(cell)
	b.streaks[piece-1] = u.streaks
	b.pairs = u.pairs
}

// takeBack undoes everything of a move but the streak and pair counts and
// returns the grid cell and the piece taken back.
func (b *Board) takeBack(cell int) (int, uint8) {
	piece := b.cells[cell]
	mover := Color(piece - 1)
	b.stm = mover
	r, c := rowOf[b.n][cell], colOf[b.n][cell]
	if mover == Blue {
		b.roll = int8(r)
	} else {
		b.roll = int8(c)
	}
	b.key ^= zCell[cell][mover] ^ zRoll[int(b.roll)+1] ^ zRoll[0] ^ zSide
	b.rowEmpty[r]++
	b.colEmpty[c]++
	b.empty++
	b.cells[cell] = Empty
	p := int(padOf[b.n][cell])
	b.grid[p] = Empty
	b.winner = noWinner
	return p, piece
}

// KeyAfterRoll returns the Zobrist key the position would have with the
// die showing line k, without setting it.
func (b *Board) KeyAfterRoll(k int) uint64 { return b.key ^ zRoll[0] ^ zRoll[k+1] }

// KeyBeforeRoll returns the Zobrist key of the position with the die not
// yet rolled: the key of the checkers and the side to move alone.
func (b *Board) KeyBeforeRoll() uint64 { return b.key ^ zRoll[int(b.roll)+1] ^ zRoll[0] }

// KeyAfter returns the Zobrist key the position would have after the side
// to move plays cell (the opponent to roll), without playing it: what a
// search needs to fetch the child's table entry ahead of time.
func (b *Board) KeyAfter(cell int) uint64 {
	return b.key ^ zCell[cell][b.stm] ^ zRoll[int(b.roll)+1] ^ zRoll[0] ^ zSide
}

// update adds (sign = 1) or removes (sign = -1) the effect of a checker of
// piece on grid cell p to the streak and pair counts, and on adding records a
// win. It reads only the other cells, so it gives the same answer whether or
// not p holds the checker yet. In a position nobody has won every run is
// shorter than m, so each walk takes fewer than m steps.
func (b *Board) update(p int, piece uint8, sign int16) {
	m := b.m
	st := &b.streaks[piece-1]
	g := &b.grid
	var pairs [3]int16 // pair count change by cell content (index 1 blue, 2 red)
	won := false
	for _, d := range &b.dir {
		back := 0
		for q := p - d; g[q] == piece; q -= d {
			back++
		}
		fwd := 0
		for q := p + d; g[q] == piece; q += d {
			fwd++
		}
		if back >= 2 {
			st[min(back, m)] -= sign
		}
		if fwd >= 2 {
			st[min(fwd, m)] -= sign
		}
		run := back + fwd + 1
		if run >= 2 {
			st[min(run, m)] += sign
			won = won || run >= m
		}
		// Pairs: a neighbour of the same colour, or one two away across an
		// empty cell; and the gap pair this cell used to separate.
		l1, f1 := g[p-d], g[p+d]
		if back > 0 || (l1 == Empty && g[p-2*d] == piece) {
			pairs[piece]++
		}
		if fwd > 0 || (f1 == Empty && g[p+2*d] == piece) {
			pairs[piece]++
		}
		if l1 == f1 && (l1 == BlueCell || l1 == RedCell) {
			pairs[l1]--
		}
	}
	b.pairs[Blue] += sign * pairs[BlueCell]
	b.pairs[Red] += sign * pairs[RedCell]
	if won && sign > 0 {
		b.winner = int8(piece - 1)
	}
}

// probe returns the content of (r, c), or offBoard outside the board.
func (b *Board) probe(r, c int) uint8 {
	if r < 0 || r >= b.n || c < 0 || c >= b.n {
		return offBoard
	}
	return b.cells[r*b.n+c]
}

// recompute derives every incremental field from the cells, side to move and
// roll. It is the specification that Make and Unmake must agree with.
func (b *Board) recompute() {
	n, m := b.n, b.m
	stride := n + 2*pad
	b.dir = [4]int{1, stride, stride + 1, stride - 1}
	for i := range b.grid {
		b.grid[i] = offBoard
	}
	for cell := 0; cell < n*n; cell++ {
		b.grid[padOf[n][cell]] = b.cells[cell]
	}
	b.empty = 0
	b.rowEmpty = [MaxN]uint8{}
	b.colEmpty = [MaxN]uint8{}
	b.streaks = [2][MaxN + 1]int16{}
	b.pairs = [2]int16{}
	b.winner = noWinner
	b.key = 0
	for cell := 0; cell < n*n; cell++ {
		p := b.cells[cell]
		if p == Empty {
			b.empty++
			b.rowEmpty[cell/n]++
			b.colEmpty[cell%n]++
			continue
		}
		b.key ^= zCell[cell][p-1]
	}
	if b.stm == Red {
		b.key ^= zSide
	}
	b.key ^= zRoll[int(b.roll)+1]
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			p := b.cells[r*n+c]
			if p == Empty {
				continue
			}
			for _, d := range dirs {
				dr, dc := d[0], d[1]
				// Count a run once, from its first cell.
				if b.probe(r-dr, c-dc) != p {
					k := 0
					for rr, cc := r, c; b.probe(rr, cc) == p; rr, cc = rr+dr, cc+dc {
						k++
					}
					if k >= 2 {
						b.streaks[p-1][min(k, m)]++
					}
					if k >= m {
						b.winner = int8(p - 1)
					}
				}
				// Pairs counted from their first cell.
				if b.probe(r+dr, c+dc) == p || (b.probe(r+dr, c+dc) == Empty && b.probe(r+2*dr, c+2*dc) == p) {
					b.pairs[p-1]++
				}
			}
		}
	}
}

// Threats returns colour c's winning cells: the empty cells where a
// checker of c would complete m in a line. lines is the number of c's
// lines (rows for blue, columns for red) that hold at least one, doubles
// the number that hold two or more, and cells how many there are. A roll
// of one of the lines wins at once for c; the opponent, placing one
// checker, can block at most one cell. The board keeps no count of them:
// Threats walks from every empty cell, O(n² m). BothThreats gives both
// colours' in one walk.
func (b *Board) Threats(c Color) (lines, doubles, cells int) {
	t := b.BothThreats()
	return t[c][0], t[c][1], t[c][2]
}

// BothThreats returns Threats(Blue) and Threats(Red), as {lines, doubles,
// cells} each.
func (b *Board) BothThreats() [2][3]int {
	w := b.winCells()
	return countThreats(&w, b.n)
}

// Lines returns the number of c's lines (rows for blue, columns for red)
// with an empty cell: the outcomes of c's roll.
func (b *Board) Lines(c Color) int {
	e := &b.rowEmpty
	if c == Red {
		e = &b.colEmpty
	}
	k := 0
	for _, x := range e[:b.n] {
		if x != 0 {
			k++
		}
	}
	return k
}
