package toy

import (
	_ "embed"

	"starlab/search"
)

// defaultSuite is the text of the default suite (search.Defaults).
//
//go:embed suites/toy6.suite
var defaultSuite string

// Description is the toy as the stages know it beyond its rules (Game)
// and its engine (package search/engine/toy joins the three). It has no
// built-in net, so its engines evaluate with its hand evaluator, race (the
// lead), unless a spec names eval=mlp with net=FILE (a net starlab train
// -game toy made).
func Description() search.Description {
	return search.Description{
		Sides:        [2]string{"side 0", "side 1"},
		MoveSep:      " ",
		RulesVersion: 1,
		Notation:     "position",
		HandEval:     "race",
		DefaultEval:  "race",
		Defaults: search.Defaults{
			Suite:         "search/game/toy/suites/toy6.suite",
			SuiteText:     defaultSuite,
			BenchDepths:   []int{4, 6, 8},
			TuneDepths:    []int{6},
			CollectPairs:  [][2]int{{1, 3}, {2, 4}},
			CollectPhases: [2]int{1, 8},
			// A race to 6 has a few dozen positions of each phase range
			// to draw.
			SampleCount: 20,
			GenPhases:   [2]int{1, 8},
		},
		// Two steps and a jump reach the same counters.
		DepthTranspositions: true,
		Net:                 netKit,
		ChanceNode:          search.ChanceAfterRoll(Roll),
	}
}
