package backgammon

import "sync"

// A play is one complete move for the roll: every checker move of it. The
// search and the game records know a play by its code, a number below
// PlayCodes that the board decodes with its roll:
//
//   - 0 is the empty play (no checker can move);
//   - a play of a roll d1 > d2 is order·676 + a·26 + b: the checker on
//     point a moves first, by d1 when order is 0 and by d2 when it is 1,
//     then the checker on point b by the other die (b = 0 when only one
//     die can be played);
//   - a play of a double is 1352 plus the rank of its from-points (up to
//     four, from 1 to 25, the bar being 25), made from the highest down:
//     any legal play of a double can be made in that order, so a multiset
//     of from-points names it, and the combinations with repetition of up
//     to four of 25 points rank below 23,751.
//
// Plays are distinct resulting positions, as gnubg counts them: of the
// orders of checker moves that reach the same position, the board keeps
// the first it generates (non-doubles: the larger die first, from the
// highest point down; doubles: from the highest point down).
const (
	PassPlay   = 0
	pairCodes  = 2 * 26 * 26
	PlayCodes  = pairCodes + 23751
	MaxPlays   = 4096 // more than any position has (gnubg's fixture: at most hundreds)
	doubleBase = pairCodes
)

var (
	binom      [30][5]int
	doubleFrom [23751][4]int8 // a double's from-points by rank, highest first, 0 where unused
)

func init() {
	for n := range binom {
		binom[n][0] = 1
		for k := 1; k < 5 && k <= n; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
	}
	var f [4]int8
	for f[0] = 0; f[0] <= Bar; f[0]++ {
		for f[1] = 0; f[1] <= f[0]; f[1]++ {
			for f[2] = 0; f[2] <= f[1]; f[2]++ {
				for f[3] = 0; f[3] <= f[2]; f[3]++ {
					doubleFrom[doubleRank(f)] = f
				}
			}
		}
	}
}

// doubleRank ranks from-points f[0] >= f[1] >= f[2] >= f[3] (0 unused) in
// the combinatorial number system of combinations with repetition.
func doubleRank(f [4]int8) int {
	// Ascending x1 <= x2 <= x3 <= x4 become strictly increasing x_i + i - 1.
	return binom[f[3]][1] + binom[int(f[2])+1][2] + binom[int(f[1])+2][3] + binom[int(f[0])+3][4]
}

// Steps writes the checker moves of play code m on b's roll as
// (from, die) pairs in the order they are made, and returns how many.
func (b *Board) Steps(m int, st *[4][2]int8) int {
	if m == PassPlay {
		return 0
	}
	if m >= doubleBase {
		f := &doubleFrom[m-doubleBase]
		n := 0
		for n < 4 && f[n] != 0 {
			st[n] = [2]int8{f[n], b.d1}
			n++
		}
		return n
	}
	first, second := b.d1, b.d2
	if m >= 676 {
		first, second = second, first
		m -= 676
	}
	st[0] = [2]int8{int8(m / 26), first}
	if m%26 == 0 {
		return 1
	}
	st[1] = [2]int8{int8(m % 26), second}
	return 2
}

// step moves a checker of the side to move from point from by die d (to
// the point from-d, or off), hitting a blot there; it reports the hit.
func (b *Board) step(from, d int8) bool {
	s := b.stm
	me, op := &b.pts[s], &b.pts[1-s]
	b.key ^= zPoint[s][from][me[from]]
	me[from]--
	b.key ^= zPoint[s][from][me[from]]
	to := from - d
	if to <= 0 {
		me[Off]++
		return false
	}
	b.key ^= zPoint[s][to][me[to]]
	me[to]++
	b.key ^= zPoint[s][to][me[to]]
	q := Bar - to
	if op[q] != 1 {
		return false
	}
	o := 1 - s
	b.key ^= zPoint[o][q][1]
	op[q] = 0
	b.key ^= zPoint[o][Bar][op[Bar]]
	op[Bar]++
	b.key ^= zPoint[o][Bar][op[Bar]]
	return true
}

// keyAfterStep returns the key after step(from, d) without making it: the
// generator's last checker move, whose result is only looked up.
func (b *Board) keyAfterStep(from, d int8) uint64 {
	s := b.stm
	me, op := &b.pts[s], &b.pts[1-s]
	n := me[from]
	k := b.key ^ zPoint[s][from][n] ^ zPoint[s][from][n-1]
	to := from - d
	if to <= 0 {
		return k
	}
	n = me[to]
	k ^= zPoint[s][to][n] ^ zPoint[s][to][n+1]
	q := Bar - to
	if op[q] != 1 {
		return k
	}
	o, nb := 1-s, op[Bar]
	return k ^ zPoint[o][q][1] ^ zPoint[o][Bar][nb] ^ zPoint[o][Bar][nb+1]
}

