package backgammon

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"
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
//	5     back checker: the side's rearmost checker's point less 1 over
//	      24 (gnubg counts points from 0: the bar is 1)
//	6     back anchor: its rearmost point of two or more checkers, the same
//	7     forward anchor: its most advanced point of two or more in the
//	      other's home board k/6 (k the other's point number), else its
//	      rearmost in the other's outfield k/6, else 2
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
//	20    backbone: how close its points are to its rearmost one
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

// escTable[w] is the rolls (of 36) that let a checker move its whole roll
// when w marks the blocked points among the 12 before it (bit 12-d for
// the point d pips on): the roll's sum must land open, and one of its
// dice must too.
var escTable [1 << 12]int8

func init() {
	for w := range escTable {
		open := func(d int) bool { return w&(1<<(12-d)) == 0 }
		c := 0
		for d1 := 1; d1 <= 6; d1++ {
			for d2 := 1; d2 <= 6; d2++ {
				if open(d1+d2) && (open(d1) || open(d2)) {
					c++
				}
			}
		}
		escTable[w] = int8(c)
	}
}

// window returns the 12 bits of blocked (bit t for the mover's point t)
// for the points 12 to 1 pips before point p, the farthest first; points
// past the mover's 1 point are open.
func window(blocked uint32, p int) int {
	if p >= 12 {
		return int(blocked>>(p-12)) & (1<<12 - 1)
	}
	return int(blocked<<(12-p)) & (1<<12 - 1)
}

// escapes returns the rolls that let a checker at the mover's point p
// move its whole roll, blocked marking the points the other side holds in
// the mover's view.
func escapes(blocked uint32, p int) int { return int(escTable[window(blocked, p)]) }

// sideMasks are a side's points 1 to 24, bit q for its own point q: those
// with checkers, those with one (blots) and those with two or more.
type sideMasks struct{ occupied, single, made uint32 }

// masksOf returns side s's masks, eight points at a time: a point's count
// (0 to Checkers) plus 0x7f sets its byte's top bit when it has checkers,
// plus 0x7e when it has two or more, with no carry into the next byte;
// byteTops gathers the eight top bits. masksByPoint is its specification.
func masksOf(s *Points) sideMasks {
	b := (*[len(Points{})]byte)(unsafe.Pointer(s))
	var m sideMasks
	for q := 1; q < Bar; q += 8 { // points q to q+7
		x := binary.LittleEndian.Uint64(b[q:])
		m.occupied |= byteTops(x+0x7f7f7f7f7f7f7f7f) << q
		m.made |= byteTops(x+0x7e7e7e7e7e7e7e7e) << q
	}
	m.single = m.occupied &^ m.made
	return m
}

// byteTops returns the top bits of x's eight bytes, byte i's as bit i: the
// multiplier moves byte i's bit to bit 56+i, every product term to a bit
// of its own, so none carries.
func byteTops(x uint64) uint32 {
	return uint32((x >> 7 & 0x0101010101010101) * 0x0102040810204080 >> 56)
}

// seen returns a side's mask of its own points as the other side sees
// them: bit 25-q for its point q.
func seen(mask uint32) uint32 { return bits.Reverse32(mask) >> 6 }

