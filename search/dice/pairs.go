package dice

// Pairs is Hauk's pair-count heuristic (Hauk 2004, as quoted in Veness 2006,
// section 4.2.2): pairs of the side to move minus pairs of the opponent,
// where a pair is two same-colour checkers adjacent on a line or separated
// by one empty cell. The difference x is squashed into (-1, 1) by
// Scale*x / (1 + |Scale*x|), which stays strictly inside the bounds for any
// finite count, as the Star algorithms require.
type Pairs struct {
	Scale float64 // steepness of the squash; DefaultPairsScale if zero
}

// DefaultPairsScale is the squash steepness of the pairs evaluator: a
// two-pair lead scores 0.23, a five-pair lead 0.43.
const DefaultPairsScale = 0.15

// Evaluate returns the squashed pair difference for the side to move.
func (p Pairs) Evaluate(b *Board) float64 {
	s := p.Scale
	if s == 0 {
		s = DefaultPairsScale
	}
	stm := b.SideToMove()
	x := s * float64(b.Pairs(stm)-b.Pairs(stm.Other()))
	if x < 0 {
		return x / (1 - x)
	}
	return x / (1 + x)
}
