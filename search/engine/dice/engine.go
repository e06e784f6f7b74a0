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

	// keep are the root plays the move filter keeps (Config.Filter), nKeep
	// of them; 0 searches every play.
	keep       [search.MaxFilter]move
	nKeep      int
	filterVals []float64 // filterRoot's values of the root's plays
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
	if c.Filter > 0 {
		e.filterVals = make([]float64, maxMoves)
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
		side := 0
		if signsFollowMover {
			side = mover(&e.b)
		}
		for i := 0; i < n; i++ {
			happen(&e.b, f.events[i], &e.eundo[0])
			v := 0.0
			if e.b.Over() {
				v = e.b.Result()
			} else {
				v = e.leaf(&e.b)
			}
			if signsFollowMover && mover(&e.b) != side {
				v = -v
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

// ClearTT empties the transposition table, the move-ordering tables and
// what the evaluator keeps of the positions it has valued (netForget), so
// that the next search depends on nothing searched before.
func (e *Engine) ClearTT() {
	e.tt.Clear()
	e.killers = [maxPly][2]move{}
	e.history = [2][moveIDs]int64{}
	if e.net != nil {
		netForget(e.net)
	}
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

// stackScores is the most moves whose scores orderMoves keeps on the
// stack, and stackMoves the most moves a node keeps there (moveNode).
const (
	stackScores = min(maxMoves, 64)
	stackMoves  = 256
)

// orderMoves fills moves with the legal moves of the position in search
// order: table move, then killers, then by history score. leaves says
// that the moves' children are leaves, which the network of a game that
// prefetches (netPrefetches) prepares for (netMoves).
func (e *Engine) orderMoves(moves *[maxMoves]move, ttMove, ply int, leaves bool) int {
	var n int
	if netPrefetches && leaves && e.kind == evalNet {
		n = netMoves(e.net, &e.b, moves)
	} else {
		n = e.b.Moves(moves)
	}
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
	if ply == 0 && e.nKeep > 0 {
		return e.kept(moves, n)
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
		// An exact value answers a probe too: it is the lower bound the
		// probe would give, and better. A probe that searched below it
		// instead would search the first move's subtree again at every
		// probe of a position met before.
		if okLo && okHi && en.Lo >= en.Hi && (limit == 0 || exactFirst) {
			e.stats.TTCutMove++
			return en.Lo
		}
		if limit == 0 {
			if okHi && en.Hi <= alpha {
				e.stats.TTCutMove++
				return en.Hi
			}
			switch {
			case exactFirst && !e.expectimax:
				// Met before (its entry, of this depth or another, does
				// not decide this visit): search it once in the full
				// window, so that its value is exact and decides every
				// later visit, as expectimax's are. Otherwise a position
				// met again and again in other windows (a game whose
				// positions recur at many depths) is searched again at
				// each visit, and so is its subtree.
				alpha, beta = L, U
			default:
				if okLo {
					alpha = max(alpha, en.Lo)
				}
				if okHi {
					beta = min(beta, en.Hi)
				}
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
	n := e.orderMoves(moves, ttMove, ply, depth == 1)
	if limit > 0 && n > limit {
		n = limit
	}
	if e.chanceTT && depth > 1 {
		for i := 0; i < n; i++ {
			e.tt.Prefetch(b.KeyAfter(int(moves[i])))
		}
	}
	best, bestMove := L-1, -1
	stm := 0
	if signsFollowMover {
		stm = mover(b)
	}
	for i := 0; i < n; i++ {
		m := int(moves[i])
		e.make(m, ply)
		var v float64
		switch {
		case signsFollowMover && mover(b) == stm:
			// The side that moved decides again, or rolls: its child's
			// value is from the same view, a max under a max.
			if isChance(b) {
				v = e.chance(max(alpha, best), beta, depth-1, ply+1)
			} else {
				v = e.moveNode(max(alpha, best), beta, depth-1, ply+1, 0)
			}
		case alternating || isChance(b):
			v = -e.chance(-beta, -max(alpha, best), depth-1, ply+1)
		default:
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
	case limit == 0 && (best > alpha || exactFirst && alpha <= L) && (best < beta || exactFirst && beta >= U):
		// Exact: inside the window, or at a bound of the game's values
		// that the window does not cut (a win or a loss searched in the
		// full window, which exactFirst must keep as exact, or the
		// position is searched again at every visit).
		e.tt.Store(key, best, depth, best, depth, bestMove)
	case exactFirst && !e.expectimax && e.exactIn(key):
		// A bound does not replace an exact value of another depth:
		// the visits the exact value decides outnumber those a bound
		// of this window would.
	case limit > 0:
		if best > alpha {
			e.tt.Store(key, best, depth, U, -1, bestMove)
		}
	case best >= beta:
		e.tt.Store(key, best, depth, U, -1, bestMove)
	default:
		e.tt.Store(key, L, -1, best, depth, bestMove)
	}
	return best
}

// filterRoot is the move filter (Config.Filter): it values every play of
// the root decision as the depth-1 search does, each with a leaf below it,
// and keeps the best and at most Filter-1 others within FilterWidth of it,
// best first, for the search proper.
func (e *Engine) filterRoot() {
	e.nKeep = 0
	var moves *[maxMoves]move
	if maxMoves > stackMoves {
		moves = (*[maxMoves]move)(e.moveBuf)
	} else {
		moves = new([maxMoves]move)
	}
	n := e.orderMoves(moves, -1, 0, false)
	vals := e.filterVals[:n]
	b := &e.b
	stm := 0
	if signsFollowMover {
		stm = mover(b)
	}
	for i := 0; i < n; i++ {
		m := int(moves[i])
		e.make(m, 0)
		switch { // as moveNode values a child, with the whole window
		case signsFollowMover && mover(b) == stm:
			if isChance(b) {
				vals[i] = e.chance(L, U, 0, 1)
			} else {
				vals[i] = e.moveNode(L, U, 0, 1, 0)
			}
		case alternating || isChance(b):
			vals[i] = -e.chance(L, U, 0, 1)
		default:
			vals[i] = -e.moveNode(L, U, 0, 1, 0)
		}
		e.unmake(m, 0)
	}
	width := e.cfg.FilterWidth
	if width == 0 {
		width = search.DefaultFilterWidth
	}
	best := L - 1
	for _, v := range vals {
		best = max(best, v)
	}
	// the kept plays, best first, the earlier in the move order first
	// among equals
	for e.nKeep < e.cfg.Filter {
		top := -1
		for i, v := range vals {
			if v >= best-width && (top < 0 || v > vals[top]) {
				top = i
			}
		}
		if top < 0 {
			break
		}
		e.keep[e.nKeep] = moves[top]
		e.nKeep++
		vals[top] = L - 3 // taken: below any best - width (width <= 2)
	}
}

// kept replaces the root's moves with the plays the filter keeps, best
// by the depth-1 look first (every one of them is among the root's
// moves), and returns how many there are.
func (e *Engine) kept(moves *[maxMoves]move, n int) int {
	return copy(moves[:n], e.keep[:e.nKeep])
}

// exactIn reports whether the table holds an exact value for key.
func (e *Engine) exactIn(key uint64) bool {
	en := e.tt.Probe(key)
	return en != nil && en.LoDepth >= 0 && en.HiDepth >= 0 && en.Lo >= en.Hi
}