// halfFeatures writes the features of side me against side op, both
// counted from their own views, into f; mm and om are their masks, and hc
// a cache of the hits (nil for none).
func halfFeatures(me, op *Points, mm, om sideMasks, f []float64, hc *hitCache) {
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
	if n := int(me[Bar]); n > 0 {
		pips, brk = n*Bar, n*(Bar-line+1)
	}
	for x := mm.occupied; x != 0; x &= x - 1 {
		p := bits.TrailingZeros32(x)
		n := int(me[p])
		pips += n * p
		if p > line {
			brk += n * (p - line + 1) // to the point past it
		} else {
			free += n * p
		}
	}
	f[3] = float64(brk) / 167
	f[4] = float64(free) / 100
	if meBack > 0 {
		f[5] = float64(meBack-1) / 24 // gnubg counts points from 0: the bar is 1
	}
	if mm.made != 0 {
		f[6] = float64(bits.Len32(mm.made)-2) / 24 // the rearmost made point less 1
	}
	f[7] = 2
	if home := mm.made & opHome; home != 0 { // the other's home board, most advanced first
		f[7] = float64(25-bits.TrailingZeros32(home)) / 6
	} else if out := mm.made & opOuter; out != 0 { // its outfield, rearmost first
		f[7] = float64(25-(bits.Len32(out)-1)) / 6
	}
	byOp, byMe := seen(om.made), seen(mm.made) // what blocks me, what blocks op
	h := hc.count(me, seen(om.single), byOp, mm)
	f[8] = float64(h.loss) / (12 * 36)
	f[9] = float64(h.one) / 36
	f[10] = float64(h.two) / 36
	if meBack > 0 {
		f[11] = float64(escapes(byOp, meBack)) / 36
	}
	// Containment: an op checker at op's point q, q from 16 (my 9 point)
	// up; my points block it.
	least := 36
	for q := 16; q <= opBack && q <= 24; q++ {
		least = min(least, escapes(byMe, q))
	}
	f[12] = float64(36-least) / 36
	f[13] = f[12] * f[12]
	for q := max(16, opBack+1); q <= 24; q++ {
		least = min(least, escapes(byMe, q))
	}
	f[14] = float64(36-least) / 36
	f[15] = f[14] * f[14]
	mob := 0
	if n := int(me[Bar]); n > 0 {
		mob = (Bar - 6) * n * escapes(byOp, Bar)
	}
	for x := mm.occupied &^ homeBoard; x != 0; x &= x - 1 {
		p := bits.TrailingZeros32(x)
		mob += (p - 6) * int(me[p]) * escapes(byOp, p)
	}
	f[16] = float64(mob) / 3600
	if n := Checkers - int(me[Off]); n > 0 {
		mean := (pips + n - 1) / n
		k, c := 0, 0
		if n := int(me[Bar]); n > 0 && Bar > mean {
			c, k = n, n*(Bar-mean)*(Bar-mean)
		}
		for x := mm.occupied &^ (1<<(min(mean, 31)+1) - 1); x != 0; x &= x - 1 {
			p := bits.TrailingZeros32(x)
			c += int(me[p])
			k += int(me[p]) * (p - mean) * (p - mean)
		}
		if c > 0 {
			f[17] = float64((k+c-1)/c) / 400
		}
	}
	closed := bits.OnesCount32(om.made & homeBoard)
	if me[Bar] > 0 {
		f[18] = float64(enterLoss(op, me[Bar] > 1)) / (36 * 49.0 / 6)
	}
	f[19] = float64(36-(closed-6)*(closed-6)) / 36
	f[20] = backbone(me, mm.made)
	anchors := bits.OnesCount32(mm.made & opHome)
	back := int(me[Bar])
	for p := 19; p <= 24; p++ {
		back += int(me[p])
	}
	switch {
	case anchors > 1:
		f[21] = float64(back-3) / 4
	case anchors == 1:
		f[22] = float64(back) / 8
	}
	f[23] = float64(pips) / 167
}

// Masks of a side's points (bit q for its point q): its home board (1 to
// 6), the other's home board (19 to 24) and the other's outfield (13 to
// 18).
const (
	homeBoard uint32 = 0x3f << 1
	opHome    uint32 = 0x3f << 19
	opOuter   uint32 = 0x3f << 13
)

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

