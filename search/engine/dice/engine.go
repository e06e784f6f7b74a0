package dice

import (
	"slices"
	"time"

	"starlab/search"
	"starlab/search/game"
)

// Score bounds (search.L and search.U): every evaluator stays inside them.
const (
	L = search.L
	U = search.U
)

// evalKind lets the engine call the evaluators of its configuration
// without an interface call per leaf.
type evalKind uint8

const (
	evalZero evalKind = iota // 0 at every non-terminal leaf
	evalHand                 // the game's hand-written evaluator
	evalNet                  // the network, a concrete type of the game
)

// Engine searches positions of its game. It owns its board copy,
// transposition table, killer and history tables and evaluator, so engines
// built from one Resolved configuration can run side by side in different
// goroutines.
type Engine struct {
	cfg   search.Config
	kind  evalKind
	hand  int8     // which of the game's hand evaluators, when kind is evalHand (handOf)
	net   *netEval // the network, when kind is evalNet: it follows the board
	tt    *search.TT
	b     Board
	stats search.Stats

	// The algorithm, resolved into the features it uses.
	expectimax bool // every event searched with the full window
	star2      bool // the probing phase
	chanceTT   bool // table cut-offs at chance nodes and successor probing
	cpcOn      bool // ChanceProbCut
	// cpc[d] are ChanceProbCut's models at a chance node of depth d, for
	// the variant being searched, shallowest first: one, or with Multi
	// every fitted pair, each tried when the one before cuts nothing.
	cpc [][]cpcModel
	// variant is the variant the evaluator and the models are for
	// (setBoard); res builds them.
	variant variantKey
	res     *search.Resolved
	// noise is the evaluation noise of games that have it (evalNoise):
	// the configuration's, salted per game by SetSalt.
	noise float64
	salt  uint64

	killers [maxPly][2]move
	history [2][moveIDs]int64
	// score is orderMoves' scratch where a node has more moves than
	// stackScores: kept here so that it is not zeroed per node.
	score [maxMoves]int64
	// moveBuf holds each ply's moves, maxMoves from ply*maxMoves, where a
	// node can have more than stackMoves (backgammon's 4,096 plays, 8 KiB
	// that the stack would zero at every node); New makes it only there.
	moveBuf []move
	undo    [maxPly]undo      // the counters each ply's move changed
	eundo   [maxPly]eventUndo // what each ply's chance event changed
	// frames are the chance nodes' working state, one per ply, kept here
	// so that a chance node does not zero a fresh one on the stack.
	frames [maxPly]chanceFrame

	// Limits of the current search.
	stopped   bool
	ctxDone   <-chan struct{}
	nodeLimit int64
	deadline  time.Time
	hasClock  bool
	rootBest  int
}

// cpcModel is the depth pair a chance node of one depth uses: the shallow
// search of each event goes to the model's shallow depth and predicts the
// deep value a*v + b within t*sigma.
type cpcModel struct {
	shallow      int
	a, b, tSigma float64
}

// New returns an engine for the resolved configuration, with its own
// table and evaluator.
func New(r *search.Resolved) *Engine {
	c := r.Config()
	e := &Engine{cfg: c, res: r, tt: search.NewTT(c.TTMiB)}
	switch c.Eval {
	case "zero":
		e.kind = evalZero
	case "mlp":
		e.kind = evalNet
	default:
		e.kind = evalHand
		e.hand = handOf(c.Eval)
	}
	t := c.Algorithm.Techniques() // read once here, never per node
	e.expectimax = !t.Star1
	e.star2 = t.Star2Probing
	e.chanceTT = t.ChanceTT
	e.cpcOn = t.ProbCut
	e.noise = c.Noise
	if e.cpcOn {
		e.cpc = make([][]cpcModel, 2*maxPly+1)
	}
	if maxMoves > stackMoves {
		e.moveBuf = make([]move, maxPly*maxMoves)
	}
	return e
}