// unstep takes back step(from, d), which hit when hit is set.
func (b *Board) unstep(from, d int8, hit bool) {
	s := b.stm
	me, op := &b.pts[s], &b.pts[1-s]
	to := from - d
	if to <= 0 {
		me[Off]--
	} else {
		b.key ^= zPoint[s][to][me[to]]
		me[to]--
		b.key ^= zPoint[s][to][me[to]]
		if hit {
			o, q := 1-s, Bar-to
			b.key ^= zPoint[o][Bar][op[Bar]]
			op[Bar]--
			b.key ^= zPoint[o][Bar][op[Bar]]
			op[q] = 1
			b.key ^= zPoint[o][q][1]
		}
	}
	b.key ^= zPoint[s][from][me[from]]
	me[from]++
	b.key ^= zPoint[s][from][me[from]]
}

// highest returns the side to move's highest occupied point (25 for the
// bar), 0 when all are borne off.
func (b *Board) highest() int8 {
	me := &b.pts[b.stm]
	for p := int8(Bar); p > 0; p-- {
		if me[p] > 0 {
			return p
		}
	}
	return 0
}

// canStep reports whether the side to move may move a checker from point
// from by die d, hi being its highest occupied point: a checker on the bar
// first, onto a point the opponent holds with fewer than two, or off when
// every checker is home, exactly or, from the highest point, by more.
func (b *Board) canStep(from, d, hi int8) bool {
	if b.pts[b.stm][from] == 0 || (hi == Bar && from != Bar) {
		return false
	}
	to := from - d
	if to >= 1 {
		return b.pts[1-b.stm][Bar-to] < 2
	}
	return hi <= 6 && (to == 0 || from == hi)
}

// Undo is what a play changes that its take-back restores: the key, the
// roll and which of its checker moves hit.
type Undo struct {
	key    uint64
	hits   uint8
	d1, d2 int8
}

// MakeSaving makes play m of a decision (a code of Moves), saving in u
// what UnmakeRestoring needs: the checkers move, the opponent is to roll.
func (b *Board) MakeSaving(m int, u *Undo) {
	u.key, u.d1, u.d2, u.hits = b.key, b.d1, b.d2, 0
	var st [4][2]int8
	n := b.Steps(m, &st)
	for i := 0; i < n; i++ {
		if b.step(st[i][0], st[i][1]) {
			u.hits |= 1 << i
		}
	}
	b.d1, b.d2 = 0, 0
	b.stm ^= 1
	b.key ^= playKey(u.d1, u.d2) // the steps kept the points' keys
}

// playKey is what a play of the roll d1, d2 changes in the key besides
// its steps: the side to move, and the roll, which is gone.
func playKey(d1, d2 int8) uint64 { return zSide ^ zRoll[rollOf[d1][d2]] }

// UnmakeRestoring takes back play m, made with MakeSaving(m, u).
func (b *Board) UnmakeRestoring(m int, u *Undo) {
	b.stm ^= 1
	b.d1, b.d2 = u.d1, u.d2
	var st [4][2]int8
	n := b.Steps(m, &st)
	for i := n - 1; i >= 0; i-- {
		b.unstep(st[i][0], st[i][1], u.hits&(1<<i) != 0)
	}
	b.key = u.key
}

// KeyAfter returns the key after play m, without making it.
func (b *Board) KeyAfter(m int) uint64 {
	var u Undo
	b.MakeSaving(m, &u)
	k := b.key
	b.UnmakeRestoring(m, &u)
	return k
}

// gen collects distinct plays by their resulting keys.
type gen struct {
	codes *[MaxPlays]int16
	keys  *[MaxPlays]uint64 // the plays' resulting keys (s.keys)
	s     *genScratch       // from a pool (see Moves)
	n     int
	best  int8 // the most checker moves of a play so far
	// linear makes add compare a result with every play so far, the
	// table's specification (movesLinear, for the tests).
	linear bool
}

// genScratch is the generator's memory: the plays' keys, and a hash table
// of them that tells whether a result is a play's already in one probe or
// a few, where comparing it with every play so far cost a double of
// hundreds of plays tens of thousands of comparisons. A slot holds the
// epoch it was written in and the play's index plus one; a slot of
// another epoch is empty, so a new epoch empties the table without
// writing it.
type genScratch struct {
	keys  [MaxPlays]uint64
	slots [genSlots]uint32
	epoch uint32
}

const (
	genSlotBits  = 13
	genSlots     = 1 << genSlotBits // at least twice MaxPlays: at most half full
	genIndexBits = 13               // index+1 up to MaxPlays
	genEpochs    = 1 << (32 - genIndexBits)
)

// newEpoch empties the table.
func (s *genScratch) newEpoch() {
	s.epoch++
	if s.epoch == genEpochs { // the epochs wrap: clear the slots once
		clear(s.slots[:])
		s.epoch = 1
	}
}

