package gametest

import "starlab/search/game"

// Value is the exact depth-limited value of s from its mover's view,
// game.Expectimax's: the oracle every engine must reproduce with its
// table off. It is exponential in depth: an oracle for small trees.
func Value(s game.State, depth int, countsChance bool, eval func(game.State) float64) float64 {
	return game.Expectimax(s, depth, countsChance, eval, nil)
}