// setModels fills the ChanceProbCut models of every chance-node depth
// from params.
func (e *Engine) setModels(params *search.ProbCutParams) {
	c := e.cfg
	clear(e.cpc)
	lo, hi := c.CPCMinDepth, c.CPCMaxDepth
	if lo == 0 {
		lo = c.ProbCutR + 1
	}
	if hi == 0 {
		hi = len(e.cpc) - 1
	}
	step := max(c.CPCStep, 1)
	for d := lo; d <= hi && d < len(e.cpc); d += step {
		// The events of a chance node of depth d are searched to d-1
		// where chance plies count, to d where they do not. A depth that
		// ends on a chance ply has the value of one ply less
		// (endsOnChance), so the model is the one of the depth below,
		// and the shallow search too is one ply shorter for the same
		// value.
		deep := d
		if countsChance {
			deep = d - 1
			if endsOnChance(false, deep) {
				deep--
			}
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
func (e *Engine) Config() search.Config { return e.cfg }

// Evaluate returns the engine's evaluation of pos, a position of the
// engine's game that is not over, for its mover: the value of a depth-0
// search. Where depth does not count chance nodes, that is at a chance
// node the weighted mean of its events' evaluations (or results).
func (e *Engine) Evaluate(pos game.State) float64 {
	b := boardOf(pos)
	e.setBoard(b)
	if !countsChance && isChance(b) {
		e.b = *b
		f := &e.frames[0]
		n, total := chanceEvents(&e.b, &f.events, &f.w)
		sum := 0.0
		for i := 0; i < n; i++ {
			happen(&e.b, f.events[i], &e.eundo[0])
			v := 0.0
			if e.b.Over() {
				v = e.b.Result()
			} else {
				v = e.leaf(&e.b)
			}
			unhappen(&e.b, f.events[i], &e.eundo[0])
			if uniformChance {
				sum += v
			} else {
				sum += f.w[i] * v
			}
		}
		return sum / float64(total)
	}
	return e.leaf(b)
}

// leaf evaluates b afresh (the network's accumulators computed from it).
func (e *Engine) leaf(b *Board) float64 {
	if e.kind == evalNet {
		e.net.Reset(b)
	}
	return e.value(b)
}

// value is b's evaluation, the network's accumulators following b, plus
// the evaluation noise where the game has it (evalNoise).
func (e *Engine) value(b *Board) float64 {
	v := 0.0
	switch e.kind {
	case evalZero:
	case evalHand:
		v = handEval(b, e.hand)
	default:
		v = e.net.Evaluate(b)
	}
	if evalNoise && e.noise != 0 {
		v = search.Noisy(v, b.Key()^e.salt, e.noise)
	}
	return v
}

// SetSalt sets the salt of the evaluation noise (search.Salter): a
// match gives each game's seed. It changes nothing without noise.
func (e *Engine) SetSalt(salt uint64) { e.salt = salt }

// ClearTT empties the transposition table and the move-ordering tables, so
// that the next search depends on nothing searched before.
func (e *Engine) ClearTT() {
	e.tt.Clear()
	e.killers = [maxPly][2]move{}
	e.history = [2][moveIDs]int64{}
}

// evaluate is the search's leaf: the board's value, counted. It inlines
// into the node functions, so a leaf costs one call, as before noise.
func (e *Engine) evaluate() float64 {
	e.stats.Leaves++
	return e.value(&e.b)
}

// make and unmake play a move at ply on the engine's board, restoring the
// board's counters on unmake from the ply's undo rather than recomputing
// them, and keep the network's accumulators in step.
func (e *Engine) make(m, ply int) {
	e.b.MakeSaving(m, &e.undo[ply])
	if e.kind == evalNet {
		e.net.Make(&e.b, m)
	}
}

func (e *Engine) unmake(m, ply int) {
	if e.kind == evalNet {
		e.net.Unmake(&e.b, m)
	}
	e.b.UnmakeRestoring(m, &e.undo[ply])
}

// happen and unhappen make and take back a chance event at ply, keeping the
// network in step where the game's events change what it reads.
func (e *Engine) happen(ev event, ply int) {
	happen(&e.b, ev, &e.eundo[ply])
	if eventsTouchEval && e.kind == evalNet {
		netHappen(e.net, &e.b, ev, &e.eundo[ply])
	}
}

func (e *Engine) unhappen(ev event, ply int) {
	if eventsTouchEval && e.kind == evalNet {
		netUnhappen(e.net, &e.b, ev, &e.eundo[ply])
	}
	unhappen(&e.b, ev, &e.eundo[ply])
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
	if uniformChance {
		f.sumLo += lo - f.lo[i]
	} else {
		f.sumLo += f.w[i] * (lo - f.lo[i])
	}
	f.lo[i] = lo
}

func (f *chanceFrame) setHi(i int, hi float64) {
	if uniformChance {
		f.sumHi += hi - f.hi[i]
	} else {
		f.sumHi += f.w[i] * (hi - f.hi[i])
	}
	f.hi[i] = hi
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
	sum := 0.0
	for i := 0; i < n; i++ {
		e.happen(f.events[i], ply)
		v := e.max(L, U, childDepth(depth), ply+1)
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
		f.alpha = max(f.alpha, en.Lo)
	}
	if okHi {
		if en.Hi <= f.alpha {
			e.stats.TTCutChance++
			return en.Hi, true
		}
		f.beta = min(f.beta, en.Hi)
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
		if int(en.LoDepth) >= cd && en.Lo > f.lo[i] {
			f.setLo(i, en.Lo)
		}
		if int(en.HiDepth) >= cd && en.Hi < f.hi[i] {
			f.setHi(i, en.Hi)
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
		if f.lo[i] >= f.hi[i] {
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
		v := e.max(wa, wb, childDepth(f.depth), f.ply+1)
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
	if e.chanceTT {
		e.tt.Store(f.key, lo, f.depth, hi, f.depth, -1)
	}
	if high {
		return max(lo, edge)
	}
	return min(hi, edge)
}

// stackScores is the most moves whose scores orderMoves keeps on the
// stack, and stackMoves the most moves a node keeps there (moveNode).
const (
	stackScores = min(maxMoves, 64)
	stackMoves  = 256
)

// orderMoves fills moves with the legal moves of the position in search
// order: table move, then killers, then by history score.
func (e *Engine) orderMoves(moves *[maxMoves]move, ttMove, ply int) int {
	n := e.b.Moves(moves)
	// Scores live on the stack where a node has few moves, and in the
	// engine where it has many (backgammon's 4,096), which the stack
	// would zero at every node: the branch is decided at compile time.
	var local [stackScores]int64
	score := local[:]
	if maxMoves > stackScores {
		score = e.score[:]
	}
	stm := mover(&e.b)
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
	// Insertion sort: few moves in Dice and ChanceBreakthrough; in
	// backgammon 17 plays a roll on the mean, though a double can have
	// thousands.
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

// max searches a decision: the move node of the side to move (negamax,
// fail-soft alpha-beta with table, killers and history).
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
	complete := moveCount(&e.b) <= e.cfg.ProbingFactor
	if complete {
		return e.moveNode(alpha, beta, depth, ply, 0), true
	}
	return e.moveNode(alpha, beta, depth, ply, e.cfg.ProbingFactor), false
}

// ttProbe looks key up when use is set.
func (e *Engine) ttProbe(use bool, key uint64) *search.Entry {
	if !use {
		return nil
	}
	return e.tt.Probe(key)
}

// moveNode is max when limit is 0 and probe when limit > 0.
func (e *Engine) moveNode(alpha, beta float64, depth, ply, limit int) float64 {
	if e.tick() {
		return 0
	}
	b := &e.b
	if !alternating && b.Over() { // where a move can end the game before any chance
		return b.Result()
	}
	if depth == 0 {
		return e.evaluate()
	}
	key := b.Key()
	ttMove := -1
	useTT := depth > 1 // a depth-1 node's children are leaves: cheaper than a table miss
	if en := e.ttProbe(useTT, key); en != nil {
		e.stats.TTHits++
		ttMove = int(en.Move)
		okLo, okHi := int(en.LoDepth) >= depth, int(en.HiDepth) >= depth
		if okLo && en.Lo >= beta {
			e.stats.TTCutMove++
			return en.Lo
		}
		if limit == 0 {
			if okLo && okHi && en.Lo >= en.Hi {
				e.stats.TTCutMove++
				return en.Lo
			}
			if okHi && en.Hi <= alpha {
				e.stats.TTCutMove++
				return en.Hi
			}
			if okLo {
				alpha = max(alpha, en.Lo)
			}
			if okHi {
				beta = min(beta, en.Hi)
			}
		}
	}
	// The moves live on the stack where a node has few, and in the
	// engine where it can have many: the branch is decided at compile
	// time.
	var moves *[maxMoves]move
	if maxMoves > stackMoves {
		moves = (*[maxMoves]move)(e.moveBuf[ply*maxMoves:])
	} else {
		moves = new([maxMoves]move)
	}
	n := e.orderMoves(moves, ttMove, ply)
	if limit > 0 && n > limit {
		n = limit
	}
	if e.chanceTT && depth > 1 {
		for i := 0; i < n; i++ {
			e.tt.Prefetch(b.KeyAfter(int(moves[i])))
		}
	}
	best, bestMove := L-1, -1
	for i := 0; i < n; i++ {
		m := int(moves[i])
		e.make(m, ply)
		var v float64
		if alternating || isChance(b) {
			v = -e.chance(-beta, -max(alpha, best), depth-1, ply+1)
		} else {
			v = -e.moveNode(-beta, -max(alpha, best), depth-1, ply+1, 0)
		}
		e.unmake(m, ply)
		if e.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v >= beta {
				e.stats.AlphaBeta++
				if k := &e.killers[ply]; k[0] != move(m) {
					k[1], k[0] = k[0], move(m)
				}
				e.history[mover(b)][m] += int64(depth * depth)
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
			e.tt.Store(key, best, depth, U, -1, bestMove)
		}
	case best >= beta:
		e.tt.Store(key, best, depth, U, -1, bestMove)
	case best <= alpha:
		e.tt.Store(key, L, -1, best, depth, bestMove)
	default:
		e.tt.Store(key, best, depth, best, depth, bestMove)
	}
	return best
}
