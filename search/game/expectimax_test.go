package game_test

import (
	"math"
	"testing"

	"starlab/search/game"
	"starlab/search/game/toy"
)

// TestExpectimaxVisits: the visitor sees more than the root, the root
// last (as after a move) with the value Expectimax returns, and the value
// is the same without a visitor.
func TestExpectimaxVisits(t *testing.T) {
	b, err := toy.New(6)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(game.State) float64 { return 0.125 }
	var vals []float64
	var after []bool
	v := game.Expectimax(b, 3, false, eval, func(_ game.State, v float64, afterMove bool) {
		vals, after = append(vals, v), append(after, afterMove)
	})
	if len(vals) < 2 || vals[len(vals)-1] != v || !after[len(after)-1] {
		t.Fatalf("%d visits; the last %v (after a move %v), the root's value %v", len(vals), vals[len(vals)-1], after[len(after)-1], v)
	}
	if w := game.Expectimax(b, 3, false, eval, nil); w != v || math.IsNaN(v) {
		t.Fatalf("without a visitor %v, with %v", w, v)
	}
}
