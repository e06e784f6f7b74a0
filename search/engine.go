package search

import (
	"time"

	"starlab/search/dice"
)

// MaxPly bounds the distance from the root: a move ply and a chance ply per
// checker on the largest board.
const MaxPly = 2*dice.MaxCells + 4

// Defaults of Options fields left zero. DefaultETCMinDepth is 3 because
// move nodes of depth 1 are not stored (their children are leaves, cheaper
// to evaluate than a table miss), so at depth 2 there is nothing to find.
const (
	DefaultTTMiB         = 16
	DefaultProbingFactor = 1
	DefaultETCMinDepth   = 3
	DefaultProbCutR      = 2
	DefaultProbCutT      = 1.6
)

// Options configures an Engine.
type Options struct {
	Algorithm Algorithm
	Eval      Evaluator // leaf evaluator; Pairs if nil
	TTMiB     int       // transposition table size in MiB; DefaultTTMiB if zero
	// ProbingFactor is the number of moves the Star2 probing phase searches
	// at each chance event (Ballard's generalisation); DefaultProbingFactor
	// if zero.
	ProbingFactor int
	// ETCMinDepth is the smallest chance-node depth at which StarETC probes
	// the table for its successors (Veness 2006, section 3.2: the probe is
	// not free, so shallow nodes may skip it). DefaultETCMinDepth if zero.
	ETCMinDepth int
	// ProbCut configures ChanceProbCut; used only by CPC.
	ProbCut ProbCutOptions
}

// ProbCutOptions configures ChanceProbCut.
type ProbCutOptions struct {
	R        int     // depth reduction of the shallow search; DefaultProbCutR if zero
	T        float64 // width of the bounds in sigmas; DefaultProbCutT if zero
	MinDepth int     // smallest chance-node depth where it applies; R+1 if zero
	MaxDepth int     // largest; no limit if zero
	Params   *ProbCutParams
}

// Stats counts what a search did, by kind of cut-off, so that the effect of
// each enhancement can be seen.
type Stats struct {
	Nodes        int64 // entries into the recursive search, leaves and cut-offs included
	ChanceNodes  int64 // chance nodes among them
	Leaves       int64 // evaluated leaves
	TTHits       int64 // table entries found
	AlphaBeta    int64 // beta cut-offs at move nodes
	TTCutMove    int64 // table cut-offs at move nodes
	TTCutChance  int64 // table cut-offs at chance nodes (StarETC)
	ETCCut       int64 // successor-probing cut-offs (StarETC)
	Star2Cut     int64 // Star2 probing-phase cut-offs
	Star1Cut     int64 // Star1 cut-offs
	CPCCut       int64 // ChanceProbCut cut-offs
	CPCSearches  int64 // ChanceProbCut shallow searches
	ProbeSearch  int64 // Star2 probe searches (negamax-probe calls)
	ExactSkipped int64 // chance events already exact in the table, not searched
}

// Engine searches Dice positions. It owns its board copy, transposition
// table, killer and history tables, so engines can run side by side.
type Engine struct {
	opt   Options
	eval  Evaluator
	tt    *TT
	b     dice.Board
	stats Stats

	killers [MaxPly][2]int16
	history [2][dice.MaxCells]int64

	// Limits of the current search.
	stopped   bool
	ctxDone   <-chan struct{}
	nodeLimit int64
	deadline  time.Time
	hasClock  bool
	rootBest  int
	cpc       bool
}

// NewEngine returns an engine with the given options, defaults filled in.
func NewEngine(opt Options) *Engine {
	if opt.Eval == nil {
		opt.Eval = Pairs{}
	}
	if opt.TTMiB <= 0 {
		opt.TTMiB = DefaultTTMiB
	}
	if opt.ProbingFactor <= 0 {
		opt.ProbingFactor = DefaultProbingFactor
	}
	if opt.ETCMinDepth <= 0 {
		opt.ETCMinDepth = DefaultETCMinDepth
	}
	pc := &opt.ProbCut
	if pc.R <= 0 {
		pc.R = DefaultProbCutR
	}
	if pc.T == 0 {
		pc.T = DefaultProbCutT
	}
	if pc.MinDepth <= 0 {
		pc.MinDepth = pc.R + 1
	}
	if pc.Params == nil {
		pc.Params = DefaultProbCut(pc.R, 2*dice.MaxCells)
	}
	return &Engine{opt: opt, eval: opt.Eval, tt: NewTT(opt.TTMiB)}
}

