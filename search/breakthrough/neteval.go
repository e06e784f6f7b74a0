package breakthrough

import (
	"math/bits"
	"slices"

	"starlab/nn"
)

// NetPlies bounds the moves and events an evaluator follows from a Reset
// without taking them back: the depth of its stack of accumulators. A
// search follows at most one per ply from its root.
const NetPlies = 256

// NetEvaluator is a ChanceBreakthrough net as a search evaluator. It keeps
// the first layer's pre-activations from the pieces, B1 + W1·pieces, for
// both sides' views (two accumulators, as NNUE keeps two perspectives), in
// a stack with one frame per move or event followed: a move or an event
// copies the frame and adds or subtracts the weight columns of the squares
// whose pieces changed (a piece leaves a square and enters another, a
// capture or the dice remove one), found by comparing the pieces with the
// frame's; a take-back drops the frame, restoring the accumulators exactly,
// as a Board's take-back copies its position back. Evaluate finishes the
// forward pass for the side to move (nn.Net.Output), adding the pending
// roll's input at a chance node. One belongs to one engine.
type NetEvaluator struct {
	net  *nn.Net
	w, h int
	top  int // the frame of the position followed
	// acc holds the frames, allocated by the first Reset: frame f's
	// accumulator of view v is acc[(2f+v)*H:][:H].
	acc  []float64
	seen [NetPlies + 1][2]uint64 // each frame's pieces
	pre  []float64               // scratch: the hidden units' pre-activations
	// in[view][owner][sq] is the input a piece of owner on sq sets seen by
	// view (pieceInput); pending the pending roll's.
	in      [2][2][MaxSquares]int32
	pending int
}

// NewNetEvaluator returns an evaluator of net for the boards of its
// variant, or the error of NetSize when net is not a ChanceBreakthrough
// net; call Reset before Evaluate.
func NewNetEvaluator(net *nn.Net) (*NetEvaluator, error) {
	w, h, err := NetSize(net)
	if err != nil {
		return nil, err
	}
	e := &NetEvaluator{net: net, w: w, h: h, pre: make([]float64, net.H), pending: pendingInput(w, h)}
	for sq := range MaxSquares {
		if sq>>3 >= h || sq&7 >= w {
			continue
		}
		for view := range 2 {
			for owner := range 2 {
				e.in[view][owner][sq] = int32(pieceInput(w, h, view, owner, sq))
			}
		}
	}
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

// frame returns view's accumulator in frame f.
func (e *NetEvaluator) frame(f, view int) []float64 {
	H := e.net.H
	return e.acc[(2*f+view)*H:][:H]
}

// Reset computes both accumulators from b's pieces, as the stack's only
// frame.
func (e *NetEvaluator) Reset(b *Board) {
	if e.acc == nil {
		e.acc = make([]float64, 2*(NetPlies+1)*e.net.H)
	}
	e.top = 0
	e.seen[0] = b.pieces
	for view := range 2 {
		copy(e.frame(0, view), e.net.B1)
	}
	for c := range 2 {
		for p := b.pieces[c]; p != 0; p &= p - 1 {
			e.add(0, c, bits.TrailingZeros64(p), 1)
		}
	}
}

// add adds sign times the weight column of a piece of owner on sq to
// both views' accumulators of frame f.
func (e *NetEvaluator) add(f, owner, sq int, sign float64) {
	for view := range 2 {
		e.net.AddInput(e.frame(f, view), int(e.in[view][owner][sq]), sign)
	}
}

// push follows b, whose pieces may differ from the top frame's by a move
// or an event: a new frame, the top one with the changed squares' weight
// columns subtracted (a piece gone) or added (a piece come).
func (e *NetEvaluator) push(b *Board) {
	f := e.top + 1
	old, cur := e.seen[e.top], b.pieces
	H := e.net.H
	copy(e.acc[2*f*H:][:2*H], e.acc[2*e.top*H:][:2*H])
	for c := range 2 {
		for gone := old[c] &^ cur[c]; gone != 0; gone &= gone - 1 {
			e.add(f, c, bits.TrailingZeros64(gone), -1)
		}
		for came := cur[c] &^ old[c]; came != 0; came &= came - 1 {
			e.add(f, c, bits.TrailingZeros64(came), 1)
		}
	}
	e.seen[f] = cur
	e.top = f
}

// Make follows b.MakeSaving(m, u): b has its move made (a roll changes no
// piece, and gets a frame all the same, which its take-back drops).
func (e *NetEvaluator) Make(b *Board, _ int) { e.push(b) }

// Unmake takes back the last Make, before or after b's take-back.
func (e *NetEvaluator) Unmake(*Board, int) { e.top-- }

// Happen follows b.HappenSaving(ev, u): b has the event's piece removed.
func (e *NetEvaluator) Happen(b *Board, _ int) { e.push(b) }

// Unhappen takes back the last Happen, before or after b's take-back.
func (e *NetEvaluator) Unhappen(*Board, int) { e.top-- }

// Evaluate returns the net's value of b for its side to move, in [-1, 1],
// from the accumulators (which must follow b).
func (e *NetEvaluator) Evaluate(b *Board) float64 {
	acc := e.frame(e.top, int(b.stm))
	if !b.pending {
		return e.net.Output(acc)
	}
	copy(e.pre, acc)
	e.net.AddInput(e.pre, e.pending, 1)
	return e.net.Output(e.pre)
}

// Value returns the net's value of b for its side to move from b's pieces
// alone, computing the side to move's accumulator only; the accumulators
// e follows are left as they were.
func (e *NetEvaluator) Value(b *Board) float64 {
	pre := e.pre
	copy(pre, e.net.B1)
	stm := int(b.stm)
	for c := range 2 {
		for p := b.pieces[c]; p != 0; p &= p - 1 {
			e.net.AddInput(pre, int(e.in[stm][c][bits.TrailingZeros64(p)]), 1)
		}
	}
	if b.pending {
		e.net.AddInput(pre, e.pending, 1)
	}
	return e.net.Output(pre)
}
