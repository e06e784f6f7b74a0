package game

import "math"

// Expectimax is the exact depth-limited value of s from its mover's view,
// by the plain recursion over the contract that every engine must
// reproduce with its table off: a state that is over has its result; a
// decision of depth 0 has eval's value, else the best over its moves of
// the value of the move's child at depth-1; a chance node has the
// weighted mean of its events' children, at depth-1 where the game counts
// chance nodes as plies (and eval's value at depth 0), at depth itself
// where it does not. Values follow the mover: a child's value is negated
// where its Mover is not the parent's, on a move's edge and an event's
// alike. It is exponential in depth.
//
// With visit not nil, every state whose value the recursion computes
// from below it (neither over nor valued by eval) is passed to visit with
// that value, children before their parent; afterMove says whether the
// state is s itself or a move's child, and not an event's.
func Expectimax(s State, depth int, countsChance bool, eval func(State) float64, visit func(s State, v float64, afterMove bool)) float64 {
	return expectimax(s, depth, countsChance, eval, visit, true)
}

func expectimax(s State, depth int, countsChance bool, eval func(State) float64, visit func(State, float64, bool), afterMove bool) float64 {
	var v float64
	switch s.Kind() {
	case Over:
		return s.Result()
	case Chance:
		d := depth
		if countsChance {
			if depth == 0 {
				return eval(s)
			}
			d--
		}
		events, total := s.Outcomes(nil)
		for _, e := range events {
			c := s.Clone()
			c.Happen(e)
			v += float64(e.Weight) * fromView(s, c, expectimax(c, d, countsChance, eval, visit, false))
		}
		v /= float64(total)
	default:
		if depth == 0 {
			return eval(s)
		}
		v = math.Inf(-1)
		for _, m := range s.Legal(nil) {
			c := s.Clone()
			c.Play(m)
			v = max(v, fromView(s, c, expectimax(c, depth-1, countsChance, eval, visit, true)))
		}
	}
	if visit != nil {
		visit(s, v, afterMove)
	}
	return v
}

// fromView returns v, the value of parent's child c from c's mover's
// view, from parent's mover's view.
func fromView(parent, c State, v float64) float64 {
	if c.Mover() != parent.Mover() {
		return -v
	}
	return v
}
