package nn

import (
	"math"

	"starlab/search/dice"
)

// Evaluator is the net as a search evaluator. It keeps the first layer's
// pre-activations from the cells, B1 + W1·cells, for both sides' views (two
// accumulators, as NNUE keeps two perspectives), and updates them when one
// cell changes: a move adds one weight column to each, a take-back
// subtracts it. Evaluate adds the streak features, which the board keeps
// incrementally, to the side to move's accumulator and finishes the
// forward pass. It implements the search's Incremental evaluator; one
// belongs to one engine.
type Evaluator struct {
	net *Net
	acc [2][]float64
	pre []float64 // scratch: the hidden units' pre-activations
}

// NewEvaluator returns an evaluator of net; call Reset before Evaluate.
func (net *Net) NewEvaluator() *Evaluator {
	return &Evaluator{net: net, acc: [2][]float64{make([]float64, net.H), make([]float64, net.H)}, pre: make([]float64, net.H)}
}

// Reset computes both accumulators from b's cells.
func (e *Evaluator) Reset(b *dice.Board) {
	net := e.net
	for side := range e.acc {
		copy(e.acc[side], net.B1)
	}
	for cell := 0; cell < net.N*net.N; cell++ {
		if p := b.At(cell); p != dice.Empty {
			e.add(dice.Color(p-1), cell, 1)
		}
	}
}

// add adds sign times the weight column of a checker of owner on cell to
// both accumulators.
func (e *Evaluator) add(owner dice.Color, cell int, sign float64) {
	net := e.net
	for side := dice.Blue; side <= dice.Red; side++ {
		w := net.W1[net.cellInput(side, owner, cell)*net.H:][:net.H]
		a := e.acc[side]
		for j, wj := range w {
			a[j] += sign * wj
		}
	}
}

// Make follows b.Make(cell): the checker now on cell enters both views.
func (e *Evaluator) Make(b *dice.Board, cell int) { e.add(dice.Color(b.At(cell)-1), cell, 1) }

// Unmake precedes b.Unmake(cell): the checker still on cell leaves both
// views.
func (e *Evaluator) Unmake(b *dice.Board, cell int) { e.add(dice.Color(b.At(cell)-1), cell, -1) }

// Evaluate returns the net's value of b for its side to move, in [-1, 1],
// from the accumulators (which must follow b).
func (e *Evaluator) Evaluate(b *dice.Board) float64 {
	net := e.net
	stm := b.SideToMove()
	pre := e.pre
	copy(pre, e.acc[stm])
	// The streak features (as streaks computes them), each a weight column
	// added when its count is not zero.
	inv := 1 / float64(net.N)
	for k := 2; k <= maxStreak && k < net.M; k++ {
		if c := b.Streaks(stm, k); c != 0 {
			e.column(k-2, float64(c)*inv)
		}
		if c := b.Streaks(stm.Other(), k); c != 0 {
			e.column(6+k-2, float64(c)*inv)
		}
	}
	out := net.B2
	for j, a := range pre {
		out += net.W2[j] * Act(a)
	}
	return math.Tanh(out)
}

// column adds x times input i's weights to the pre-activations.
func (e *Evaluator) column(i int, x float64) {
	pre := e.pre
	w := e.net.W1[i*e.net.H:][:len(pre)]
	for j, wj := range w {
		pre[j] += wj * x
	}
}

// Value returns the net's value of b for its side to move without
// accumulators kept in step: Reset, then Evaluate.
func (e *Evaluator) Value(b *dice.Board) float64 {
	e.Reset(b)
	return e.Evaluate(b)
}
