package breakthrough

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// ref is the rules written plainly, as the specification the Board's
// sets and shifts are checked against: a grid of cells, moves found by
// looking at each piece's three squares ahead, events by looking at each
// square.
type ref struct {
	w, h    int
	cell    [MaxH][MaxW]int // [row][column]: -1 empty, White or Black
	stm     int
	pending bool
}

func refNew(w, h int) *ref {
	r := &ref{w: w, h: h}
	for row := range h {
		for c := range w {
			switch {
			case row < 2:
				r.cell[row][c] = White
			case row >= h-2:
				r.cell[row][c] = Black
			default:
				r.cell[row][c] = -1
			}
		}
	}
	return r
}

func (r *ref) count(side int) int {
	n := 0
	for row := range r.h {
		for c := range r.w {
			if r.cell[row][c] == side {
				n++
			}
		}
	}
	return n
}

// onFar reports whether side stands on its far row.
func (r *ref) onFar(side int) bool {
	row := r.h - 1
	if side == Black {
		row = 0
	}
	for c := range r.w {
		if r.cell[row][c] == side {
			return true
		}
	}
	return false
}

func (r *ref) over() bool {
	return r.onFar(White) || r.onFar(Black) || r.count(White) == 0 || r.count(Black) == 0
}

func (r *ref) result() float64 {
	o := 1 - r.stm
	if r.onFar(o) || r.count(r.stm) == 0 {
		return -1
	}
	return 1
}

// moves returns the piece moves as from*64+to, sorted, and the roll.
func (r *ref) moves() []int {
	var ms []int
	dr := 1
	if r.stm == Black {
		dr = -1
	}
	for row := range r.h {
		for c := range r.w {
			if r.cell[row][c] != r.stm {
				continue
			}
			to := row + dr
			if to < 0 || to >= r.h {
				continue
			}
			for dc := -1; dc <= 1; dc++ {
				tc := c + dc
				if tc < 0 || tc >= r.w {
					continue
				}
				t := r.cell[to][tc]
				if (dc == 0 && t == -1) || (dc != 0 && t != r.stm) {
					ms = append(ms, (row*8+c)<<6|(to*8+tc))
				}
			}
		}
	}
	slices.Sort(ms)
	return append(ms, Roll)
}

// events returns the roll's events with their weights and the total.
func (r *ref) events() (map[int]int, int) {
	ev := map[int]int{}
	for row := range r.h {
		for c := range r.w {
			if r.cell[row][c] == -1 {
				ev[Nothing]++
			} else {
				ev[row*8+c] = 1
			}
		}
	}
	return ev, r.w * r.h
}

func (r *ref) play(m int) {
	if m == Roll {
		r.pending = true
	} else {
		from, to := m>>6, m&63
		r.cell[from>>3][from&7] = -1
		r.cell[to>>3][to&7] = r.stm
	}
	r.stm = 1 - r.stm
}

func (r *ref) happen(ev int) {
	if ev != Nothing {
		r.cell[ev>>3][ev&7] = -1
	}
	r.pending = false
}

func (r *ref) eval() float64 {
	adv := func(side int) int {
		best := 0
		for row := range r.h {
			for c := range r.w {
				if r.cell[row][c] != side {
					continue
				}
				if side == White {
					best = max(best, row) // row+1 - 1
				} else {
					best = max(best, r.h-(row+1))
				}
			}
		}
		return best
	}
	o := 1 - r.stm
	x := 200*(r.count(r.stm)-r.count(o)) + 50*(adv(r.stm)-adv(o))
	v := float64(x) / 1500
	if v > 1 {
		v = 1
	}
	if v < -1 {
		v = -1
	}
	return v
}

func (r *ref) String() string {
	s := fmt.Sprintf("%d %d ", r.w, r.h)
	if r.pending {
		s += "r"
	}
	s += [2]string{"w", "b"}[r.stm] + " "
	for row := r.h - 1; row >= 0; row-- {
		for c := range r.w {
			s += string(".wb"[r.cell[row][c]+1])
		}
		if row > 0 {
			s += "/"
		}
	}
	return s
}

// boardMoves returns b's moves, the piece moves sorted and the roll last.
func boardMoves(b *Board) []int {
	var buf [MaxMoves]int16
	n := b.Moves(&buf)
	if n != b.MoveCount() {
		panic(fmt.Sprintf("%s: Moves writes %d moves, MoveCount says %d", b, n, b.MoveCount()))
	}
	if buf[n-1] != Roll {
		panic(fmt.Sprintf("%s: the roll is not the last move", b))
	}
	var ms []int
	for _, m := range buf[:n-1] {
		ms = append(ms, int(m))
	}
	slices.Sort(ms)
	return append(ms, Roll)
}

