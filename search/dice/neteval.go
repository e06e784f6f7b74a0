package dice

import (
	"slices"

	"starlab/nn"
)

// NetEvaluator is a Dice net as a search evaluator. It keeps the first
// layer's pre-activations from the cells, B1 + W1·cells, for both sides'
// views (two accumulators, as NNUE keeps two perspectives), in a stack
// with one frame per move followed since the last Reset: frame f is frame
// f-1 with the weight columns of the checker the f-th move placed added to
// both views. A take-back drops the top frame, restoring the accumulators
// exactly with no arithmetic.
//
// Frames are computed lazily, as NNUE engines update their accumulators:
// Make only records which checker came, and Evaluate computes the frames
// from the last computed one up to the top, so a move whose subtree
// evaluates no leaf (a table cut-off, a game won) costs no arithmetic.
//
// Values are remembered, as chess engines keep an evaluation cache: each
// frame keeps its own once evaluated (the roll is no input, so the leaves
// after every roll of a chance node are one position, evaluated once), and
// a small table keeps values by position key, for the positions a search
// reaches again by another order of moves below the depth where it
// consults its transposition table. Reset empties the table, so that a
// search depends on nothing evaluated before it.
//
// The streak features are in the accumulators too: a frame adds the
// changes of the run counts its move made, which the board keeps
// incrementally. Evaluate finishes the forward pass from the side to
// move's accumulator (Value of an nn.Kernel, within nn.KernelTolerance of
// the net's Forward). It implements the search's Incremental evaluator;
// one belongs to one engine.
//
// For a net of the input set "threats" the frames also keep both
// colours' winning cells (threatStack), and Evaluate adds the six threat
// inputs to a copy of the side to move's accumulator.
type NetEvaluator struct {
	net  *nn.Net
	k    *nn.Kernel // the net laid out for the leaves: H units, padded
	n, m int
	// w holds the padded weight columns the accumulators add: w[c*2H:][:2H]
	// is what a checker adds to the two, for c = 2*cell + owner, its
	// column in Blue's view, then in Red's; from streakAt on, the streak
	// features' columns, w[streakAt+(2*(k-2)+theirs)*H:][:H] that of runs
	// of length k, the view's own (theirs = 0) or the opponent's (1), for
	// k from 2 to maxRun = min(m-1, 7).
	w        []float64
	streakAt int
	maxRun   int
	// acc[f*2H:][:2H] are frame f's accumulators, Blue's view then Red's.
	acc []float64
	top int // the frame of the position followed
	// done[v] is the last frame whose view v is computed: frames 0 to
	// done[v] are, done[v] <= top (done[threatView]: whose winning cells
	// are, for a net of threat inputs). The views are computed apart because
	// the leaves of one search iteration have one side to move (they lie
	// at one parity of plies from the root), so one view of the frames
	// above them is never read.
	done [3]int
	// put[f] is the checker (2*cell + owner) frame f adds to frame f-1,
	// runs[f] the board's run counts in frame f (Board.streaks), whose
	// changes from frame f-1 move the streak features; val[f] is frame
	// f's value when known[f].
	put   [MaxCells + 1]int32
	runs  [MaxCells + 1][2][MaxN + 1]int16
	val   [MaxCells + 1]float64
	known [MaxCells + 1]bool
	// cache holds values of positions evaluated since the last Reset, by
	// position key (the roll left out) xor salt, which every Reset
	// changes, so that a search depends on nothing evaluated before it.
	cache [evalCacheSize]cachedValue
	salt  uint64
	pre   []float64 // Value's scratch: the hidden units' pre-activations
	// threatAt is the offset in w of the threat features' columns, one
	// per feature, for a net of the input set "threats" (0 otherwise);
	// they are added to a copy of a frame's accumulator at each
	// evaluation (tacc), since the board keeps no count of them.
	threatAt int
	tacc     []float64
	thr      *threatStack       // the frames' winning cells, for a net of threat inputs
	cellIx   [2][MaxCells]int32 // the first input of a cell seen by each side (cellInput)
}

// threatView is the index in NetEvaluator.done of the frames' winning
// cells.
const threatView = 2

// evalCacheSize is the number of entries of the evaluator's cache of
// values (16 bytes each).
const evalCacheSize = 1 << 13

// cachedValue is an entry of the value cache.
type cachedValue struct {
	key uint64
	val float64
}

