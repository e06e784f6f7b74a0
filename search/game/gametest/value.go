package gametest

import (
	"math"

	"starlab/search/game"
)

// Value is the exact depth-limited value of s from its mover's view, by
// the plain recursion over the contract that every engine must reproduce
// with its table off: a state that is over has its result; a decision of
// depth 0 has eval's value, else the best over its moves of the negated
// value of the move's child at depth-1; a chance node has the weighted
// mean of its events' children (not negated: a chance node's value is
// from the view of the side that moves after the event), at depth-1 where
// the game counts chance nodes as plies (and eval's value at depth 0),
// at depth itself where it does not. It is exponential in depth: an
// oracle for small trees.
func Value(s game.State, depth int, countsChance bool, eval func(game.State) float64) float64 {
	switch s.Kind() {
	case game.Over:
		return s.Result()
	case game.Chance:
		d := depth
		if countsChance {
			if depth == 0 {
				return eval(s)
			}
			d--
		}
		events, total := s.Outcomes(nil)
		sum := 0.0
		for _, e := range events {
			c := s.Clone()
			c.Happen(e)
			sum += float64(e.Weight) * Value(c, d, countsChance, eval)
		}
		return sum / float64(total)
	}
	if depth == 0 {
		return eval(s)
	}
	best := math.Inf(-1)
	for _, m := range s.Legal(nil) {
		c := s.Clone()
		c.Play(m)
		best = max(best, -Value(c, depth-1, countsChance, eval))
	}
	return best
}
