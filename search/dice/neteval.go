package dice

import "starlab/nn"

// NetEvaluator is a Dice net as a search evaluator. It keeps the first
// layer's pre-activations from the cells, B1 + W1·cells, for both sides'
// views (two accumulators, as NNUE keeps two perspectives), and updates
// them when one cell changes: a move adds one weight column to each, a
// take-back subtracts it (nn.Net.AddInput). Evaluate adds the streak
// features, which the board keeps incrementally, to the side to move's
// accumulator and finishes the forward pass (nn.Net.Output). It implements
// the search's Incremental evaluator; one belongs to one engine.
type NetEvaluator struct {
	net    *nn.Net
	n, m   int
	acc    [2][]float64
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
	e := &NetEvaluator{net: net, n: n, m: m, acc: [2][]float64{make([]float64, net.H), make([]float64, net.H)}, pre: make([]float64, net.H)}
	for cell := 0; cell < n*n; cell++ {
		for side := Blue; side <= Red; side++ {
			e.cellIx[side][cell] = int32(cellInput(n, side, side, cell))
		}
	}
	return e, nil
}

// Clone returns an evaluator of the same net with accumulators of its
// own, equal to e's: one per engine or worker, without checking the net
// again.
func (e *NetEvaluator) Clone() *NetEvaluator {
	c := *e
	c.acc = [2][]float64{append([]float64(nil), e.acc[0]...), append([]float64(nil), e.acc[1]...)}
	c.pre = make([]float64, len(e.pre))
	return &c
}

// Reset computes both accumulators from b's cells.
func (e *NetEvaluator) Reset(b *Board) {
	for side := range e.acc {
		copy(e.acc[side], e.net.B1)
	}
	for cell := 0; cell < e.n*e.n; cell++ {
		if p := b.At(cell); p != Empty {
			e.add(Color(p-1), cell, 1)
		}
	}
}

// add adds sign times the weight column of a checker of owner on cell to
// both accumulators.
func (e *NetEvaluator) add(owner Color, cell int, sign float64) {
	for side := Blue; side <= Red; side++ {
		i := int(e.cellIx[side][cell])
		if owner != side {
			i++
		}
		e.net.AddInput(e.acc[side], i, sign)
	}
}

// Make follows b.Make(cell): the checker now on cell enters both views.
func (e *NetEvaluator) Make(b *Board, cell int) { e.add(Color(b.At(cell)-1), cell, 1) }

// Unmake precedes b.Unmake(cell): the checker still on cell leaves both
// views.
func (e *NetEvaluator) Unmake(b *Board, cell int) { e.add(Color(b.At(cell)-1), cell, -1) }

// Evaluate returns the net's value of b for its side to move, in [-1, 1],
// from the accumulators (which must follow b).
func (e *NetEvaluator) Evaluate(b *Board) float64 {
	net := e.net
	stm := b.SideToMove()
	pre := e.pre
	copy(pre, e.acc[stm])
	// The streak features (as Features computes them), each a weight
	// column added when its count is not zero.
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

// Value returns the net's value of b for its side to move without
// accumulators kept in step: Reset, then Evaluate.
func (e *NetEvaluator) Value(b *Board) float64 {
	e.Reset(b)
	return e.Evaluate(b)
}
