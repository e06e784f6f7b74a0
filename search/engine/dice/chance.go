package dice

// chanceFrame is the state of one chance node shared by its phases: the
// events and their weights, the bounds on each event's value (lo, hi) and
// their weighted sums, and ChanceProbCut's predicted bounds (elo, ehi).
// Working with sums over integer weights keeps the windows of equations
// 2.11 and 2.12 exact: with weights w_i of total W, event i's window is
// a_i = (W*alpha - (sumHi - w_i*hi_i)) / w_i (Ballard 1983). Where every
// event is equally likely (uniformChance) the weights are all 1, W is the
// number of events, and the code is a_i = n*alpha - sum_{j!=i} hi_j.
type chanceFrame struct {
	n            int
	nf           float64 // the total weight W (the number of events when uniform)
	alpha, beta  float64
	depth, ply   int
	key          uint64
	sumLo, sumHi float64 // weighted sums of lo and hi
	cpc          bool
	events       [maxEvents]event
	w            [maxEvents]float64 // the events' weights (not written when uniform)
	lo, hi       [maxEvents]float64
	elo, ehi     [maxEvents]float64
	// side is the chance node's mover, and flip[i] whether event i hands
	// the move to the other side, so that its value is negated on the way
	// up: both written only where signsFollowMover.
	side int
	flip [maxEvents]bool
}

// fill reads the chance node's events and weights and opens every bound.
func (f *chanceFrame) fill(b *Board) {
	n, total := chanceEvents(b, &f.events, &f.w)
	f.n, f.nf = n, float64(total)
	for i := 0; i < n; i++ {
		f.lo[i], f.hi[i] = L, U
	}
	f.sumLo, f.sumHi = f.nf*L, f.nf*U
}

// setLo and setHi replace event i's lower or upper bound, keeping its
// weighted sum: a phase that moves one bound adds nothing to the other's.
func (f *chanceFrame) setLo(i int, lo float64) {
	f.sumLo += f.weighted(i, lo-f.lo[i])
	f.lo[i] = lo
}

func (f *chanceFrame) setHi(i int, hi float64) {
	f.sumHi += f.weighted(i, hi-f.hi[i])
	f.hi[i] = hi
}

// weighted returns d, a change of event i's bound, times the event's
// weight: d itself where every event is equally likely, the weights all 1
// and not written.
func (f *chanceFrame) weighted(i int, d float64) float64 {
	if uniformChance {
		return d
	}
	return f.w[i] * d
}

// window returns the values of event i at or below which (cmin) and at or
// above which (cmax) the node leaves its window whatever the other events
// turn out to be (equations 2.11 and 2.12, before clamping).
func (f *chanceFrame) window(i int) (cmin, cmax float64) {
	if uniformChance {
		return f.nf*f.alpha - (f.sumHi - f.hi[i]), f.nf*f.beta - (f.sumLo - f.lo[i])
	}
	w := f.w[i]
	return (f.nf*f.alpha - (f.sumHi - w*f.hi[i])) / w, (f.nf*f.beta - (f.sumLo - w*f.lo[i])) / w
}

// childDepth is the depth the events of a chance node of depth depth are
// searched to.
func childDepth(depth int) int {
	if countsChance {
		return depth - 1
	}
	return depth
}

// chance searches a chance node: in Dice the position before the roll, in
// a game of optional chance the position after a roll was chosen. It
// returns the value within the usual fail-soft contract: a value <= alpha
// is an upper bound, >= beta a lower bound, anything between exact. The
// phases run in the order of Veness and Blair 2007, figure 4.1, with
// ChanceProbCut (Schadd et al. 2009, algorithm 5.2) before the Star2 probe:
// table cut, successor probing, ChanceProbCut, Star2 probing, Star1 search.
// Each phase returns done when it has decided the node.
func (e *Engine) chance(alpha, beta float64, depth, ply int) float64 {
	if e.tick() {
		return 0
	}
	b := &e.b
	if b.Over() {
		return b.Result()
	}
	if countsChance && depth == 0 {
		return e.evaluate()
	}
	e.stats.ChanceNodes++
	if e.expectimax {
		return e.expectimaxChance(depth, ply)
	}
	f := &e.frames[ply]
	f.cpc = false
	f.fill(b)
	f.alpha, f.beta, f.depth, f.ply = alpha, beta, depth, ply
	f.key = b.Key()
	if signsFollowMover {
		f.side = mover(b)
		for i := 0; i < f.n; i++ {
			happen(b, f.events[i], &e.eundo[ply])
			f.flip[i] = mover(b) != f.side
			unhappen(b, f.events[i], &e.eundo[ply])
		}
	}
	if childDepth(depth) > 1 { // the events' move nodes probe the table from depth 2
		for i := 0; i < f.n; i++ {
			e.tt.Prefetch(keyAfterEvent(b, f.events[i]))
		}
	}
	if e.chanceTT {
		if v, done := e.tableCut(f); done {
			return v
		}
		if depth >= e.cfg.ETCMinDepth {
			if v, done := e.successorProbing(f); done {
				return v
			}
		}
	}
	if e.cpcOn && depth < len(e.cpc) {
		for i := range e.cpc[depth] {
			if v, done := e.probCut(f, &e.cpc[depth][i]); done {
				return v
			}
		}
	}
	if e.star2 {
		if v, done := e.star2Probing(f); done {
			return v
		}
	}
	return e.star1(f)
}