// backbone is 1 less the mean closeness to the side's rearmost point of
// two or more of each other such point from its 2 point up (11 within 6
// pips, falling to 0 at 13 pips), each weighted by the checkers on the
// rearmost point, as gnubg weighs them; 0 with fewer than two points.
func backbone(me *Points, made uint32) float64 {
	upper, w, tot := -1, 0, 0
	for x := made &^ 3; x != 0; { // its points from 24 down to 2
		p := bits.Len32(x) - 1
		x &^= 1 << p
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
// are the rolls (of 36) that hit at least one blot and at least two, loss
// the pips the other loses, summed over the 36 rolls, the farthest-back
// blot a roll hits. A blot is hit by a roll when a checker of the side
// reaches it with one die, with both (one of the two landings on the way
// open), or with a double's steps (every landing on the way open). With
// one checker on the bar it enters first, and another checker may use the
// die or the double's steps the entry leaves; with more, the dice enter
// them (a double's steps left move on). Two blots are hit by a mixed roll
// when each die hits one from two checkers, or a checker hits with one
// die and goes on to another with the other; by a double when it reaches
// each. These are threats from where the checkers stand, not plays played
// out. Rolls are masks of the 21 rolls, and the rolls that hit at
// distance d through a pattern of blocked points are a table.
type hits struct {
	one, two, loss int
}

// rollBit is roll r's bit in a mask of rolls; doubleRolls marks the
// doubles (weight 1; the others weigh 2).
func rollBit(d1, d2 int) uint32 { return 1 << RollOf(d1, d2) }

var doubleRolls uint32

// hitTab[d][w] are the rolls that move a checker d pips (1 to 12) when
// w marks the blocked points among the 11 before it: bit 11-k for the
// point k pips on (window's 12 bits less the farthest). Doubles that reach
// 13 to 24 pips are found by doubleShots.
var hitTab [13][1 << 11]uint32

func init() {
	for d := 1; d <= 6; d++ {
		doubleRolls |= rollBit(d, d)
	}
	for d := 1; d <= 12; d++ {
		for w := 0; w < 1<<11; w++ {
			open := func(k int) bool { return k >= d || w&(1<<(11-k)) == 0 }
			var m uint32
			for d1 := 1; d1 <= 6; d1++ {
				for d2 := 1; d2 <= d1; d2++ {
					hit := d1 == d || d2 == d
					if !hit && d1 != d2 && d1+d2 == d {
						hit = open(d1) || open(d2)
					}
					if !hit && d1 == d2 && d%d1 == 0 && d/d1 <= 4 {
						hit = true
						for k := d1; k < d; k += d1 {
							hit = hit && open(k)
						}
					}
					if hit {
						m |= rollBit(d1, d2)
					}
				}
			}
			hitTab[d][w] = m
		}
	}
}

// weight returns the rolls of m out of 36.
func weight(m uint32) int {
	return 2*bits.OnesCount32(m&^doubleRolls) + bits.OnesCount32(m&doubleRolls)
}

// reach returns the rolls that move a checker from the mover's point p to
// t (t < p), blocked marking the points the other holds (bit q for the
// mover's point q).
func reach(p, t int, blocked uint32) uint32 {
	if d := p - t; d <= 12 {
		return hitTab[d][window(blocked, p)>>1]
	}
	return doubleShots(p, t, 1, 4, blocked)
}

// hitCache keeps hits by what they depend on (hitKey), in the slot of
// the key's hash, as the evaluation cache keeps values: a search meets
// the same pattern of shooters, blots and blocks in many positions (at
// depth 5 on the bench positions, 47% of the counts with a blot to hit
// are of a pattern counted before in the same run).
type hitCache [1 << hitCacheBits]hitSlot

type hitSlot struct {
	key            hitKey
	one, two, loss int16
}

// hitCacheBits is the log2 of a hitCache's slots (384 KiB).
const hitCacheBits = 14

// hitKey is what a side's hits depend on: the other's blots, the points
// it holds, the side's points with checkers and those with two or more
// (which mixedTwice reads), and its checkers on the bar (bits 26 up).
// Its blots are never 0 in a key, so the empty slot answers no key.
type hitKey [4]uint32

// keyOf returns the hitKey of me (masks mm) against blots and blocked.
func keyOf(me *Points, blots, blocked uint32, mm sideMasks) hitKey {
	return hitKey{blots, blocked, mm.occupied, mm.made | uint32(me[Bar])<<26}
}

// slot returns k's slot.
func (c *hitCache) slot(k hitKey) *hitSlot {
	return &c[(k[0]*0x9e3779b1^k[1]*0x85ebca6b^k[2]*0xc2b2ae35^k[3]*0x27d4eb2f)>>(32-hitCacheBits)]
}

// count returns the hits of me (masks mm) on the blots where blocked
// marks the points the other holds (both at my points): from the cache
// where it holds them, else counted (hits.count) and kept; counted alone
// where c is nil.
func (c *hitCache) count(me *Points, blots, blocked uint32, mm sideMasks) hits {
	var h hits
	if blots == 0 {
		return h
	}
	if c == nil {
		h.count(me, blots, blocked, mm.occupied)
		return h
	}
	k := keyOf(me, blots, blocked, mm)
	slot := c.slot(k)
	if slot.key == k {
		return hits{int(slot.one), int(slot.two), int(slot.loss)}
	}
	h.count(me, blots, blocked, mm.occupied)
	*slot = hitSlot{k, int16(h.one), int16(h.two), int16(h.loss)}
	return h
}

// count counts the hits of me, whose points with checkers are shooters,
// on the other side's blots, where blocked marks the points the other
// holds (both at my points, as seen gives them): a roll at a time with
// none on the bar (countFree) or one (countBar1), a blot at a time with
// more (countByBlot).
func (h *hits) count(me *Points, blots, blocked, shooters uint32) {
	switch {
	case blots == 0:
	case me[Bar] == 0:
		h.countFree(me, blots, blocked, shooters)
	case me[Bar] == 1:
		h.countBar1(me, blots, blocked, shooters)
	default:
		h.countByBlot(me, blots, blocked, shooters)
	}
}

// countByBlot is count a blot at a time, from the farthest back: the
// rolls with which a checker reaches it (reach, and with checkers on the
// bar their entries first), each roll weighed to the first blot it
// reaches; then mixedTwice for every mixed roll that hits. Without
// checkers on the bar it is countFree's specification (TestHitsByRoll).
func (h *hits) countByBlot(me *Points, blots, blocked, shooters uint32) {
	nb := me[Bar]
	// dieEnter[f] are the rolls of a die f whose other die enters a
	// checker from the bar (a double f: f's own point).
	var dieEnter [7]uint32
	var enterDoubles uint32 // the doubles that enter from the bar
	for e := 1; e <= 6; e++ {
		if blocked&(1<<(Bar-e)) == 0 {
			enterDoubles |= rollBit(e, e)
		}
	}
	if nb == 1 {
		for f := 1; f <= 6; f++ {
			for e := 1; e <= 6; e++ {
				if blocked&(1<<(Bar-e)) == 0 {
					dieEnter[f] |= rollBit(f, e)
				}
			}
		}
	}
	var any, twice uint32
	// blots from the farthest back (the most pips lost) down
	for t := 24; t >= 1; t-- {
		if blots&(1<<t) == 0 {
			continue
		}
		var m uint32
		switch {
		case nb == 1:
			// the entering checker's own shots, then another's with what
			// the entry leaves: one die, or a double's other steps
			m = reach(Bar, t, blocked)
			for x := above(shooters, t, t+18); x != 0; x &= x - 1 {
				p := bits.TrailingZeros32(x)
				if d := p - t; d <= 6 {
					m |= dieEnter[d]
				}
				m |= doubleShots(p, t, 1, 3, blocked) & enterDoubles
			}
		case nb >= 2:
			// both dice enter checkers, hitting where they land; a double
			// moves the entered ones, or others, on with the steps left
			if t >= Bar-6 {
				m = dieRolls[Bar-t]
			}
			if nb < 4 {
				left := 4 - int(nb)
				m |= doubleShots(Bar, t, 2, left+1, blocked)
				for x := above(shooters, t, t+6*left); x != 0; x &= x - 1 {
					m |= doubleShots(bits.TrailingZeros32(x), t, 1, left, blocked) & enterDoubles
				}
			}
		default:
			for x := above(shooters, t, 24); x != 0; x &= x - 1 {
				m |= reach(bits.TrailingZeros32(x), t, blocked)
			}
		}
		h.loss += t * weight(m&^any) // the rolls no blot behind it took
		twice |= any & m
		any |= m
	}
	// A mixed roll hits two when each die hits one from where the
	// checkers stand, or one checker hits with a die and goes on to
	// another with the other; a double, when it reaches two.
	// (With one blot no roll hits two, and only the mixed rolls that hit
	// one are asked.) So twice is a part of any.
	twice &= doubleRolls
	if blots&(blots-1) != 0 {
		for x := any &^ doubleRolls; x != 0; x &= x - 1 {
			r := bits.TrailingZeros32(x)
			if d1, d2 := RollDice(r); mixedTwice(me, d1, d2, blots, blocked, shooters) {
				twice |= 1 << r
			}
		}
	}
	h.one, h.two = weight(any), weight(twice)
}

// countFree is count for a side with none on the bar, a roll at a time:
// a die d takes the checkers to shooters>>d, and a checker may stop on
// the way where op does not hold the point, so a roll's hit blots are
// masks shifted by its dice. A roll is weighed to the farthest-back blot
// it hits (the pip loss), and a mixed roll that hits two or more is then
// asked whether one play hits two (mixedTwice), a double whether it
// reaches two.
func (h *hits) countFree(me *Points, blots, blocked, shooters uint32) {
	var die, via [7]uint32 // the points a die reaches, those it may stop on
	for d := 1; d <= 6; d++ {
		die[d] = shooters >> d
		via[d] = die[d] &^ blocked
	}
	for d1 := 1; d1 <= 6; d1++ {
		// a double: up to four steps, every landing on the way open
		r := via[d1] >> d1
		r2 := (r &^ blocked) >> d1
		if m := blots & (die[d1] | r | r2 | (r2&^blocked)>>d1); m != 0 {
			h.add(m, 1, m&(m-1) != 0)
		}
		for d2 := 1; d2 < d1; d2++ {
			if m := blots & (die[d1] | die[d2] | via[d1]>>d2 | via[d2]>>d1); m != 0 {
				h.add(m, 2, m&(m-1) != 0 && mixedTwice(me, d1, d2, blots, blocked, shooters))
			}
		}
	}
}

// add counts a roll of weight w (of 36) whose hit blots are m: a hit, the
// pips of the farthest back, and a hit of two where two says so.
func (h *hits) add(m uint32, w int, two bool) {
	h.one += w
	h.loss += w * (bits.Len32(m) - 1)
	if two {
		h.two += w
	}
}

// countBar1 is count for a side with one checker on the bar, a roll at a
// time, as countFree: a roll that enters with a die e (its entry point
// Bar-e open) hits on the entry point, or with the other die from there
// or from any checker of the side; a double that enters goes on with
// three more steps of the entered checker or of others, every landing on
// the way open. Its specification is countByBlot (TestHitsByRoll).
func (h *hits) countBar1(me *Points, blots, blocked, shooters uint32) {
	var die [7]uint32 // the points a die takes the side's checkers to
	var in [7]bool    // whether a die enters
	for d := 1; d <= 6; d++ {
		die[d] = shooters >> d
		in[d] = blocked&(1<<(Bar-d)) == 0
	}
	for d1 := 1; d1 <= 6; d1++ {
		if in[d1] {
			// a double: the entered checker's three steps on, the others'
			// three steps
			e := uint32(1) << (Bar - d1)
			e1 := e >> d1
			e2 := (e1 &^ blocked) >> d1
			s2 := (die[d1] &^ blocked) >> d1
			reach := e | e1 | e2 | (e2&^blocked)>>d1 | die[d1] | s2 | (s2&^blocked)>>d1
			if m := blots & reach; m != 0 {
				h.add(m, 1, m&(m-1) != 0)
			}
		}
		for d2 := 1; d2 < d1; d2++ {
			var reach uint32
			if in[d1] { // entered with d1, then d2 from there or elsewhere
				reach = 1<<(Bar-d1) | 1<<(Bar-d1-d2) | die[d2]
			}
			if in[d2] {
				reach |= 1<<(Bar-d2) | 1<<(Bar-d2-d1) | die[d1]
			}
			if m := blots & reach; m != 0 {
				h.add(m, 2, m&(m-1) != 0 && mixedTwice(me, d1, d2, blots, blocked, shooters))
			}
		}
	}
}

// above returns the points of mask (bit p for point p) from t+1 to
// min(hi, 24).
func above(mask uint32, t, hi int) uint32 {
	return mask &^ (1<<(t+1) - 1) & (1<<(min(hi, 24)+1) - 1)
}

// dieRolls[e] are the rolls with a die e.
var dieRolls [7]uint32

func init() {
	for e := 1; e <= 6; e++ {
		for f := 1; f <= 6; f++ {
			dieRolls[e] |= rollBit(e, f)
		}
	}
}

// doubleShots returns the doubles with which a checker at the mover's
// point p (Bar: entering) reaches t in least to steps steps of its die,
// every point on the way open; from the bar the first step is the entry.
func doubleShots(p, t, least, steps int, blocked uint32) uint32 {
	var m uint32
	d := p - t
	for e := max(1, (d+steps-1)/steps); e <= 6; e++ { // d/e <= steps
		if d%e != 0 || d/e < least {
			continue
		}
		ok := true
		for k := e; k < d; k += e {
			ok = ok && blocked&(1<<(p-k)) == 0
		}
		if ok {
			m |= rollBit(e, e)
		}
	}
	return m
}

// mixedTwice reports whether the roll d1, d2 (d1 > d2) of a side with nb
// checkers on the bar and shooters elsewhere hits two of blots: without
// the bar, each die hits one or a checker hits with one die and goes on
// to another; with one on the bar, its entry hits one and the other die
// another; with more, both entries hit.
func mixedTwice(me *Points, d1, d2 int, blots, blocked, shooters uint32) bool {
	nb := me[Bar]
	switch nb {
	case 0:
		a1, a2 := blots&(shooters>>d1), blots&(shooters>>d2)
		if a1&(blots<<d2) != 0 || a2&(blots<<d1) != 0 {
			return true // one checker hits on the way and at the end
		}
		// two blots, one for each die, from two checkers
		for x := a1; x != 0; x &= x - 1 {
			i := bits.TrailingZeros32(x)
			for y := a2 &^ (1 << i); y != 0; y &= y - 1 {
				j := bits.TrailingZeros32(y)
				if i+d1 != j+d2 || me[i+d1] >= 2 {
					return true
				}
			}
		}
		return false
	case 1:
		for _, ef := range [2][2]int{{d1, d2}, {d2, d1}} {
			e, f := ef[0], ef[1]
			t := Bar - e
			if blots&(1<<t) == 0 {
				continue
			}
			if blots&^(1<<t)&(shooters>>f) != 0 || (t > f && blots&(1<<(t-f)) != 0) {
				return true
			}
		}
		return false
	}
	return blots&(1<<(Bar-d1)) != 0 && blots&(1<<(Bar-d2)) != 0
}

// features writes the FeatureInputs of b, the side to move's half first,
// into f; hc is a cache of the hits (nil for none), which changes nothing
// but the time.
func features(b *Board, f []float64, hc *hitCache) {
	s := int(b.stm)
	ms, mo := masksOf(&b.pts[s]), masksOf(&b.pts[1-s])
	halfFeatures(&b.pts[s], &b.pts[1-s], ms, mo, f[:HalfFeatures], hc)
	halfFeatures(&b.pts[1-s], &b.pts[s], mo, ms, f[HalfFeatures:FeatureInputs], hc)
}