// add records play code with n checker moves, the board showing its
// result (before the side and roll change), unless a play of more checker
// moves exists or its result is a play's already.
func (g *gen) add(code int, n int8, key uint64) {
	if n < g.best {
		return
	}
	if n > g.best { // every shorter play so far is not legal
		g.best, g.n = n, 0
		g.s.newEpoch()
	}
	if g.linear {
		for i := 0; i < g.n; i++ {
			if g.keys[i] == key {
				return
			}
		}
		g.codes[g.n], g.keys[g.n] = int16(code), key
		g.n++
		return
	}
	h := key * 0x9e3779b97f4a7c15 >> (64 - genSlotBits) // Fibonacci hashing
	for {
		e := g.s.slots[h&(genSlots-1)]
		if e>>genIndexBits != g.s.epoch {
			break
		}
		if g.keys[e&(1<<genIndexBits-1)-1] == key {
			return
		}
		h++
	}
	if g.n == MaxPlays {
		panic("backgammon: more than MaxPlays plays")
	}
	g.s.slots[h&(genSlots-1)] = g.s.epoch<<genIndexBits | uint32(g.n+1)
	g.codes[g.n], g.keys[g.n] = int16(code), key
	g.n++
}

// Moves writes the codes of the legal plays of a decision, each distinct
// resulting position once, and returns how many (1, the empty play, when
// no checker can move).
func (b *Board) Moves(out *[MaxPlays]int16) int { return b.moves(out, nil, false) }

// MovesKeys is Moves, and writes into keys the key after each play, as
// KeyAfter gives it: the generator has them.
func (b *Board) MovesKeys(out *[MaxPlays]int16, keys *[MaxPlays]uint64) int {
	return b.moves(out, keys, false)
}

// movesLinear is Moves with each result compared with every play so far
// rather than looked up: the specification of the table.
func (b *Board) movesLinear(out *[MaxPlays]int16) int { return b.moves(out, nil, true) }

// moves is Moves, and MovesKeys where keys is not nil.
func (b *Board) moves(out *[MaxPlays]int16, keys *[MaxPlays]uint64, linear bool) int {
	// The generator's memory (64 KiB) comes from a pool: zeroing its keys
	// alone on every call cost as much as generating the plays.
	s := genPool.Get().(*genScratch)
	s.newEpoch()
	g := gen{codes: out, keys: &s.keys, s: s, linear: linear}
	if keys != nil {
		g.keys = keys // the results' keys, before the side and roll change
	}
	if b.d1 == b.d2 {
		b.genDouble(&g, 0, Bar, [4]int8{})
	} else {
		b.genPair(&g)
	}
	n := g.n
	genPool.Put(s)
	if n == 0 {
		out[0] = PassPlay
		if keys != nil {
			keys[0] = b.key
		}
		n = 1
	}
	if keys != nil {
		after := playKey(b.d1, b.d2)
		for i := range keys[:n] {
			keys[i] ^= after
		}
	}
	return n
}

var genPool = sync.Pool{New: func() any { return new(genScratch) }}

// genPair generates the plays of a roll d1 > d2: both dice, in either
// order, when that is possible; else one die, the larger if it can be
// played.
func (b *Board) genPair(g *gen) {
	for order := 0; order < 2; order++ {
		dA, dB := b.d1, b.d2
		if order == 1 {
			dA, dB = dB, dA
		}
		hi := b.highest()
		for a := hi; a > 0; a-- {
			if !b.canStep(a, dA, hi) {
				continue
			}
			hitA := b.step(a, dA)
			hi2 := b.highest()
			for c := hi2; c > 0; c-- {
				if !b.canStep(c, dB, hi2) {
					continue
				}
				g.add(order*676+int(a)*26+int(c), 2, b.keyAfterStep(c, dB))
			}
			if g.best < 2 {
				g.add(order*676+int(a)*26, 1, b.key)
			}
			b.unstep(a, dA, hitA)
		}
	}
	if g.best == 1 {
		// One die only: the larger when it can be played (order 0).
		larger := false
		for i := 0; i < g.n; i++ {
			if g.codes[i] < 676 {
				larger = true
			}
		}
		if larger {
			k := 0
			for i := 0; i < g.n; i++ {
				if g.codes[i] < 676 {
					g.codes[k], g.keys[k] = g.codes[i], g.keys[i]
					k++
				}
			}
			g.n = k
		}
	}
}

// genDouble generates the plays of a double from the highest point down:
// k checker moves made so far from the points in f, the next from a point
// no higher than top.
func (b *Board) genDouble(g *gen, k int, top int8, f [4]int8) {
	d := b.d1
	moved := false
	if k < 4 {
		hi := b.highest()
		for p := min(top, hi); p > 0; p-- {
			if !b.canStep(p, d, hi) {
				continue
			}
			moved = true
			f[k] = p
			if k == 3 { // the last checker move: only its result is needed
				g.add(doubleBase+doubleRank(f), 4, b.keyAfterStep(p, d))
			} else {
				hit := b.step(p, d)
				b.genDouble(g, k+1, p, f)
				b.unstep(p, d, hit)
			}
			f[k] = 0
		}
	}
	if !moved && k > 0 {
		g.add(doubleBase+doubleRank(f), int8(k), b.key)
	}
}