// expectimaxChance is the chance node of Expectimax: the weighted mean of
// every event searched with the full window.
func (e *Engine) expectimaxChance(depth, ply int) float64 {
	f := &e.frames[ply] // for its event and weight arrays
	n, total := chanceEvents(&e.b, &f.events, &f.w)
	side := 0
	if signsFollowMover {
		side = mover(&e.b)
	}
	sum := 0.0
	for i := 0; i < n; i++ {
		e.happen(f.events[i], ply)
		v := 0.0
		if signsFollowMover && mover(&e.b) != side {
			v = -e.max(L, U, childDepth(depth), ply+1)
		} else {
			v = e.max(L, U, childDepth(depth), ply+1)
		}
		e.unhappen(f.events[i], ply)
		if e.stopped {
			return 0
		}
		if uniformChance {
			sum += v
		} else {
			sum += f.w[i] * v
		}
	}
	return sum / float64(total)
}

// tableCut looks the chance node up in the table: bounds of enough depth
// cut it off or narrow its window (StarETC; Veness and Blair 2007).
func (e *Engine) tableCut(f *chanceFrame) (float64, bool) {
	en := e.tt.Probe(f.key)
	if en == nil {
		return 0, false
	}
	e.stats.TTHits++
	okLo, okHi := int(en.LoDepth) >= f.depth, int(en.HiDepth) >= f.depth
	if okLo && okHi && en.Lo >= en.Hi {
		e.stats.TTCutChance++
		return en.Lo, true
	}
	if okLo {
		if en.Lo >= f.beta {
			e.stats.TTCutChance++
			return en.Lo, true
		}
		if !exactFirst {
			f.alpha = max(f.alpha, en.Lo)
		}
	}
	if okHi {
		if en.Hi <= f.alpha {
			e.stats.TTCutChance++
			return en.Hi, true
		}
		if !exactFirst {
			f.beta = min(f.beta, en.Hi)
		}
	}
	if exactFirst {
		// Searched before, in a window whose bounds do not decide this
		// one: search it once in the full window, so that its value is
		// exact and decides every later visit (as moveNode does).
		f.alpha, f.beta = L, U
	}
	return 0, false
}

// successorProbing gathers every bound the table holds on the events
// before searching any of them (Veness 2006, section 3.2).
func (e *Engine) successorProbing(f *chanceFrame) (float64, bool) {
	b := &e.b
	cd := childDepth(f.depth)
	for i := 0; i < f.n; i++ {
		en := e.tt.Probe(keyAfterEvent(b, f.events[i]))
		if en == nil {
			continue
		}
		lo, loDepth, hi, hiDepth := en.Lo, en.LoDepth, en.Hi, en.HiDepth
		if signsFollowMover && f.flip[i] { // the entry is from the other side's view
			lo, loDepth, hi, hiDepth = -hi, hiDepth, -lo, loDepth
		}
		if int(loDepth) >= cd && lo > f.lo[i] {
			f.setLo(i, lo)
		}
		if int(hiDepth) >= cd && hi < f.hi[i] {
			f.setHi(i, hi)
		}
		if f.lo[i] > f.hi[i] { // bounds of different depths disagree: trust neither
			f.setLo(i, L)
			f.setHi(i, U)
		}
		if f.sumLo >= f.nf*f.beta {
			e.stats.ETCCut++
			return e.storeChance(f, f.beta, true), true
		}
		if f.sumHi <= f.nf*f.alpha {
			e.stats.ETCCut++
			return e.storeChance(f, f.alpha, false), true
		}
	}
	return 0, false
}

