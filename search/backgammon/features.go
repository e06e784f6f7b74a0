package backgammon

import (
	"fmt"
	"math/bits"
)

// The input set "features": the raw inputs (InputSize), then for the side
// to move and then the other HalfFeatures hand-made features of the kind
// Berliner's BKG and gnubg's contact nets read, each from its side's view
// against the other side. They are written from their definitions (gnubg's
// eval.c names them I_OFF1 to I_BACKG1; these keep its scale factors):
//
//	0-2   borne-off checkers n: min(n,5)/5, then (n-5)/5 up to 10, then (n-10)/5
//	3     break contact: the pips of the side's checkers still behind the
//	      other's rearmost checker, each the distance it must travel to
//	      pass it, over 167
//	4     free pips: the pips of the checkers already past it, over 100
//	5     back checker: the side's rearmost checker's point over 24
//	6     back anchor: its rearmost point of two or more checkers over 24
//	7     forward anchor: its most advanced point of two or more in the
//	      other's home board k/6 (k the other's point number), else in the
//	      other's outfield k/6, else 2
//	8     pip loss: the pips the other loses to the side's hits, the most
//	      a roll can take, summed over the side's 36 rolls, over 12·36
//	9     P1: the rolls (of 36) with which the side hits at least one blot
//	10    P2: the rolls with which it hits two
//	11    back escapes: the rolls that let the rearmost checker move its
//	      whole roll past the other's points (a landing and a way there
//	      open), over 36
//	12-13 containment of the other's checkers from the side's 9 point to
//	      the other's rearmost: 1 - (fewest escapes)/36, and its square
//	14-15 the same from the 9 point to the side's home board
//	16    mobility: for every checker outside its home board, its escapes
//	      times its distance from home, over 3600
//	17    one-sided moment: the mean square distance beyond the mean point
//	      of the checkers above it, over 400
//	18    enter: the pips a checker on the bar loses to closed points, over
//	      36·49/6 (0 with none on the bar)
//	19    enter2: (36 - (n-6)²)/36, n the other's closed home points
//	20    backbone: how close together its points are behind its rearmost one
//	21-22 back game: with two or more points in the other's home board the
//	      checkers there (and on the bar) less 3, over 4; with one, over 8
//	23    pip count over 167
const (
	HalfFeatures     = 24
	FeatureInputs    = 2 * HalfFeatures
	FeatureInputSize = InputSize + FeatureInputs
)

// InputSets are the input sets of backgammon nets: "" (the raw inputs,
// InputSize) and "features" (the raw inputs and the FeatureInputs).
var InputSets = []string{"", "features"}

// SetInputs returns the number of inputs of a net of the input set set.
func SetInputs(set string) (int, error) {
	switch set {
	case "":
		return InputSize, nil
	case "features":
		return FeatureInputSize, nil
	}
	return 0, fmt.Errorf("no input set %q in backgammon: want features, or none for the raw inputs", set)
}

// escTable[m] is the rolls (of 36) that let a checker move its whole roll
// when m marks the blocked distances 1 to 12 ahead of it (bit d-1): the
// roll's sum must land open, and one of its dice must too.
var escTable [1 << 12]int8

func init() {
	for m := range escTable {
		open := func(d int) bool { return m&(1<<(d-1)) == 0 }
		c := 0
		for d1 := 1; d1 <= 6; d1++ {
			for d2 := 1; d2 <= 6; d2++ {
				if open(d1+d2) && (open(d1) || open(d2)) {
					c++
				}
			}
		}
		escTable[m] = int8(c)
	}
}

// escapes returns the rolls that let a checker at the mover's point p
// move its whole roll, blk being the other side's checkers (its points of
// two or more block): a landing past the mover's 1 point is open.
func escapes(blk *Points, p int) int {
	m := 0
	for d := 1; d <= 12 && p-d >= 1; d++ {
		if blk[25-(p-d)] >= 2 {
			m |= 1 << (d - 1)
		}
	}
	return int(escTable[m])
}

