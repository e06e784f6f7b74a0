package selfplay

import "starlab/search/game"

// chanceBefore is what a state offers that can be taken back to the chance
// node before it: a Dice position after the roll (the roll taken back).
type chanceBefore interface{ ClearRoll() }

// beforeChance returns a match's start for a suite position: a decision
// that can be taken back to the chance node before it (a Dice position
// after the roll) starts there, so that the pair's chance stream draws
// that event too; any other position starts as it is.
func beforeChance(st game.State) game.State {
	if c, ok := st.(chanceBefore); ok && st.Kind() == game.Decision {
		c.ClearRoll()
	}
	return st
}