// probCut is ChanceProbCut: a shallow search of each open event predicts
// bounds elo, ehi on its deep value; the node is cut off when the
// predicted bounds put it outside the window (Schadd et al. 2009,
// algorithm 5.2), and otherwise the Star1 phase searches each event in the
// union of its Star1 window and its predicted bounds.
// A cut-off returns the window edge and stores nothing at the chance
// node; the move node above stores what it leads to as a bound or an
// exact value of its full depth, unmarked (package search doc,
// "Transposition table").
func (e *Engine) probCut(f *chanceFrame, m *cpcModel) (float64, bool) {
	f.cpc = true
	sumElo, sumEhi := 0.0, 0.0
	for i := 0; i < f.n; i++ {
		f.elo[i], f.ehi[i] = f.lo[i], f.hi[i]
		if f.lo[i] < f.hi[i] {
			e.happen(f.events[i], f.ply)
			v := e.max(L, U, m.shallow, f.ply+1)
			e.unhappen(f.events[i], f.ply)
			if e.stopped {
				return 0, true
			}
			e.stats.CPCSearches++
			pred := m.a*v + m.b
			if signsFollowMover && f.flip[i] { // predicted in the other side's view
				pred = -pred
			}
			f.elo[i] = max(f.lo[i], L, pred-m.tSigma)
			f.ehi[i] = min(f.hi[i], U, pred+m.tSigma)
			if f.elo[i] > f.ehi[i] {
				f.elo[i], f.ehi[i] = f.lo[i], f.hi[i]
			}
		}
		if uniformChance {
			sumElo += f.elo[i]
			sumEhi += f.ehi[i]
		} else {
			sumElo += f.w[i] * f.elo[i]
			sumEhi += f.w[i] * f.ehi[i]
		}
	}
	// The test is made once, when every event's prediction is in, over
	// predictions joined with the true bounds the frame already holds
	// (from the table and successor probing). Algorithm 5.2 tests after
	// each prediction, with L and U for the events not yet predicted, so
	// neither test dominates: its last test is this one without the
	// frame's bounds, and its earlier ones can cut sooner, sparing the
	// remaining shallow searches.
	if sumElo >= f.nf*f.beta {
		e.stats.CPCCut++
		return f.beta, true
	}
	if sumEhi <= f.nf*f.alpha {
		e.stats.CPCCut++
		return f.alpha, true
	}
	return 0, false
}

// star2Probing is Star2's probing phase: a lower bound per event from its
// first ProbingFactor moves (Ballard 1983; Veness 2006, section 2.4.4).
func (e *Engine) star2Probing(f *chanceFrame) (float64, bool) {
	for i := 0; i < f.n; i++ {
		// An event that hands the move over is a min node to this one,
		// whose probe would bound it from above, not below: Star1 searches
		// it.
		if f.lo[i] >= f.hi[i] || signsFollowMover && f.flip[i] {
			continue
		}
		_, cmax := f.window(i)
		bx := min(U, cmax)
		e.happen(f.events[i], f.ply)
		v, complete := e.probe(f.lo[i], bx, childDepth(f.depth), f.ply+1)
		e.unhappen(f.events[i], f.ply)
		if e.stopped {
			return 0, true
		}
		if v > f.lo[i] {
			f.setLo(i, v)
			if f.lo[i] > f.hi[i] {
				f.setHi(i, f.lo[i])
			}
			if f.cpc && f.lo[i] > f.ehi[i] {
				f.ehi[i] = U
			}
		}
		// A probe that saw every move (a leaf, or no more moves than the
		// probing factor) is a full search: below bx it is also an upper
		// bound, and the Star1 phase need not search it again.
		if complete && v < bx && v < f.hi[i] {
			f.setHi(i, max(v, f.lo[i]))
		}
		if f.sumLo >= f.nf*f.beta {
			e.stats.Star2Cut++
			return e.storeChance(f, f.beta, true), true
		}
		if f.sumHi <= f.nf*f.alpha { // only after a complete probe
			e.stats.Star2Cut++
			return e.storeChance(f, f.alpha, false), true
		}
	}
	return 0, false
}

