package dice

import "math/bits"

// cellset is a set of cells of one colour, laid out by that colour's
// lines: colour c's line k (a row for blue, a column for red) holds bits
// k*n to k*n+n-1, so that its rolls' winning cells are n consecutive bits.
type cellset [(MaxCells + 63) / 64]uint64

func (s *cellset) add(i int)    { s[i>>6] |= 1 << (i & 63) }
func (s *cellset) remove(i int) { s[i>>6] &^= 1 << (i & 63) }

// line returns bits [k*n, k*n+n) of s.
func (s *cellset) line(k, n int) uint64 {
	i := k * n
	w, o := i>>6, uint(i&63)
	v := s[w] >> o
	if o+uint(n) > 64 && w+1 < len(s) {
		v |= s[w+1] << (64 - o)
	}
	return v & (1<<uint(n) - 1)
}

// winCells returns both colours' winning cells (Threats) as sets laid out
// by each colour's lines, in one walk from the empty cells that reads
// each neighbour once for both colours.
func (b *Board) winCells() (w [2]cellset) {
	g := &b.grid
	n, m := b.n, b.m
	for cell := 0; cell < n*n; cell++ {
		if b.cells[cell] != Empty {
			continue
		}
		p := int(padOf[n][cell])
		var wins [3]bool // by piece
		for _, d := range &b.dir {
			l, f := g[p-d], g[p+d]
			if l == f {
				if l != BlueCell && l != RedCell {
					continue
				}
				run := 1
				for q := p - d; g[q] == l; q -= d {
					run++
				}
				for q := p + d; g[q] == l; q += d {
					run++
				}
				wins[l] = wins[l] || run >= m
				continue
			}
			if l == BlueCell || l == RedCell {
				run := 1
				for q := p - d; g[q] == l; q -= d {
					run++
				}
				wins[l] = wins[l] || run >= m
			}
			if f == BlueCell || f == RedCell {
				run := 1
				for q := p + d; g[q] == f; q += d {
					run++
				}
				wins[f] = wins[f] || run >= m
			}
		}
		if wins[BlueCell] {
			w[Blue].add(cell)
		}
		if wins[RedCell] {
			w[Red].add(int(colOf[n][cell])*n + int(rowOf[n][cell]))
		}
	}
	return w
}

// countThreats returns each colour's {lines, doubles, cells} (Threats)
// from its winning cells on an n x n board.
func countThreats(w *[2]cellset, n int) (c [2][3]int) {
	words := (n*n + 63) / 64
	for col := range c {
		set := &w[col]
		if words == 1 {
			x, mask := set[0], uint64(1)<<uint(n)-1
			c[col][2] = bits.OnesCount64(x)
			for ; x != 0; x >>= uint(n) {
				if l := x & mask; l != 0 {
					c[col][0]++
					if l&(l-1) != 0 {
						c[col][1]++
					}
				}
			}
			continue
		}
		for k := 0; k < n; k++ {
			if l := set.line(k, n); l != 0 {
				c[col][0]++
				if l&(l-1) != 0 {
					c[col][1]++
				}
			}
		}
		for _, x := range set[:words] {
			c[col][2] += bits.OnesCount64(x)
		}
	}
	return c
}

// threatStack keeps the winning cells of both colours (Board.Threats) of
// the frames of a NetEvaluator, as the accumulators are kept: frames 0
// to the evaluator's done[threatView] have theirs in win. A frame's come
// from the frame below it and its checker: the placed cell is no one's
// winning cell any more, and a cell that has become one for c is in line
// with the checker of c placed, the first empty cell beyond that
// checker's run. Each frame is computed on its own board.
type threatStack struct {
	n, m   int
	words  int // the words of a cellset the board's cells use
	win    [MaxCells + 1][2]cellset
	lineIx [2][MaxCells]int16 // a cell's bit in each colour's sets
	cellOf []int16            // the cell of a grid index, -1 off the board
}

func newThreatStack(n, m int) *threatStack {
	t := &threatStack{n: n, m: m, words: (n*n + 63) / 64, cellOf: make([]int16, (n+2*pad)*(n+2*pad))}
	for i := range t.cellOf {
		t.cellOf[i] = -1
	}
	for cell := 0; cell < n*n; cell++ {
		t.lineIx[Blue][cell] = int16(cell)
		t.lineIx[Red][cell] = int16(cell%n*n + cell/n)
		t.cellOf[padOf[n][cell]] = int16(cell)
	}
	return t
}

// wins reports whether a checker of piece on the empty grid cell p would
// make m in a line along direction d.
func (t *threatStack) wins(b *Board, p, d int, piece uint8) bool {
	g := &b.grid
	run := 1
	for q := p - d; g[q] == piece; q -= d {
		run++
	}
	for q := p + d; g[q] == piece; q += d {
		run++
	}
	return run >= t.m
}

// counts returns frame top's {lines, doubles, cells} of each colour,
// computing the frames above done, the last computed one, up to top;
// put[f] is the checker (2*cell + owner) frame f placed, b the board of
// frame top.
func (t *threatStack) counts(b *Board, done, top int, put *[MaxCells + 1]int32) [2][3]int {
	if done < top {
		// The frames above done are computed in turn, each on its own
		// board: the checkers placed after it leave the grid for the
		// moment and come back one frame at a time.
		g := &b.grid
		for k := done + 1; k <= top; k++ {
			g[padOf[t.n][put[k]>>1]] = Empty
		}
		for f := done + 1; f <= top; f++ {
			cell := int(put[f] >> 1)
			owner := Color(put[f] & 1)
			piece := uint8(owner) + 1
			p := int(padOf[t.n][cell])
			g[p] = piece
			w, src := &t.win[f], &t.win[f-1]
			for col := range w {
				copy(w[col][:t.words], src[col][:t.words])
			}
			w[Blue].remove(int(t.lineIx[Blue][cell]))
			w[Red].remove(int(t.lineIx[Red][cell]))
			for _, d := range &b.dir {
				for _, s := range [2]int{d, -d} {
					q := p + s
					for g[q] == piece {
						q += s
					}
					if g[q] == Empty && t.wins(b, q, d, piece) {
						w[owner].add(int(t.lineIx[owner][t.cellOf[q]]))
					}
				}
			}
		}
	}
	return countThreats(&t.win[top], t.n)
}
