package breakthrough

import "math/bits"

// The material evaluator's weights (Schadd, Winands and Uiterwijk 2009,
// section 5.5.4): points per piece, per row of advance, and the scale the
// points are divided by, the chapter's bound of [-1500, 1500].
const (
	PiecePoints   = 200
	AdvancePoints = 50
	MaterialScale = 1500
)

// Evaluate is the material evaluator from the side to move's view:
// 200*(own pieces - opponent pieces) + 50*(own advance - opponent
// advance), divided by 1,500 and clamped to [-1, 1] (the chapter's
// evaluation without its random term: duplicate dice decorrelate
// self-play games instead). At a chance node the side to move is the one
// that moves after the event.
func (b *Board) Evaluate() float64 {
	c, o := int(b.stm), 1-int(b.stm)
	x := PiecePoints*(bits.OnesCount64(b.pieces[c])-bits.OnesCount64(b.pieces[o])) +
		AdvancePoints*(b.Advance(c)-b.Advance(o))
	return min(max(float64(x)/MaterialScale, -1), 1)
}
