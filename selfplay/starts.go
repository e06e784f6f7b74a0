package selfplay

import (
	"starlab/search"
	"starlab/search/game"
)

// beforeChance returns a match's start for a suite position: in a game
// whose decisions' chance event comes before them and can be taken back
// (search.Description.RollFirst: a Dice position after the roll) a
// decision starts at the chance node before it, so that the pair's
// chance stream draws that event too; any other position starts as it
// is.
func beforeChance(g search.Kit, st game.State) game.State {
	if g.RollFirst {
		if c, ok := g.ChanceNode(st); ok {
			return c
		}
	}
	return st
}
