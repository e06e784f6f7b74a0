package backgammon

import (
	"slices"
	"sync"
)

// The bear-off databases: exact values of positions where both sides have
// every checker left in their home boards (points 1 to 6), so that
// neither can hit the other and each side's game is its own.
//
// The one-sided database holds, for each of the 54,264 ways to put up to
// fifteen checkers on six points, the probabilities of bearing them all
// off in exactly k rolls when every roll is played to leave the fewest
// rolls expected (gnubg's one-sided database, which it builds the same
// way). The side on roll then wins with probability Σ_k P_me(k)·P_op(≥k):
// exact for each side's rolls, though a side racing to win might choose
// another play than the one that minimises its expected rolls.
//
// The two-sided database holds the exact probability that the side on
// roll wins, best play on both sides, for every pair of positions of up
// to six checkers (924 a side: gnubg's default two-sided database, 6x6).
//
// Both are built in memory at first use (0.8 s of CPU here: go test
// -bench BuildBearoff), by NewNetEvaluator for a net that uses them, and
// never change after.

const (
	boPoints    = 6
	boCheckers  = Checkers
	boTSMax     = 6  // checkers a side in the two-sided database
	boMaxRolls  = 40 // more than fifteen checkers on the 6 point can need
	boPositions = 54264
	boTSPos     = 924
)

// boCount[k][s] is the number of ways to put at most s checkers on k
// points: C(s+k, k).
var boCount [boPoints + 1][boCheckers + 1]int

// boSkip[i][c][v] is the number of positions of at most c checkers that
// boRank counts before those with v on point i: Σ_{u<v} boCount[i-1][c-u].
var boSkip [boPoints + 1][boCheckers + 1][boCheckers + 1]int32

func init() {
	for s := 0; s <= boCheckers; s++ {
		boCount[0][s] = 1
	}
	defer func() {
		for i := 1; i <= boPoints; i++ {
			for c := 0; c <= boCheckers; c++ {
				for v := 1; v <= c; v++ {
					boSkip[i][c][v] = boSkip[i][c][v-1] + int32(boCount[i-1][c-v+1])
				}
			}
		}
	}()
	for k := 1; k <= boPoints; k++ {
		for s := 0; s <= boCheckers; s++ {
			// the k-th point holds v of them, the other k-1 at most s-v
			for v := 0; v <= s; v++ {
				boCount[k][s] += boCount[k-1][s-v]
			}
		}
	}
}

// boHome is a side's checkers on its home points 1 to 6 (index 0 unused).
type boHome [boPoints + 1]int8

// boRank returns the index of h among the positions of at most capacity
// checkers: points from 6 down, each counting the positions with fewer
// checkers there first.
func boRank(h *boHome, capacity int) int {
	r := int32(0)
	for i := boPoints; i >= 1; i-- {
		r += boSkip[i][capacity][h[i]]
		capacity -= int(h[i])
	}
	return int(r)
}

func (h *boHome) pips() int {
	p := 0
	for i := 1; i <= boPoints; i++ {
		p += i * int(h[i])
	}
	return p
}

func (h *boHome) checkers() int {
	n := 0
	for i := 1; i <= boPoints; i++ {
		n += int(h[i])
	}
	return n
}

// boPlays appends to out every position h can reach with the dice d
// (played in order; the caller gives both orders of a mixed roll), all of
// them played unless the last checker is borne off first. A step starts
// on a point no higher than top: a double's steps are taken from the
// highest start down, which reaches every play once or a few times
// instead of in every order.
func boPlays(h boHome, d []int, top int, out []boHome) []boHome {
	if len(d) == 0 || h.checkers() == 0 {
		return append(out, h)
	}
	die := d[0]
	highest := 0
	for i := boPoints; i >= 1; i-- {
		if h[i] > 0 {
			highest = i
			break
		}
	}
	for p := 1; p <= top; p++ {
		if h[p] == 0 || (p < die && p != highest) {
			continue
		}
		next := h
		next[p]--
		if p > die {
			next[p-die]++
		}
		nextTop := boPoints
		if len(d) > 1 && d[1] == die {
			nextTop = p
		}
		out = boPlays(next, d[1:], nextTop, out)
	}
	return out
}

