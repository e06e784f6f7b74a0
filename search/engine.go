package search

import (
	"fmt"
	"slices"
	"time"

	"starlab/search/dice"
)

// MaxPly bounds the distance from the root: a move ply and a chance ply per
// checker on the largest board.
const MaxPly = 2*dice.MaxCells + 4

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
// table, killer and history tables and evaluator, so engines built from one
// Resolved configuration can run side by side in different goroutines.
type Engine struct {
	cfg   Config
	kind  evalKind
	eval  Evaluator
	inc   Incremental // eval, when it follows make/unmake; nil otherwise
	tt    *TT
	b     dice.Board
	stats Stats

	// The algorithm, resolved into the features it uses.
	expectimax bool // every event searched with the full window
	star2      bool // the probing phase
	chanceTT   bool // table cut-offs at chance nodes and successor probing
	cpcOn      bool // ChanceProbCut
	// cpc[d] are ChanceProbCut's models at a chance node of depth d, for
	// boards of the engine's size, shallowest first: one, or with Multi
	// every fitted pair, each tried when the one before cuts nothing.
	cpc [][]cpcModel
	// size is the board size the evaluator and the models are for
	// (setBoard); res builds them.
	size [2]int
	res  *Resolved

	killers [MaxPly][2]int16
	history [2][dice.MaxCells]int64
	undo    [MaxPly]dice.Undo // the counters each ply's move changed
	// frames are the chance nodes' working state, one per ply, kept here
	// so that a chance node does not zero a fresh one on the stack.
	frames [MaxPly]chanceFrame

	// Limits of the current search.
	stopped   bool
	ctxDone   <-chan struct{}
	nodeLimit int64
	deadline  time.Time
	hasClock  bool
	rootBest  int
}

// cpcModel is the depth pair a chance node of one depth uses: the shallow
// search of each event goes to depth-1-R (one less when depth-1 is even)
// and predicts the deep value a*v + b within t*sigma.
type cpcModel struct {
	shallow      int
	a, b, tSigma float64
}

// NewEngine returns an engine for the resolved configuration, with its own
// table and evaluator.
func NewEngine(r *Resolved) *Engine {
	c := r.cfg
	e := &Engine{cfg: c, res: r, kind: r.kind, tt: NewTT(c.TTMiB)}
	if !r.perSize() {
		e.eval = r.evaluatorFor(0, 0)
		e.inc, _ = e.eval.(Incremental)
	}
	e.expectimax = c.Algorithm == Expectimax
	e.star2 = c.Algorithm >= Star2
	e.chanceTT = c.Algorithm >= StarETC
	e.cpcOn = c.Algorithm == CPC
	if e.cpcOn {
		e.cpc = make([][]cpcModel, 2*MaxPly+1)
	}
	return e
}

// setBoard makes the engine's evaluator and ChanceProbCut models those of
// n x n boards with win length m: the built-in net and the built-in fit
// differ by board (Resolved.evaluatorFor, Resolved.ProbCutFor).
func (e *Engine) setBoard(n, m int) {
	if e.size == [2]int{n, m} {
		return
	}
	e.size = [2]int{n, m}
	if e.res.perSize() {
		e.eval = e.res.evaluatorFor(n, m)
		e.inc, _ = e.eval.(Incremental)
	}
	if !e.cpcOn {
		return
	}
	c := e.cfg
	params := e.res.ProbCutFor(n, m)
	clear(e.cpc)
	lo, hi := c.CPCMinDepth, c.CPCMaxDepth
	if lo == 0 {
		lo = c.ProbCutR + 1
	}
	if hi == 0 {
		hi = len(e.cpc) - 1
	}
	for d := lo; d <= hi && d < len(e.cpc); d++ {
		// The events of a chance node of depth d are rolled positions
		// searched to d-1. An even depth there ends on a chance ply and
		// has the value of one ply less (EndsOnChance), so the model is
		// the one of the odd depth below, and the shallow search too is
		// one ply shorter for the same value.
		deep := d - 1
		if EndsOnChance(true, deep) {
			deep--
		}
		for _, dp := range params.Pairs {
			if dp.Deep == deep && (c.Multi || dp.Shallow == deep-c.ProbCutR) {
				e.cpc[d] = append(e.cpc[d], cpcModel{shallow: dp.Shallow, a: dp.A, b: dp.B, tSigma: c.ProbCutT * dp.Sigma})
			}
		}
		slices.SortStableFunc(e.cpc[d], func(x, y cpcModel) int { return x.shallow - y.shallow })
	}
}