// halfFeatures writes the features of side me against side op, both
// counted from their own views, into f.
func halfFeatures(me, op *Points, f []float64) {
	clear(f[:HalfFeatures])
	off := float64(me[Off])
	switch {
	case off <= 5:
		f[0] = off / 5
	case off <= 10:
		f[0], f[1] = 1, (off-5)/5
	default:
		f[0], f[1], f[2] = 1, 1, (off-10)/5
	}
	opBack := rear(op) // in op's view; 0 when op has none on the board
	meBack := rear(me)
	// op's rearmost checker stands at my point 25-opBack: my checkers above
	// it must pass it.
	line := Bar - opBack
	if opBack == 0 {
		line = 0
	}
	brk, free, pips := 0, 0, 0
	for p := 1; p <= Bar; p++ {
		n := int(me[p])
		if n == 0 {
			continue
		}
		pips += n * p
		if p > line {
			brk += n * (p - line)
		} else {
			free += n * p
		}
	}
	f[3] = float64(brk) / 167
	f[4] = float64(free) / 100
	f[5] = float64(meBack) / 24
	for p := 24; p >= 1; p-- {
		if me[p] >= 2 {
			f[6] = float64(p) / 24
			break
		}
	}
	f[7] = 2
	for p := 19; p <= 24; p++ { // the other's home board, most advanced first
		if me[p] >= 2 {
			f[7] = float64(25-p) / 6
			break
		}
	}
	if f[7] == 2 {
		for p := 13; p <= 18; p++ {
			if me[p] >= 2 {
				f[7] = float64(25-p) / 6
				break
			}
		}
	}
	var h hits
	h.count(me, op)
	f[8] = float64(h.loss) / (12 * 36)
	f[9] = float64(h.one) / 36
	f[10] = float64(h.two) / 36
	if meBack > 0 {
		f[11] = float64(escapes(op, meBack)) / 36
	}
	// Containment: an op checker at op's point q, q from 16 (my 9 point)
	// up; my points block it.
	least := 36
	for q := 16; q <= opBack && q <= 24; q++ {
		least = min(least, escapes(me, q))
	}
	f[12] = float64(36-least) / 36
	f[13] = f[12] * f[12]
	for q := max(16, opBack+1); q <= 24; q++ {
		least = min(least, escapes(me, q))
	}
	f[14] = float64(36-least) / 36
	f[15] = f[14] * f[14]
	mob := 0
	for p := 7; p <= Bar; p++ {
		if me[p] > 0 {
			mob += (p - 6) * int(me[p]) * escapes(op, p)
		}
	}
	f[16] = float64(mob) / 3600
	if n := Checkers - int(me[Off]); n > 0 {
		mean := (pips + n - 1) / n
		k, c := 0, 0
		for p := mean + 1; p <= Bar; p++ {
			if me[p] > 0 {
				c += int(me[p])
				k += int(me[p]) * (p - mean) * (p - mean)
			}
		}
		if c > 0 {
			f[17] = float64((k+c-1)/c) / 400
		}
	}
	closed := 0
	for q := 1; q <= 6; q++ {
		if op[q] >= 2 {
			closed++
		}
	}
	if me[Bar] > 0 {
		f[18] = float64(enterLoss(op, me[Bar] > 1)) / (36 * 49.0 / 6)
	}
	f[19] = float64(36-(closed-6)*(closed-6)) / 36
	f[20] = backbone(me)
	anchors, back := 0, 0
	for p := 19; p <= 24; p++ {
		if me[p] >= 2 {
			anchors++
		}
		back += int(me[p])
	}
	back += int(me[Bar])
	switch {
	case anchors > 1:
		f[21] = float64(back-3) / 4
	case anchors == 1:
		f[22] = float64(back) / 8
	}
	f[23] = float64(pips) / 167
}

// rear returns side s's rearmost occupied point (Bar for the bar), 0 when
// none is left on the board.
func rear(s *Points) int {
	for p := Bar; p > 0; p-- {
		if s[p] > 0 {
			return p
		}
	}
	return 0
}

// enterLoss is the pips a checker on the bar loses, summed over the 36
// rolls, to op's closed home points: a roll whose dice are both closed
// loses both, one closed with two on the bar loses that one.
func enterLoss(op *Points, two bool) int {
	loss := 0
	for i := 1; i <= 6; i++ {
		if op[i] >= 2 {
			loss += 4 * i // the double of a closed point
			for j := i + 1; j <= 6; j++ {
				if op[j] >= 2 {
					loss += 2 * (i + j)
				} else if two {
					loss += 2 * i
				}
			}
		} else if two {
			for j := i + 1; j <= 6; j++ {
				if op[j] >= 2 {
					loss += 2 * j
				}
			}
		}
	}
	return loss
}