// Options returns the engine's options with defaults filled in.
func (e *Engine) Options() Options { return e.opt }

// ClearTT empties the transposition table and the move-ordering tables, so
// that the next search depends on nothing searched before.
func (e *Engine) ClearTT() {
	e.tt.Clear()
	e.killers = [MaxPly][2]int16{}
	e.history = [2][dice.MaxCells]int64{}
}

func (e *Engine) evaluate() float64 {
	e.stats.Leaves++
	return e.eval.Evaluate(&e.b)
}

// tick counts a node and checks the limits.
func (e *Engine) tick() bool {
	e.stats.Nodes++
	if e.nodeLimit > 0 && e.stats.Nodes >= e.nodeLimit {
		e.stopped = true
	}
	if e.stats.Nodes&1023 == 0 {
		if e.hasClock && time.Now().After(e.deadline) {
			e.stopped = true
		}
		select {
		case <-e.ctxDone:
			e.stopped = true
		default:
		}
	}
	return e.stopped
}

// chance searches a pre-roll position: the chance node of the side to move.
// It returns the value within the usual fail-soft contract: a value <= alpha
// is an upper bound, >= beta a lower bound, anything between exact.
func (e *Engine) chance(alpha, beta float64, depth, ply int) float64 {
	if e.tick() {
		return 0
	}
	b := &e.b
	if b.Over() {
		return b.Result()
	}
	if depth == 0 {
		return e.evaluate()
	}
	e.stats.ChanceNodes++
	var lines [dice.MaxN]int8
	n := b.Rolls(&lines)
	algo := e.opt.Algorithm

	if algo == Expectimax {
		sum := 0.0
		for i := 0; i < n; i++ {
			b.SetRoll(int(lines[i]))
			v := e.max(L, U, depth-1, ply+1)
			b.ClearRoll()
			if e.stopped {
				return 0
			}
			sum += v
		}
		return sum / float64(n)
	}

	// Bounds on each event's value; the node's bounds are their means.
	// Working with sums (all events are equally likely) keeps the windows of
	// equations 2.11 and 2.12 exact: a_i = n*alpha - sum_{j!=i} hi_j.
	var lo, hi [dice.MaxN]float64
	for i := 0; i < n; i++ {
		lo[i], hi[i] = L, U
	}
	sumLo, sumHi := float64(n)*L, float64(n)*U
	nf := float64(n)
	useTT := algo >= StarETC
	key := b.Key()

	if useTT {
		if en := e.tt.probe(key); en != nil {
			e.stats.TTHits++
			okLo, okHi := int(en.loDepth) >= depth, int(en.hiDepth) >= depth
			if okLo && okHi && en.lo >= en.hi {
				e.stats.TTCutChance++
				return en.lo
			}
			if okLo {
				if en.lo >= beta {
					e.stats.TTCutChance++
					return en.lo
				}
				alpha = max(alpha, en.lo)
			}
			if okHi {
				if en.hi <= alpha {
					e.stats.TTCutChance++
					return en.hi
				}
				beta = min(beta, en.hi)
			}
		}
		// Successor probing: gather every bound the table holds on the
		// events before searching any of them (Veness 2006, section 3.2).
		if depth >= e.opt.ETCMinDepth {
			for i := 0; i < n; i++ {
				b.SetRoll(int(lines[i]))
				en := e.tt.probe(b.Key())
				b.ClearRoll()
				if en == nil {
					continue
				}
				if int(en.loDepth) >= depth-1 && en.lo > lo[i] {
					sumLo += en.lo - lo[i]
					lo[i] = en.lo
				}
				if int(en.hiDepth) >= depth-1 && en.hi < hi[i] {
					sumHi += en.hi - hi[i]
					hi[i] = en.hi
				}
				if lo[i] > hi[i] { // bounds of different depths disagree: trust neither
					sumLo += L - lo[i]
					sumHi += U - hi[i]
					lo[i], hi[i] = L, U
				}
				if sumLo >= nf*beta {
					e.stats.ETCCut++
					return e.storeChance(key, sumLo/nf, sumHi/nf, depth, beta, true)
				}
				if sumHi <= nf*alpha {
					e.stats.ETCCut++
					return e.storeChance(key, sumLo/nf, sumHi/nf, depth, alpha, false)
				}
			}
		}
	}

	// ChanceProbCut: predicted bounds elo/ehi from shallow searches.
	var elo, ehi [dice.MaxN]float64
	cpc := e.cpc && depth >= e.opt.ProbCut.MinDepth && (e.opt.ProbCut.MaxDepth == 0 || depth <= e.opt.ProbCut.MaxDepth)
	if cpc {
		r := e.opt.ProbCut.R
		dp, ok := e.opt.ProbCut.Params.Lookup(depth-1-r, depth-1)
		cpc = ok && depth-1-r >= 0
		if cpc {
			t := e.opt.ProbCut.T
			sumElo, sumEhi := 0.0, 0.0
			for i := 0; i < n; i++ {
				elo[i], ehi[i] = lo[i], hi[i]
				if lo[i] < hi[i] {
					b.SetRoll(int(lines[i]))
					v := e.max(L, U, depth-1-r, ply+1)
					b.ClearRoll()
					if e.stopped {
						return 0
					}
					e.stats.CPCSearches++
					pred := dp.A*v + dp.B
					elo[i] = max(lo[i], L, pred-t*dp.Sigma)
					ehi[i] = min(hi[i], U, pred+t*dp.Sigma)
					if elo[i] > ehi[i] {
						elo[i], ehi[i] = lo[i], hi[i]
					}
				}
				sumElo += elo[i]
				sumEhi += ehi[i]
			}
			// The bounds of events not yet searched are the true ones, so
			// the test is made once all predictions are in (algorithm 5.2
			// tests after each, with L and U for the rest, which is weaker).
			if sumElo >= nf*beta {
				e.stats.CPCCut++
				return beta
			}
			if sumEhi <= nf*alpha {
				e.stats.CPCCut++
				return alpha
			}
		}
	}

	// Star2 probing phase: a lower bound per event from its first moves.
	if algo >= Star2 {
		for i := 0; i < n; i++ {
			if lo[i] >= hi[i] {
				continue
			}
			bx := min(U, nf*beta-(sumLo-lo[i]))
			b.SetRoll(int(lines[i]))
			v, complete := e.probe(lo[i], bx, depth-1, ply+1)
			b.ClearRoll()
			if e.stopped {
				return 0
			}
			if v > lo[i] {
				sumLo += v - lo[i]
				lo[i] = v
				if lo[i] > hi[i] {
					sumHi += lo[i] - hi[i]
					hi[i] = lo[i]
				}
				if cpc && lo[i] > ehi[i] {
					ehi[i] = U
				}
			}
			// A probe that saw every move (a leaf, or no more moves than
			// the probing factor) is a full search: below bx it is also an
			// upper bound, and the Star1 phase need not search it again.
			if complete && v < bx && v < hi[i] {
				sumHi += max(v, lo[i]) - hi[i]
				hi[i] = max(v, lo[i])
			}
			if sumLo >= nf*beta {
				e.stats.Star2Cut++
				return e.storeChance(key, sumLo/nf, sumHi/nf, depth, beta, true)
			}
			if sumHi <= nf*alpha { // only after a complete probe
				e.stats.Star2Cut++
				return e.storeChance(key, sumLo/nf, sumHi/nf, depth, alpha, false)
			}
		}
	}

	// Star1 phase.
	for i := 0; i < n; i++ {
		if lo[i] >= hi[i] {
			e.stats.ExactSkipped++
			continue
		}
		cmin := nf*alpha - (sumHi - hi[i]) // equation 2.11 before clamping
		cmax := nf*beta - (sumLo - lo[i])  // equation 2.12
		if cmin >= hi[i] || cmax <= lo[i] {
			// The sums stood a rounding error away from a cut-off: the
			// event's known bounds already decide the node.
			e.stats.Star1Cut++
			if cmax <= lo[i] {
				return e.storeChance(key, sumLo/nf, sumHi/nf, depth, beta, true)
			}
			return e.storeChance(key, sumLo/nf, sumHi/nf, depth, alpha, false)
		}
		ax := max(L, cmin, lo[i])
		bx := min(U, cmax, hi[i])
		wa, wb := ax, bx
		if cpc {
			// Search inside the predicted bounds when they are narrower; a
			// value outside them is taken as it is, without a re-search
			// (algorithm 5.2): the error is a part of one event's weight.
			if elo[i] > wa && elo[i] < wb {
				wa = elo[i]
			}
			if ehi[i] < wb && ehi[i] > wa {
				wb = ehi[i]
			}
		}
		b.SetRoll(int(lines[i]))
		v := e.max(wa, wb, depth-1, ply+1)
		b.ClearRoll()
		if e.stopped {
			return 0
		}
		newLo, newHi := lo[i], hi[i]
		if v > ax {
			newLo = v
		}
		if v < bx {
			newHi = v
		}
		if cpc && (wa > ax || wb < bx) {
			newLo, newHi = v, v
		}
		if newLo > newHi { // bounds of different depths disagree: keep the new value
			newLo, newHi = v, v
		}
		sumLo += newLo - lo[i]
		sumHi += newHi - hi[i]
		lo[i], hi[i] = newLo, newHi
		if v >= cmax || sumLo >= nf*beta {
			e.stats.Star1Cut++
			return e.storeChance(key, sumLo/nf, sumHi/nf, depth, beta, true)
		}
		if v <= cmin || sumHi <= nf*alpha {
			e.stats.Star1Cut++
			return e.storeChance(key, sumLo/nf, sumHi/nf, depth, alpha, false)
		}
	}
	// All events exact: recompute the mean in event order, as expectimax
	// does, so the sound algorithms agree to the last bits where they can.
	sum := 0.0
	for i := 0; i < n; i++ {
		sum += lo[i]
	}
	v := sum / nf
	if useTT {
		e.tt.store(key, v, depth, v, depth, -1)
	}
	return v
}

