package backgammon

import (
	"testing"

	rules "starlab/search/backgammon"
	"starlab/search/engine/enginetest"
	"starlab/search/game"
)

// smallPositions are bear-offs and short races with a few checkers a
// side, before and after the roll, whose exact depth-limited values reach
// depth 5.
func smallPositions(t *testing.T, v rules.Variant) []game.State {
	sides := []struct{ me, opp rules.Points }{
		{rules.Points{1: 1, 2: 1, rules.Off: 13}, rules.Points{3: 1, 5: 1, rules.Off: 13}},
		{rules.Points{6: 2, rules.Off: 13}, rules.Points{1: 1, 4: 1, rules.Off: 13}},
		{rules.Points{2: 1, 6: 1, 5: 1, rules.Off: 12}, rules.Points{4: 2, rules.Off: 13}},
		{rules.Points{9: 1, 3: 1, rules.Off: 13}, rules.Points{8: 1, 2: 1, rules.Off: 13}},
		{rules.Points{12: 1, rules.Off: 14}, rules.Points{5: 1, 6: 1, rules.Off: 13}},
		// Contact: a blot to hit, a checker on the bar.
		{rules.Points{20: 1, 3: 1, rules.Off: 13}, rules.Points{10: 1, 1: 1, rules.Off: 13}},
		{rules.Points{rules.Bar: 1, 2: 1, rules.Off: 13}, rules.Points{6: 1, 19: 1, rules.Off: 13}},
	}
	var ps []game.State
	for i, s := range sides {
		for _, dice := range [][2]int{{0, 0}, {3, 1}, {4, 4}, {6, 5}} {
			b, err := rules.NewBoard(v, i%2, s.me, s.opp, dice[0], dice[1])
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, b)
		}
	}
	return ps
}

// TestSmallPositionsExact holds expectimax, Star1, Star2 and StarETC to
// the exact depth-limited value of gametest.Value with the table off, to
// 1e-9, at depths 1 to 5, on both variants, with the hand evaluators and
// zero.
func TestSmallPositionsExact(t *testing.T) {
	leaves := 400000
	if testing.Short() {
		leaves = 40000
	}
	for _, v := range []rules.Variant{rules.OnePoint, rules.Money} {
		enginetest.Check(t, Game(), enginetest.Options{
			Variant:  v.String(),
			States:   smallPositions(t, v),
			Evals:    []string{"zero", "contact", "race"},
			Leaves:   leaves,
			MaxDepth: 5,
		})
	}
}