// Config returns the engine's configuration.
func (e *Engine) Config() Config { return e.cfg }

// Evaluate returns the engine's evaluation of the non-terminal position b
// for its side to move (the value of a depth-0 search).
func (e *Engine) Evaluate(b *dice.Board) float64 {
	e.setBoard(b.N(), b.M())
	switch e.kind {
	case evalZero:
		return 0
	case evalPairs:
		return Pairs{}.Evaluate(b)
	}
	if e.inc != nil {
		e.inc.Reset(b)
	}
	return e.eval.Evaluate(b)
}

// ClearTT empties the transposition table and the move-ordering tables, so
// that the next search depends on nothing searched before.
func (e *Engine) ClearTT() {
	e.tt.Clear()
	e.killers = [MaxPly][2]int16{}
	e.history = [2][dice.MaxCells]int64{}
}

func (e *Engine) evaluate() float64 {
	e.stats.Leaves++
	switch e.kind {
	case evalZero:
		return 0
	case evalPairs:
		return Pairs{}.Evaluate(&e.b)
	}
	return e.eval.Evaluate(&e.b)
}

// make and unmake play a move at ply on the engine's board, restoring the
// board's counters on unmake from the ply's Undo rather than recomputing
// them, and keep an incremental evaluator in step.
func (e *Engine) make(cell, ply int) {
	e.b.MakeSaving(cell, &e.undo[ply])
	if e.inc != nil {
		e.inc.Make(&e.b, cell)
	}
}