// storeChance records a chance node's bounds and returns the fail-soft value
// of a cut-off: the lower bound on a fail high, the upper bound on a fail
// low. The value is clamped to the window edge it crossed, so that rounding
// in the sums can never make a bound look like an exact value inside the
// window.
func (e *Engine) storeChance(key uint64, lo, hi float64, depth int, edge float64, high bool) float64 {
	if e.opt.Algorithm >= StarETC {
		e.tt.store(key, lo, depth, hi, depth, -1)
	}
	if high {
		return max(lo, edge)
	}
	return min(hi, edge)
}

// orderMoves fills moves with the legal moves of the rolled position in
// search order: table move, then killers, then by history score.
func (e *Engine) orderMoves(moves *[dice.MaxN]int16, ttMove, ply int) int {
	n := e.b.Moves(moves)
	var score [dice.MaxN]int64
	stm := e.b.SideToMove()
	k := &e.killers[ply]
	for i := 0; i < n; i++ {
		m := moves[i]
		switch {
		case int(m) == ttMove:
			score[i] = 1 << 30
		case m == k[0]:
			score[i] = 1<<30 - 1
		case m == k[1]:
			score[i] = 1<<30 - 2
		default:
			score[i] = e.history[stm][m]
		}
	}
	// Insertion sort: at most MaxN moves.
	for i := 1; i < n; i++ {
		m, s := moves[i], score[i]
		j := i
		for ; j > 0 && score[j-1] < s; j-- {
			moves[j], score[j] = moves[j-1], score[j-1]
		}
		moves[j], score[j] = m, s
	}
	return n
}