// backbone is 1 less the mean closeness of each point of two or more to
// the next one below it (11 within 6 pips, falling to 0 at 13), weighted
// by the checkers on the upper point; 0 with fewer than two points.
func backbone(me *Points) float64 {
	upper, w, tot := -1, 0, 0
	for p := 24; p >= 1; p-- {
		if me[p] < 2 {
			continue
		}
		if upper == -1 {
			upper = p
			continue
		}
		d, c := upper-p, 0
		switch {
		case d <= 6:
			c = 11
		case d <= 11:
			c = 13 - d
		}
		w += c * int(me[upper])
		tot += int(me[upper])
	}
	if tot == 0 {
		return 0
	}
	return 1 - float64(w)/(float64(tot)*11)
}

// hits counts the rolls of a side that hit the other's blots: one and two
// are the rolls (of 36) that hit at least one and two, loss the pips the
// other loses, summed over the 36 rolls, the most a roll's hits can take.
// A hit is found by one checker's path of whole dice through open points
// (a blot on the way is hit too), or two checkers' paths that share out
// the dice; checkers on the bar enter first. The play that hits need not
// be the best one: these are threats, as gnubg's inputs count them.
type hits struct {
	one, two, loss int
	paths          [64]hitPath
	n              int
	// near and far are the mover's points (the bar included) with
	// checkers and a blot within 12 and 24 pips below: the only starts of
	// a mixed roll's and a double's hits.
	near, far [Bar + 1]int8
	nNear     int
	nFar      int
}

// hitPath is a checker's path that hits: the dice it uses (a mask of the
// two dice, or the count of a double's), its start and the blots it hits,
// as a mask of the mover's points.
type hitPath struct {
	use   int8
	from  int8
	blots uint32
}

func (h *hits) count(me, op *Points) {
	var blots uint32 // op's blots, at my points
	for q := 1; q <= 24; q++ {
		if op[q] == 1 {
			blots |= 1 << (25 - q)
		}
	}
	if blots == 0 {
		return
	}
	for p := 2; p <= Bar; p++ {
		if me[p] == 0 {
			continue
		}
		below := blots & (1<<p - 1)
		if below == 0 {
			continue
		}
		h.far[h.nFar] = int8(p)
		h.nFar++
		if below>>max(p-12, 0) != 0 {
			h.near[h.nNear] = int8(p)
			h.nNear++
		}
	}
	if h.nFar == 0 && me[Bar] == 0 {
		return
	}
	for d1 := 1; d1 <= 6; d1++ {
		for d2 := 1; d2 <= d1; d2++ {
			w := 2
			if d1 == d2 {
				w = 1
			}
			var n, loss int
			if d1 == d2 {
				n, loss = h.double(me, op, blots, d1)
			} else {
				n, loss = h.mixed(me, op, blots, d1, d2)
			}
			if n >= 1 {
				h.one += w
			}
			if n >= 2 {
				h.two += w
			}
			h.loss += w * loss
		}
	}
}

// open reports whether the mover may land on its point t (1 to 24): op
// holds fewer than two there.
func open(op *Points, t int) bool { return op[25-t] < 2 }

// add records a path that hits, when it does.
func (h *hits) add(use, from int, b uint32) {
	if b != 0 && h.n < len(h.paths) {
		h.paths[h.n] = hitPath{use: int8(use), from: int8(from), blots: b}
		h.n++
	}
}

// best returns the most blots one or two compatible paths hit, and the
// most pips they take; ok(a, b) says whether paths a and b (b -1 for a
// path alone) may be played together.
func (h *hits) best(ok func(a, b int) bool) (n, loss int) {
	take := func(b uint32) {
		c := bits.OnesCount32(b)
		l := 0
		for m := b; m != 0; m &= m - 1 {
			l += bits.TrailingZeros32(m)
		}
		n, loss = max(n, c), max(loss, l)
	}
	for a := 0; a < h.n; a++ {
		if ok(a, -1) {
			take(h.paths[a].blots)
		}
		for b := a + 1; b < h.n; b++ {
			if ok(a, b) {
				take(h.paths[a].blots | h.paths[b].blots)
			}
		}
	}
	return n, loss
}

