package dice

import (
	"testing"

	"starlab/search/game/gametest"
)

// TestContract runs the game contract's conformance test on small, default
// and larger variants.
func TestContract(t *testing.T) {
	games := 300
	if testing.Short() || raceEnabled {
		games = 60
	}
	for i, v := range []string{"3x3-3", "3x3-2", "5x5-4", "7x7-5", "9x9-6"} {
		t.Run(v, func(t *testing.T) {
			gametest.Check(t, Game{}, Description().MoveSep, v, uint64(20260801+i), games)
		})
	}
}