// max searches a rolled position: the move node of the side to move
// (negamax, fail-soft alpha-beta with table, killers and history).
func (e *Engine) max(alpha, beta float64, depth, ply int) float64 {
	return e.moveNode(alpha, beta, depth, ply, 0)
}

// probe is negamax-probe (Veness 2006, section 2.4.4): the move-node search
// limited to the first ProbingFactor moves in search order, so its value is
// only a lower bound. It also reports whether the probe searched every move
// (at a leaf, or when there are no more moves than the probing factor), in
// which case its value obeys the full fail-soft contract.
func (e *Engine) probe(alpha, beta float64, depth, ply int) (float64, bool) {
	e.stats.ProbeSearch++
	if depth == 0 {
		return e.moveNode(alpha, beta, depth, ply, 0), true
	}
	complete := e.b.LineEmpty(e.b.Roll()) <= e.opt.ProbingFactor
	if complete {
		return e.moveNode(alpha, beta, depth, ply, 0), true
	}
	return e.moveNode(alpha, beta, depth, ply, e.opt.ProbingFactor), false
}

// ttProbe looks key up when use is set.
func (e *Engine) ttProbe(use bool, key uint64) *ttEntry {
	if !use {
		return nil
	}
	return e.tt.probe(key)
}

// moveNode is max when limit is 0 and probe when limit > 0.
func (e *Engine) moveNode(alpha, beta float64, depth, ply, limit int) float64 {
	if e.tick() {
		return 0
	}
	b := &e.b
	if depth == 0 {
		return e.evaluate()
	}
	key := b.Key()
	ttMove := -1
	useTT := depth > 1 // a depth-1 node's children are leaves: cheaper than a table miss
	if en := e.ttProbe(useTT, key); en != nil {
		e.stats.TTHits++
		ttMove = int(en.move)
		okLo, okHi := int(en.loDepth) >= depth, int(en.hiDepth) >= depth
		if okLo && en.lo >= beta {
			e.stats.TTCutMove++
			return en.lo
		}
		if limit == 0 {
			if okLo && okHi && en.lo >= en.hi {
				e.stats.TTCutMove++
				return en.lo
			}
			if okHi && en.hi <= alpha {
				e.stats.TTCutMove++
				return en.hi
			}
			if okLo {
				alpha = max(alpha, en.lo)
			}
			if okHi {
				beta = min(beta, en.hi)
			}
		}
	}
	var moves [dice.MaxN]int16
	n := e.orderMoves(&moves, ttMove, ply)
	if limit > 0 && n > limit {
		n = limit
	}
	best, bestMove := L-1, -1
	for i := 0; i < n; i++ {
		m := int(moves[i])
		b.Make(m)
		v := -e.chance(-beta, -max(alpha, best), depth-1, ply+1)
		b.Unmake(m)
		if e.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v >= beta {
				e.stats.AlphaBeta++
				if k := &e.killers[ply]; k[0] != int16(m) {
					k[1], k[0] = k[0], int16(m)
				}
				e.history[b.SideToMove()][m] += int64(depth * depth)
				break
			}
		}
	}
	if ply == 0 && limit == 0 {
		e.rootBest = bestMove
	}
	switch {
	case !useTT:
	case limit > 0:
		if best > alpha {
			e.tt.store(key, best, depth, U, -1, bestMove)
		}
	case best >= beta:
		e.tt.store(key, best, depth, U, -1, bestMove)
	case best <= alpha:
		e.tt.store(key, L, -1, best, depth, bestMove)
	default:
		e.tt.store(key, best, depth, best, depth, bestMove)
	}
	return best
}