// boRollPlays returns the positions h can reach with the roll d1, d2.
func boRollPlays(h boHome, d1, d2 int, out []boHome) []boHome {
	out = out[:0]
	if d1 == d2 {
		return boPlays(h, []int{d1, d1, d1, d1}, boPoints, out)
	}
	out = boPlays(h, []int{d1, d2}, boPoints, out)
	return boPlays(h, []int{d2, d1}, boPoints, out)
}

// boAll returns every position of at most capacity checkers, in order of
// rank.
func boAll(capacity int) []boHome {
	all := make([]boHome, boCount[boPoints][capacity])
	var rec func(i, left int, h boHome)
	rec = func(i, left int, h boHome) {
		if i == 0 {
			all[boRank(&h, capacity)] = h
			return
		}
		for v := 0; v <= left; v++ {
			h[i] = int8(v)
			rec(i-1, left-v, h)
		}
	}
	rec(boPoints, capacity, boHome{})
	return all
}

// byPips returns the ranks of all but the empty position (rank 0) by
// their pips: a play always leaves fewer, so taking them in this order
// finds every position's successors solved before it.
func byPips(all []boHome) [][]int32 {
	var by [][]int32
	for i := 1; i < len(all); i++ {
		p := all[i].pips()
		for len(by) <= p {
			by = append(by, nil)
		}
		by[p] = append(by[p], int32(i))
	}
	return by
}

// bearoffDB is the two databases.
type bearoffDB struct {
	dist [][boMaxRolls]float64 // one-sided: P(off in exactly k rolls), by rank
	mean []float64             // one-sided: the expected rolls
	ts   []float64             // two-sided: P(the side on roll wins), [me·boTSPos + op]
}

var (
	boOnce sync.Once
	boDB   *bearoffDB
)

// bearoff returns the databases, built at the first call.
func bearoff() *bearoffDB {
	boOnce.Do(func() { boDB = buildBearoff() })
	return boDB
}

func buildBearoff() *bearoffDB {
	db := &bearoffDB{dist: make([][boMaxRolls]float64, boPositions), mean: make([]float64, boPositions)}
	all := boAll(boCheckers)
	var plays []boHome
	db.dist[0][0] = 1
	for _, rs := range byPips(all) {
		for _, r := range rs {
			db.solve(all, r, &plays)
		}
	}
	db.ts = buildTwoSided()
	return db
}

// solve fills the one-sided distribution and mean of the position of rank
// r, whose successors are solved: each roll played to the one of fewest
// rolls expected. plays is scratch.
func (db *bearoffDB) solve(all []boHome, r int32, plays *[]boHome) {
	for roll := 0; roll < Rolls; roll++ {
		d1, d2 := RollDice(roll)
		*plays = boRollPlays(all[r], d1, d2, *plays)
		best := -1
		for i := range *plays {
			s := boRank(&(*plays)[i], boCheckers)
			if best < 0 || db.mean[s] < db.mean[best] {
				best = s
			}
		}
		w := float64(RollWeight(roll)) / 36
		for k := 1; k < boMaxRolls; k++ {
			db.dist[r][k] += w * db.dist[best][k-1]
		}
	}
	for k, p := range db.dist[r] {
		db.mean[r] += float64(k) * p
	}
}