// star1 is the Star1 search: each open event searched in the window its
// siblings' bounds leave it, cutting off as soon as the bounds leave the
// node's window (Ballard 1983; Veness 2006, section 2.4.3).
func (e *Engine) star1(f *chanceFrame) float64 {
	for i := 0; i < f.n; i++ {
		if f.lo[i] >= f.hi[i] {
			e.stats.ExactSkipped++
			continue
		}
		cmin, cmax := f.window(i) // equations 2.11 and 2.12 before clamping
		if cmin >= f.hi[i] || cmax <= f.lo[i] {
			// The sums stood a rounding error away from a cut-off: the
			// event's known bounds already decide the node.
			e.stats.Star1Cut++
			if cmax <= f.lo[i] {
				return e.storeChance(f, f.beta, true)
			}
			return e.storeChance(f, f.alpha, false)
		}
		ax := max(L, cmin, f.lo[i])
		bx := min(U, cmax, f.hi[i])
		wa, wb := ax, bx
		if f.cpc {
			// Algorithm 5.2, lines 36-37: after ChanceProbCut, each event
			// is searched in the union of its Star1 window and its
			// predicted bounds, from min(Star1 lower, predicted lower) to
			// max(Star1 upper, predicted upper), so that the predictions
			// widen the window where they are wider and never narrow it.
			// The window holds the Star1 window, so the value is kept as
			// Star1 keeps it (below), which is line 39's lower = upper = v
			// wherever the two differ in what follows: a value outside
			// [ax, bx] cuts the node off either way. An earlier version
			// searched the intersection instead; with starlab tune
			// -depths 9,11 -t 1.6,0.4 -limit 100 over the committed suite
			// the union searched 0.0008% to 3.8% more nodes (depth 11,
			// t = 0.4: 19,693,109 against 18,973,934) with a mean move
			// error 11 to 31 times smaller (0.00118 against 0.01790):
			// nearly all of the intersection's error came from values
			// taken outside the narrowed windows, not from the cut-offs.
			wa, wb = min(ax, f.elo[i]), max(bx, f.ehi[i])
		}
		e.happen(f.events[i], f.ply)
		v := 0.0
		if signsFollowMover && f.flip[i] {
			v = -e.max(-wb, -wa, childDepth(f.depth), f.ply+1)
		} else {
			v = e.max(wa, wb, childDepth(f.depth), f.ply+1)
		}
		e.unhappen(f.events[i], f.ply)
		if e.stopped {
			return 0
		}
		newLo, newHi := f.lo[i], f.hi[i]
		if v > ax {
			newLo = v
		}
		if v < bx {
			newHi = v
		}
		if newLo > newHi { // bounds of different depths disagree: keep the new value
			newLo, newHi = v, v
		}
		f.setLo(i, newLo)
		f.setHi(i, newHi)
		if v >= cmax || f.sumLo >= f.nf*f.beta {
			e.stats.Star1Cut++
			return e.storeChance(f, f.beta, true)
		}
		if v <= cmin || f.sumHi <= f.nf*f.alpha {
			e.stats.Star1Cut++
			return e.storeChance(f, f.alpha, false)
		}
	}
	// All events exact: recompute the mean in event order, as expectimax
	// does, so the sound algorithms agree to the last bits where they can.
	sum := 0.0
	for i := 0; i < f.n; i++ {
		if uniformChance {
			sum += f.lo[i]
		} else {
			sum += f.w[i] * f.lo[i]
		}
	}
	v := sum / f.nf
	if e.chanceTT {
		e.tt.Store(f.key, v, f.depth, v, f.depth, -1)
	}
	return v
}

// storeChance records a chance node's bounds and returns the fail-soft value
// of a cut-off: the lower bound on a fail high, the upper bound on a fail
// low. The value is clamped to the window edge it crossed, so that rounding
// in the sums can never make a bound look like an exact value inside the
// window.
func (e *Engine) storeChance(f *chanceFrame, edge float64, high bool) float64 {
	lo, hi := f.sumLo/f.nf, f.sumHi/f.nf
	if e.chanceTT && !(exactFirst && e.exactIn(f.key)) { // bounds do not replace an exact value (moveNode)
		e.tt.Store(f.key, lo, f.depth, hi, f.depth, -1)
	}
	if high {
		return max(lo, edge)
	}
	return min(hi, edge)
}