// NewNetEvaluator returns an evaluator of net for the boards of its
// variant, or the error of NetSize when net is not a Dice net; call Reset
// before Evaluate.
func NewNetEvaluator(net *nn.Net) (*NetEvaluator, error) {
	n, m, err := NetSize(net)
	if err != nil {
		return nil, err
	}
	k := nn.NewKernel(net)
	H := k.H
	e := &NetEvaluator{net: net, k: k, n: n, m: m, pre: make([]float64, net.H)}
	for cell := 0; cell < n*n; cell++ {
		for side := Blue; side <= Red; side++ {
			e.cellIx[side][cell] = int32(cellInput(n, side, side, cell))
		}
	}
	e.maxRun = min(maxStreak, m-1)
	e.streakAt = 2 * n * n * 2 * H
	e.w = make([]float64, e.streakAt+2*(e.maxRun-1)*H)
	for cell := 0; cell < n*n; cell++ {
		for owner := Blue; owner <= Red; owner++ {
			col := e.w[(2*cell+int(owner))*2*H:]
			for view := Blue; view <= Red; view++ {
				k.Column(col[int(view)*H:], cellInput(n, view, owner, cell))
			}
		}
	}
	for run := 2; run <= e.maxRun; run++ {
		k.Column(e.w[e.streakAt+2*(run-2)*H:], run-2)       // the view's own runs
		k.Column(e.w[e.streakAt+(2*(run-2)+1)*H:], 6+run-2) // the opponent's
	}
	if net.In == InputSize(n)+ThreatInputs {
		e.threatAt = len(e.w)
		e.w = append(e.w, make([]float64, ThreatInputs*H)...)
		for i := 0; i < ThreatInputs; i++ {
			k.Column(e.w[e.threatAt+i*H:], InputSize(n)+i)
		}
		e.tacc = make([]float64, H)
		e.thr = newThreatStack(n, m)
	}
	e.acc = make([]float64, (n*n+1)*2*H)
	return e, nil
}

// Clone returns an evaluator of the same net with accumulators of its
// own, equal to e's: one per engine or worker, without checking the net
// again.
func (e *NetEvaluator) Clone() *NetEvaluator {
	c := *e
	c.acc = slices.Clone(e.acc)
	c.pre = make([]float64, len(e.pre))
	if e.tacc != nil {
		c.tacc = make([]float64, len(e.tacc))
		thr := *e.thr
		c.thr = &thr
	}
	return &c
}

// Reset computes both accumulators from b's cells and run counts, as
// the stack's only frame.
func (e *NetEvaluator) Reset(b *Board) {
	e.top, e.done, e.known[0] = 0, [3]int{}, false
	e.salt += 0x9e3779b97f4a7c15
	e.runs[0] = b.streaks
	if e.thr != nil {
		e.thr.win[0] = b.winCells()
	}
	H := e.k.H
	inv := 1 / float64(e.n)
	for view := Blue; view <= Red; view++ {
		acc := e.acc[int(view)*H:][:H]
		copy(acc, e.k.B1)
		for cell := 0; cell < e.n*e.n; cell++ {
			if p := b.At(cell); p != Empty {
				at := [1]int32{int32((2*cell+int(p)-1)*2*H + int(view)*H)}
				a := [1]float64{1}
				e.k.Update(acc, acc, e.w, at[:], a[:])
			}
		}
		for c := Blue; c <= Red; c++ {
			for run := 2; run <= e.maxRun; run++ {
				if n := b.streaks[c][run]; n != 0 {
					at := [1]int32{e.streakCol(view, c, run)}
					a := [1]float64{float64(n) * inv}
					e.k.Update(acc, acc, e.w, at[:], a[:])
				}
			}
		}
	}
}

// streakCol returns the offset in w of the column of the streak feature
// of c's runs of length run in view's accumulator.
func (e *NetEvaluator) streakCol(view, c Color, run int) int32 {
	s := 2 * (run - 2)
	if c != view {
		s++
	}
	return int32(e.streakAt + s*e.k.H)
}

// Make follows b.Make(cell): the checker now on cell enters both views.
func (e *NetEvaluator) Make(b *Board, cell int) {
	e.top++
	e.put[e.top] = int32(2*cell + int(b.At(cell)) - 1)
	e.runs[e.top] = b.streaks
	e.known[e.top] = false
}

// Unmake precedes b.Unmake(cell): the checker still on cell leaves both
// views.
func (e *NetEvaluator) Unmake(*Board, int) {
	e.top--
	e.done[0] = min(e.done[0], e.top)
	e.done[1] = min(e.done[1], e.top)
	e.done[threatView] = min(e.done[threatView], e.top)
}