func (e *Engine) unmake(cell, ply int) {
	if e.inc != nil {
		e.inc.Unmake(&e.b, cell)
	}
	e.b.UnmakeRestoring(cell, &e.undo[ply])
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

// chanceFrame is the state of one chance node shared by its phases: the
// events, the bounds on each event's value (lo, hi) and their sums, and
// ChanceProbCut's predicted bounds (elo, ehi). All events are equally
// likely, so working with sums keeps the windows of equations 2.11 and 2.12
// exact: a_i = n*alpha - sum_{j!=i} hi_j.
type chanceFrame struct {
	n            int
	nf           float64
	alpha, beta  float64
	depth, ply   int
	key          uint64
	sumLo, sumHi float64
	cpc          bool
	lines        [dice.MaxN]int8
	lo, hi       [dice.MaxN]float64
	elo, ehi     [dice.MaxN]float64
}

// chance searches a pre-roll position: the chance node of the side to move.
// It returns the value within the usual fail-soft contract: a value <= alpha
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
	if depth == 0 {
		return e.evaluate()
	}
	e.stats.ChanceNodes++
	if e.expectimax {
		return e.expectimaxChance(depth, ply)
	}
	f := &e.frames[ply]
	f.cpc = false
	f.n = b.Rolls(&f.lines)
	f.nf = float64(f.n)
	f.alpha, f.beta, f.depth, f.ply = alpha, beta, depth, ply
	for i := 0; i < f.n; i++ {
		f.lo[i], f.hi[i] = L, U
	}
	f.sumLo, f.sumHi = f.nf*L, f.nf*U
	f.key = b.Key()
	if depth > 2 { // the events' move nodes probe the table from depth 2
		for i := 0; i < f.n; i++ {
			e.tt.prefetch(b.KeyAfterRoll(int(f.lines[i])))
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

// expectimaxChance is the chance node of Expectimax: the mean of every
// event searched with the full window.
func (e *Engine) expectimaxChance(depth, ply int) float64 {
	b := &e.b
	var lines [dice.MaxN]int8
	n := b.Rolls(&lines)
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

// tableCut looks the chance node up in the table: bounds of enough depth
// cut it off or narrow its window (StarETC; Veness and Blair 2007).
func (e *Engine) tableCut(f *chanceFrame) (float64, bool) {
	en := e.tt.probe(f.key)
	if en == nil {
		return 0, false
	}
	e.stats.TTHits++
	okLo, okHi := int(en.loDepth) >= f.depth, int(en.hiDepth) >= f.depth
	if okLo && okHi && en.lo >= en.hi {
		e.stats.TTCutChance++
		return en.lo, true
	}
	if okLo {
		if en.lo >= f.beta {
			e.stats.TTCutChance++
			return en.lo, true
		}
		f.alpha = max(f.alpha, en.lo)
	}
	if okHi {
		if en.hi <= f.alpha {
			e.stats.TTCutChance++
			return en.hi, true
		}
		f.beta = min(f.beta, en.hi)
	}
	return 0, false
}

// successorProbing gathers every bound the table holds on the events
// before searching any of them (Veness 2006, section 3.2).
func (e *Engine) successorProbing(f *chanceFrame) (float64, bool) {
	b := &e.b
	for i := 0; i < f.n; i++ {
		en := e.tt.probe(b.KeyAfterRoll(int(f.lines[i])))
		if en == nil {
			continue
		}
		if int(en.loDepth) >= f.depth-1 && en.lo > f.lo[i] {
			f.sumLo += en.lo - f.lo[i]
			f.lo[i] = en.lo
		}
		if int(en.hiDepth) >= f.depth-1 && en.hi < f.hi[i] {
			f.sumHi += en.hi - f.hi[i]
			f.hi[i] = en.hi
		}
		if f.lo[i] > f.hi[i] { // bounds of different depths disagree: trust neither
			f.sumLo += L - f.lo[i]
			f.sumHi += U - f.hi[i]
			f.lo[i], f.hi[i] = L, U
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
// exact value of its full depth, unmarked (package doc, "Transposition
// table").
func (e *Engine) probCut(f *chanceFrame, m *cpcModel) (float64, bool) {
	b := &e.b
	f.cpc = true
	sumElo, sumEhi := 0.0, 0.0
	for i := 0; i < f.n; i++ {
		f.elo[i], f.ehi[i] = f.lo[i], f.hi[i]
		if f.lo[i] < f.hi[i] {
			b.SetRoll(int(f.lines[i]))
			v := e.max(L, U, m.shallow, f.ply+1)
			b.ClearRoll()
			if e.stopped {
				return 0, true
			}
			e.stats.CPCSearches++
			pred := m.a*v + m.b
			f.elo[i] = max(f.lo[i], L, pred-m.tSigma)
			f.ehi[i] = min(f.hi[i], U, pred+m.tSigma)
			if f.elo[i] > f.ehi[i] {
				f.elo[i], f.ehi[i] = f.lo[i], f.hi[i]
			}
		}
		sumElo += f.elo[i]
		sumEhi += f.ehi[i]
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
	b := &e.b
	for i := 0; i < f.n; i++ {
		if f.lo[i] >= f.hi[i] {
			continue
		}
		bx := min(U, f.nf*f.beta-(f.sumLo-f.lo[i]))
		b.SetRoll(int(f.lines[i]))
		v, complete := e.probe(f.lo[i], bx, f.depth-1, f.ply+1)
		b.ClearRoll()
		if e.stopped {
			return 0, true
		}
		if v > f.lo[i] {
			f.sumLo += v - f.lo[i]
			f.lo[i] = v
			if f.lo[i] > f.hi[i] {
				f.sumHi += f.lo[i] - f.hi[i]
				f.hi[i] = f.lo[i]
			}
			if f.cpc && f.lo[i] > f.ehi[i] {
				f.ehi[i] = U
			}
		}
		// A probe that saw every move (a leaf, or no more moves than the
		// probing factor) is a full search: below bx it is also an upper
		// bound, and the Star1 phase need not search it again.
		if complete && v < bx && v < f.hi[i] {
			f.sumHi += max(v, f.lo[i]) - f.hi[i]
			f.hi[i] = max(v, f.lo[i])
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
	b := &e.b
	for i := 0; i < f.n; i++ {
		if f.lo[i] >= f.hi[i] {
			e.stats.ExactSkipped++
			continue
		}
		cmin := f.nf*f.alpha - (f.sumHi - f.hi[i]) // equation 2.11 before clamping
		cmax := f.nf*f.beta - (f.sumLo - f.lo[i])  // equation 2.12
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
		b.SetRoll(int(f.lines[i]))
		v := e.max(wa, wb, f.depth-1, f.ply+1)
		b.ClearRoll()
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
		f.sumLo += newLo - f.lo[i]
		f.sumHi += newHi - f.hi[i]
		f.lo[i], f.hi[i] = newLo, newHi
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
		sum += f.lo[i]
	}
	v := sum / f.nf
	if e.chanceTT {
		e.tt.store(f.key, v, f.depth, v, f.depth, -1)
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
	if e.chanceTT {
		e.tt.store(f.key, lo, f.depth, hi, f.depth, -1)
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
	complete := e.b.LineEmpty(e.b.Roll()) <= e.cfg.ProbingFactor
	if complete {
		return e.moveNode(alpha, beta, depth, ply, 0), true
	}
	return e.moveNode(alpha, beta, depth, ply, e.cfg.ProbingFactor), false
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
	if e.chanceTT && depth > 1 {
		for i := 0; i < n; i++ {
			e.tt.prefetch(b.KeyAfter(int(moves[i])))
		}
	}
	best, bestMove := L-1, -1
	for i := 0; i < n; i++ {
		m := int(moves[i])
		e.make(m, ply)
		v := -e.chance(-beta, -max(alpha, best), depth-1, ply+1)
		e.unmake(m, ply)
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

// Cutoffs are the cut-off counts of a search by kind, spelled one way in
// every output: search -json, bench.parquet and the tables.
type Cutoffs struct {
	AlphaBeta   int64 `json:"alpha_beta" parquet:"alpha_beta"`
	TTCutMove   int64 `json:"tt_cut_move" parquet:"tt_cut_move"`
	TTCutChance int64 `json:"tt_cut_chance" parquet:"tt_cut_chance"`
	ETCCut      int64 `json:"etc_cut" parquet:"etc_cut"`
	Star2Cut    int64 `json:"star2_cut" parquet:"star2_cut"`
	Star1Cut    int64 `json:"star1_cut" parquet:"star1_cut"`
	CPCCut      int64 `json:"cpc_cut" parquet:"cpc_cut"`
}

// Cutoffs returns the cut-off counts of s.
func (s Stats) Cutoffs() Cutoffs {
	return Cutoffs{s.AlphaBeta, s.TTCutMove, s.TTCutChance, s.ETCCut, s.Star2Cut, s.Star1Cut, s.CPCCut}
}

// String returns the counts as "alpha_beta 12, tt_cut_move 3, ...".
func (c Cutoffs) String() string {
	return fmt.Sprintf("alpha_beta %d, tt_cut_move %d, tt_cut_chance %d, etc_cut %d, star2_cut %d, star1_cut %d, cpc_cut %d",
		c.AlphaBeta, c.TTCutMove, c.TTCutChance, c.ETCCut, c.Star2Cut, c.Star1Cut, c.CPCCut)
}
