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

// threatStack keeps the winning cells of both colours (Board.Threats) of
// the frames of a NetEvaluator, as the accumulators are kept: frame f's
// sets are win[f] when ok[f]. A frame's sets come from the nearest
// computed frame below it and the checkers placed since: a placed cell is
// no one's winning cell any more, and a cell that has become one for c is
// in line with a checker of c placed since, the first empty cell beyond
// that checker's run. The frames between are computed with it, each on
// its own board.
type threatStack struct {
	n, m   int
	words  int // the words of a cellset the board's cells use
	win    [MaxCells + 1][2]cellset
	ok     [MaxCells + 1]bool
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

// reset makes b's winning cells frame 0's.
func (t *threatStack) reset(b *Board) {
	w := &t.win[0]
	*w = [2]cellset{}
	for cell := 0; cell < t.n*t.n; cell++ {
		if b.cells[cell] != Empty {
			continue
		}
		p := int(padOf[t.n][cell])
		for c := Blue; c <= Red; c++ {
			for _, d := range &b.dir {
				if t.wins(b, p, d, uint8(c)+1) {
					w[c].add(int(t.lineIx[c][cell]))
					break
				}
			}
		}
	}
	t.ok[0] = true
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
// computing its sets from the nearest computed frame below it; put[f] is
// the checker (2*cell + owner) frame f placed, b the board of frame top.
func (t *threatStack) counts(b *Board, top int, put *[MaxCells + 1]int32) (c [2][3]int) {
	f := top
	for !t.ok[f] {
		f--
	}
	if f < top {
		// The frames above f are computed in turn, each on its own
		// board: the checkers placed after it leave the grid for the
		// moment and come back one frame at a time.
		g := &b.grid
		for k := f + 1; k <= top; k++ {
			g[padOf[t.n][put[k]>>1]] = Empty
		}
		for f++; f <= top; f++ {
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
			t.ok[f] = true
		}
	}
	w := &t.win[top]
	n := t.n
	for col := range c {
		set := &w[col]
		if t.words == 1 {
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
		for _, x := range set[:t.words] {
			c[col][2] += bits.OnesCount64(x)
		}
	}
	return c
}