// Evaluate returns the net's value of b for its side to move, in [-1, 1],
// from the accumulators (which must follow b), within nn.KernelTolerance
// of Forward's value of Features(b).
func (e *NetEvaluator) Evaluate(b *Board) float64 {
	if e.known[e.top] {
		return e.val[e.top]
	}
	key := b.KeyBeforeRoll() ^ e.salt
	c := &e.cache[key&(evalCacheSize-1)]
	if c.key == key {
		e.val[e.top], e.known[e.top] = c.val, true
		return c.val
	}
	H := e.k.H
	stm := b.SideToMove()
	view := int(stm) * H // the view's offset in a frame and in a column
	f := e.done[stm]
	acc := e.acc[2*f*H+view:][:H]
	var v float64
	threats := e.threatAt != 0
	if f == e.top && !threats { // computed as another frame's ancestor, never evaluated
		v = e.k.Value(acc)
	}
	inv := 1 / float64(e.n)
	// Each frame adds its checker's column, then the changes of the run
	// counts its move made, all the mover's (a checker joins or lengthens
	// runs of its own colour and is no part of a run of the other's),
	// gathered without a branch per count: which count changes is not
	// predictable.
	var at [maxStreak]int32
	var a [maxStreak]float64
	a[0] = 1
	for f++; f <= e.top; f++ {
		put := int(e.put[f])
		at[0] = int32(put*2*H + view)
		n := 1
		mover := Color(put & 1)
		col := int32(e.streakAt + H*int(mover^stm)) // the column of the mover's runs of length 2 in view stm
		was, now := &e.runs[f-1][mover], &e.runs[f][mover]
		for run := 2; run <= e.maxRun; run++ {
			d := now[run] - was[run]
			at[n], a[n] = col, float64(d)*inv
			col += int32(2 * H)
			if d != 0 {
				n++
			}
		}
		src := acc
		acc = e.acc[2*f*H+view:][:H]
		if f < e.top || threats {
			e.k.Update(acc, src, e.w, at[:n], a[:n])
		} else {
			v = e.k.UpdateValue(acc, src, e.w, at[:n], a[:n])
		}
	}
	if threats {
		v = e.threatValue(b, acc)
	}
	e.done[stm] = e.top
	e.val[e.top], e.known[e.top] = v, true
	c.key, c.val = key, v
	return v
}

// threatValue returns the net's value from the side to move's
// accumulator acc, which holds every input but the threat features, with
// b's threat features added to a copy of it.
func (e *NetEvaluator) threatValue(b *Board, acc []float64) float64 {
	var t [ThreatInputs]float64
	threatInputs(b, e.thr.counts(b, e.done[threatView], e.top, &e.put), &t)
	e.done[threatView] = e.top
	var at [ThreatInputs]int32
	var a [ThreatInputs]float64
	n := 0
	for i, x := range t {
		if x != 0 {
			at[n], a[n] = int32(e.threatAt+i*e.k.H), x
			n++
		}
	}
	return e.k.UpdateValue(e.tacc, acc, e.w, at[:n], a[:n])
}

// Value returns the net's value of b for its side to move from b's cells
// alone, computing the side to move's accumulator only; the accumulators
// e follows are left as they were. It is the net's own arithmetic
// (nn.Net.AddInput and Output: B1, the cells' columns in cell order, the
// streak features), which training has always used, so that training
// from a seed gives the same net.
func (e *NetEvaluator) Value(b *Board) float64 {
	net := e.net
	stm := b.SideToMove()
	pre := e.pre
	copy(pre, net.B1)
	for cell := 0; cell < e.n*e.n; cell++ {
		if p := b.At(cell); p != Empty {
			i := int(e.cellIx[stm][cell])
			if Color(p-1) != stm {
				i++
			}
			net.AddInput(pre, i, 1)
		}
	}
	inv := 1 / float64(e.n)
	for k := 2; k <= maxStreak && k < e.m; k++ {
		if c := b.Streaks(stm, k); c != 0 {
			net.AddInput(pre, k-2, float64(c)*inv)
		}
		if c := b.Streaks(stm.Other(), k); c != 0 {
			net.AddInput(pre, 6+k-2, float64(c)*inv)
		}
	}
	if e.threatAt != 0 {
		var t [ThreatInputs]float64
		threatFeatures(b, &t)
		for i, x := range t {
			if x != 0 {
				net.AddInput(pre, InputSize(e.n)+i, x)
			}
		}
	}
	return net.Output(pre)
}