// buildTwoSided solves every pair of positions of up to boTSMax checkers,
// pairs in order of their pips together: each roll's best play leaves the
// other side on roll with fewer pips between them.
func buildTwoSided() []float64 {
	all := boAll(boTSMax)
	n := len(all)
	// succ[i][roll] are the ranks position i can reach with the roll (0
	// for every checker off).
	succ := make([][Rolls][]int32, n)
	var plays []boHome
	for i := 1; i < n; i++ {
		for roll := 0; roll < Rolls; roll++ {
			d1, d2 := RollDice(roll)
			plays = boRollPlays(all[i], d1, d2, plays)
			var s []int32
			for k := range plays {
				r := int32(boRank(&plays[k], boTSMax))
				if !slices.Contains(s, r) {
					s = append(s, r)
				}
			}
			succ[i][roll] = s
		}
	}
	// pairs in order of their pips together
	byPips := byPips(all)
	ts := make([]float64, n*n)
	for t := 2; t < 2*len(byPips); t++ {
		for pi := max(1, t-len(byPips)+1); pi < len(byPips) && pi < t; pi++ {
			for _, i := range byPips[pi] {
				for _, j := range byPips[t-pi] {
					v := 0.0
					for roll := 0; roll < Rolls; roll++ {
						best := 0.0
						for _, s := range succ[i][roll] {
							p := 1.0
							if s != 0 {
								p = 1 - ts[int(j)*n+int(s)]
							}
							best = max(best, p)
						}
						v += float64(RollWeight(roll)) / 36 * best
					}
					ts[int(i)*n+int(j)] = v
				}
			}
		}
	}
	return ts
}

// homeOf returns side s's checkers as a bear-off position, and whether
// they all stand on its home points (or are off).
func homeOf(s *Points) (boHome, bool) {
	var h boHome
	for p := boPoints + 1; p <= Bar; p++ {
		if s[p] != 0 {
			return h, false
		}
	}
	copy(h[1:], s[1:boPoints+1])
	return h, true
}

// winProb returns the probability that the side on roll, before its roll,
// with me against op, wins: the two-sided database's where both have at
// most boTSMax checkers left, else from the one-sided distributions.
func (db *bearoffDB) winProb(me, op *boHome) float64 {
	if me.checkers() == 0 {
		return 1
	}
	if op.checkers() == 0 {
		return 0
	}
	if me.checkers() <= boTSMax && op.checkers() <= boTSMax {
		return db.ts[boRank(me, boTSMax)*boTSPos+boRank(op, boTSMax)]
	}
	pm, po := &db.dist[boRank(me, boCheckers)], &db.dist[boRank(op, boCheckers)]
	// P_op(>= k), from the top down
	var tail [boMaxRolls + 1]float64
	for k := boMaxRolls - 1; k >= 0; k-- {
		tail[k] = tail[k+1] + po[k]
	}
	p := 0.0
	for k, q := range pm {
		p += q * tail[k]
	}
	return p
}

// BearoffValue returns the value of b for its side to move by the bear-off
// databases, and whether they value it: both sides have every checker
// left in their home boards, and in money play both have borne off one
// (so neither can lose a gammon, which the databases do not count). After
// the roll it is the best play's value.
func BearoffValue(b *Board) (float64, bool) {
	p, ok := bearoffWin(b)
	if !ok {
		return 0, false
	}
	return b.scale(2*p - 1), true
}

// bearoffWin is BearoffValue's probability that the side to move wins.
func bearoffWin(b *Board) (float64, bool) {
	s := int(b.stm)
	me, ok1 := homeOf(&b.pts[s])
	op, ok2 := homeOf(&b.pts[1-s])
	if !ok1 || !ok2 {
		return 0, false
	}
	if b.variant == Money && (b.pts[0][Off] == 0 || b.pts[1][Off] == 0) {
		return 0, false
	}
	db := bearoff()
	p := 0.0
	if b.d1 == 0 {
		p = db.winProb(&me, &op)
	} else {
		var buf [128]boHome // a double's plays can number over a hundred
		for _, next := range boRollPlays(me, int(b.d1), int(b.d2), buf[:0]) {
			p = max(p, 1-db.winProb(&op, &next))
		}
	}
	return p, true
}