// mixed returns the blots hit and the pips taken by roll d1, d2 (d1 ≠ d2).
func (h *hits) mixed(me, op *Points, blots uint32, d1, d2 int) (int, int) {
	h.n = 0
	dice := [2]int{d1, d2}
	// single and both: the paths of a checker at p with one die (mask 1
	// or 2) and with both in either order (mask 3).
	path := func(p int) {
		for i, d := range dice {
			t := p - d
			if t < 1 || !open(op, t) {
				continue
			}
			h.add(1<<i, p, blots&(1<<t))
			if u := t - dice[1-i]; u >= 1 && open(op, u) {
				h.add(3, p, blots&(1<<t|1<<u))
			}
		}
	}
	nb := int(me[Bar])
	if nb > 0 {
		// A path from the bar enters first; with one on the bar a
		// checker elsewhere may then use the die the entry left.
		canEnter := [2]bool{open(op, Bar-d1), open(op, Bar-d2)}
		if nb >= 2 {
			for i, d := range dice {
				if canEnter[i] {
					h.add(1<<i, Bar, blots&(1<<(Bar-d)))
				}
			}
			return h.best(func(a, b int) bool { return b < 0 || h.paths[a].use&h.paths[b].use == 0 })
		}
		for _, p := range h.near[:h.nNear] {
			path(int(p))
		}
		// A path elsewhere needs the entry with the other die; two paths
		// need one of them to be the entry.
		return h.best(func(a, b int) bool {
			pa := h.paths[a]
			if b < 0 {
				return pa.from == Bar || (pa.use != 3 && canEnter[2-pa.use])
			}
			pb := h.paths[b]
			return pa.use&pb.use == 0 && pa.use != 3 && pb.use != 3 && (pa.from == Bar) != (pb.from == Bar)
		})
	}
	for _, p := range h.near[:h.nNear] {
		path(int(p))
	}
	return h.best(func(a, b int) bool {
		if b < 0 {
			return true
		}
		pa, pb := h.paths[a], h.paths[b]
		return pa.use&pb.use == 0 && (pa.from != pb.from || me[pa.from] >= 2)
	})
}

// double returns the blots hit and the pips taken by the double d.
func (h *hits) double(me, op *Points, blots uint32, d int) (int, int) {
	h.n = 0
	steps := 4
	var entered uint32
	var enterAt int
	if nb := int(me[Bar]); nb > 0 {
		enterAt = Bar - d
		if !open(op, enterAt) {
			return 0, 0
		}
		k := min(nb, 4)
		steps -= k
		entered = blots & (1 << enterAt)
	}
	path := func(p int) {
		var b uint32
		for k := 1; k <= steps; k++ {
			t := p - k*d
			if t < 1 || !open(op, t) {
				break
			}
			b |= blots & (1 << t)
			h.add(k, p, b)
		}
	}
	for _, p := range h.far[:h.nFar] {
		if p != Bar {
			path(int(p))
		}
	}
	if enterAt > 0 && me[enterAt] == 0 && blots&(1<<enterAt-1) != 0 {
		path(enterAt)
	}
	if h.n == 0 {
		if entered != 0 {
			return 1, enterAt
		}
		return 0, 0
	}
	for i := 0; i < h.n; i++ {
		h.paths[i].blots |= entered
	}
	return h.best(func(a, b int) bool {
		if b < 0 {
			return true
		}
		pa, pb := h.paths[a], h.paths[b]
		if int(pa.use)+int(pb.use) > steps {
			return false
		}
		if pa.from != pb.from {
			return true
		}
		c := int(me[pa.from])
		if int(pa.from) == enterAt {
			c += min(int(me[Bar]), 4)
		}
		return c >= 2
	})
}

// features writes the FeatureInputs of b, the side to move's half first,
// into f.
func features(b *Board, f []float64) {
	s := int(b.stm)
	halfFeatures(&b.pts[s], &b.pts[1-s], f[:HalfFeatures])
	halfFeatures(&b.pts[1-s], &b.pts[s], f[HalfFeatures:FeatureInputs])
}
