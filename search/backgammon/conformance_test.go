package backgammon

import (
	"testing"

	"starlab/search/game/gametest"
)

// TestContract runs the game contract's conformance test on both
// variants: random games through the contract, every position's notation,
// moves, events and keys checked.
func TestContract(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 20
	}
	for i, v := range []string{"1pt", "money"} {
		t.Run(v, func(t *testing.T) {
			gametest.Check(t, Game{}, Description().MoveSep, v, uint64(20261125+i), games)
		})
	}
}
