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
// evaluates no leaf (a table cut-off, a game won) costs no arithmetic. Each
// frame also keeps its value once evaluated: in Dice the roll is not an
// input, so the leaves after every roll of a chance node are one position,
// evaluated once.
//
// Evaluate adds the streak features, which the board keeps incrementally,
// to the side to move's accumulator and finishes the forward pass
// (nn.Net.Output). It implements the search's Incremental evaluator; one
// belongs to one engine.
type NetEvaluator struct {
	net  *nn.Net
	n, m int
	// cols[c*2H:][:2H] is what a checker adds to the two accumulators, for
	// c = 2*cell + owner: its weight column in Blue's view, then in Red's.
	cols []float64
	// acc[f*2H:][:2H] are frame f's accumulators, Blue's view then Red's.
	acc []float64
	top int // the frame of the position followed
	// done[v] is the last frame whose view v is computed: frames 0 to
	// done[v] are, done[v] <= top. The views are computed apart because
	// the leaves of one search iteration have one side to move (they lie
	// at one parity of plies from the root), so one view of the frames
	// above them is never read.
	done [2]int
	// put[f] is the checker (2*cell + owner) frame f adds to frame f-1;
	// val[f] is frame f's value when known[f].
	put    [MaxCells + 1]int32
	val    [MaxCells + 1]float64
	known  [MaxCells + 1]bool
	pre    []float64          // scratch: the hidden units' pre-activations
	cellIx [2][MaxCells]int32 // the first input of a cell seen by each side (cellInput)
}

// NewNetEvaluator returns an evaluator of net for the boards of its
// variant, or the error of NetSize when net is not a Dice net; call Reset
// before Evaluate.
func NewNetEvaluator(net *nn.Net) (*NetEvaluator, error) {
	n, m, err := NetSize(net)
	if err != nil {
		return nil, err
	}
	H := net.H
	e := &NetEvaluator{net: net, n: n, m: m, pre: make([]float64, H)}
	for cell := 0; cell < n*n; cell++ {
		for side := Blue; side <= Red; side++ {
			e.cellIx[side][cell] = int32(cellInput(n, side, side, cell))
		}
	}
	e.cols = make([]float64, 2*n*n*2*H)
	for cell := 0; cell < n*n; cell++ {
		for owner := Blue; owner <= Red; owner++ {
			col := e.cols[(2*cell+int(owner))*2*H:][:2*H]
			for view := Blue; view <= Red; view++ {
				i := cellInput(n, view, owner, cell)
				copy(col[int(view)*H:][:H], net.W1[i*H:][:H])
			}
		}
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
	return &c
}

// Reset computes both accumulators from b's cells, as the stack's only
// frame.
func (e *NetEvaluator) Reset(b *Board) {
	e.top, e.done, e.known[0] = 0, [2]int{}, false
	H := e.net.H
	acc := e.acc[:2*H]
	copy(acc[:H], e.net.B1)
	copy(acc[H:], e.net.B1)
	for cell := 0; cell < e.n*e.n; cell++ {
		if p := b.At(cell); p != Empty {
			addTo(acc, e.column(cell, Color(p-1)))
		}
	}
}

// column returns what a checker of owner on cell adds to the two
// accumulators.
func (e *NetEvaluator) column(cell int, owner Color) []float64 {
	H2 := 2 * e.net.H
	return e.cols[(2*cell+int(owner))*H2:][:H2]
}

// addTo adds col to acc.
func addTo(acc, col []float64) {
	col = col[:len(acc)]
	for j, w := range col {
		acc[j] += w
	}
}

// Make follows b.Make(cell): the checker now on cell enters both views.
func (e *NetEvaluator) Make(b *Board, cell int) {
	e.top++
	e.put[e.top] = int32(2*cell + int(b.At(cell)) - 1)
	e.known[e.top] = false
}

// Unmake precedes b.Unmake(cell): the checker still on cell leaves both
// views.
func (e *NetEvaluator) Unmake(*Board, int) {
	e.top--
	e.done[0] = min(e.done[0], e.top)
	e.done[1] = min(e.done[1], e.top)
}

// Evaluate returns the net's value of b for its side to move, in [-1, 1],
// from the accumulators (which must follow b).
func (e *NetEvaluator) Evaluate(b *Board) float64 {
	if e.known[e.top] {
		return e.val[e.top]
	}
	H := e.net.H
	stm := int(b.SideToMove())
	view := stm * H // view's offset in a frame and a column
	for f := e.done[stm] + 1; f <= e.top; f++ {
		src := e.acc[(2*(f-1))*H+view:][:H]
		dst := e.acc[(2*f)*H+view:][:H]
		col := e.cols[int(e.put[f])*2*H+view:][:H]
		for j := range dst {
			dst[j] = src[j] + col[j]
		}
	}
	e.done[stm] = e.top
	v := e.output(b, e.acc[2*e.top*H+view:][:H])
	e.val[e.top], e.known[e.top] = v, true
	return v
}

// output finishes the forward pass for b's side to move from its view's
// accumulator, adding the streak features (as Features computes them),
// each a weight column added when its count is not zero.
func (e *NetEvaluator) output(b *Board, acc []float64) float64 {
	net := e.net
	stm := b.SideToMove()
	pre := e.pre
	copy(pre, acc)
	inv := 1 / float64(e.n)
	for k := 2; k <= maxStreak && k < e.m; k++ {
		if c := b.Streaks(stm, k); c != 0 {
			net.AddInput(pre, k-2, float64(c)*inv)
		}
		if c := b.Streaks(stm.Other(), k); c != 0 {
			net.AddInput(pre, 6+k-2, float64(c)*inv)
		}
	}
	return net.Output(pre)
}

// Value returns the net's value of b for its side to move from b's cells
// alone, computing the side to move's accumulator only; the accumulators
// e follows are left as they were. Its arithmetic is the one training has
// always used (B1, then the cells' columns in cell order, then the streak
// features), so that training from a seed gives the same net.
func (e *NetEvaluator) Value(b *Board) float64 {
	stm := b.SideToMove()
	acc := e.pre
	copy(acc, e.net.B1)
	for cell := 0; cell < e.n*e.n; cell++ {
		if p := b.At(cell); p != Empty {
			i := int(e.cellIx[stm][cell])
			if Color(p-1) != stm {
				i++
			}
			e.net.AddInput(acc, i, 1)
		}
	}
	return e.output(b, acc)
}