// checkAgainstRef compares every rule b answers with r's answer.
func checkAgainstRef(t *testing.T, b *Board, r *ref, where string) {
	t.Helper()
	if b.String() != r.String() {
		t.Fatalf("%s: board %q, reference %q", where, b, r)
	}
	if b.Key() != b.computeKey() {
		t.Fatalf("%s: %s: incremental key %#x, from scratch %#x", where, b, b.Key(), b.computeKey())
	}
	if b.Over() != r.over() {
		t.Fatalf("%s: %s: Over %v, reference %v", where, b, b.Over(), r.over())
	}
	if b.Over() {
		if b.Result() != r.result() {
			t.Fatalf("%s: %s: Result %v, reference %v", where, b, b.Result(), r.result())
		}
		return
	}
	if b.Evaluate() != r.eval() {
		t.Fatalf("%s: %s: Evaluate %v, reference %v", where, b, b.Evaluate(), r.eval())
	}
	if b.pending {
		var ev [MaxEvents]int8
		var w [MaxEvents]float64
		n, total := b.Events(&ev, &w)
		want, wantTotal := r.events()
		got, sum := map[int]int{}, 0
		for i := range n {
			got[int(ev[i])] = int(w[i])
			sum += int(w[i])
		}
		if total != wantTotal || sum != total || len(got) != n || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: %s: events %v (total %d, sum %d), reference %v (total %d)", where, b, got, total, sum, want, wantTotal)
		}
		return
	}
	if got, want := boardMoves(b), r.moves(); !slices.Equal(got, want) {
		t.Fatalf("%s: %s: moves %v, reference %v", where, b, got, want)
	}
}

// TestAgainstReference plays random games on every board size, with the
// Board and the reference side by side, and compares them at every
// position; it also checks that KeyAfter and KeyAfterEvent give the key
// the move or event leads to, and that taking back the whole game with
// the undo records restores the start bit for bit.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 20
	if testing.Short() {
		games = 4
	}
	for w := MinW; w <= MaxW; w++ {
		for h := MinH; h <= MaxH; h++ {
			for g := range games {
				b, _ := New(w, h)
				start := *b
				r := refNew(w, h)
				type step struct {
					x     int
					event bool
					u     Undo
				}
				var path []step
				for ply := 0; ; ply++ {
					where := fmt.Sprintf("%dx%d game %d ply %d", w, h, g, ply)
					checkAgainstRef(t, b, r, where)
					if b.Over() {
						break
					}
					s := step{event: b.pending}
					if b.pending {
						var ev [MaxEvents]int8
						var wt [MaxEvents]float64
						n, _ := b.Events(&ev, &wt)
						for i := range n {
							if k := b.KeyAfterEvent(int(ev[i])); k != eventKey(b, int(ev[i])) {
								t.Fatalf("%s: %s: KeyAfterEvent(%d) %#x, after the event %#x", where, b, ev[i], k, eventKey(b, int(ev[i])))
							}
						}
						s.x = int(ev[rng.IntN(n)])
						b.HappenSaving(s.x, &s.u)
						r.happen(s.x)
					} else {
						ms := boardMoves(b)
						for _, m := range ms {
							if k := b.KeyAfter(m); k != moveKey(b, m) {
								t.Fatalf("%s: %s: KeyAfter(%s) %#x, after the move %#x", where, b, FormatMove(b, m), k, moveKey(b, m))
							}
						}
						// The roll one time in four, or when no piece can
						// move, so that games also end by breaking through.
						s.x = Roll
						if len(ms) > 1 && rng.IntN(4) != 0 {
							s.x = ms[rng.IntN(len(ms)-1)]
						}
						b.MakeSaving(s.x, &s.u)
						r.play(s.x)
					}
					path = append(path, s)
				}
				for i := len(path) - 1; i >= 0; i-- {
					if path[i].event {
						b.UnhappenRestoring(path[i].x, &path[i].u)
					} else {
						b.UnmakeRestoring(path[i].x, &path[i].u)
					}
				}
				if *b != start {
					t.Fatalf("%dx%d game %d: taking the game back gives %s, not the start", w, h, g, b)
				}
			}
		}
	}
}

// moveKey and eventKey are the keys after a move or event, from scratch.
func moveKey(b *Board, m int) uint64 {
	c := *b
	var u Undo
	c.MakeSaving(m, &u)
	return c.computeKey()
}

func eventKey(b *Board, ev int) uint64 {
	c := *b
	var u Undo
	c.HappenSaving(ev, &u)
	return c.computeKey()
}
