package pig

import (
	_ "embed"

	"starlab/search"
)

// defaultSuite is the text of the default suite (search.Defaults).
//
//go:embed suites/pig100.suite
var defaultSuite string

// Description is Pig as the stages know it beyond its rules (Game) and
// its engine (package search/engine/pig joins the three). It has no
// built-in net, so its engines evaluate with its hand evaluator, lead,
// unless a spec names eval=mlp with net=FILE (a net starlab train -game
// pig made).
func Description() search.Description {
	return search.Description{
		Sides:        [2]string{"side 0", "side 1"},
		MoveSep:      " ",
		RulesVersion: 1,
		Notation:     "position",
		HandEval:     "lead",
		DefaultEval:  "lead",
		Defaults: search.Defaults{
			Suite:        "search/pig/suites/pig100.suite",
			SuiteText:    defaultSuite,
			BenchDepths:  []int{8, 12, 16},
			TuneDepths:   []int{12},
			CollectPairs: [][2]int{{2, 6}, {4, 8}},
			// Collect and gen sample positions of every stage of a race
			// to 100.
			CollectPhases: [2]int{0, 150},
			SampleCount:   20,
			GenPhases:     [2]int{0, 150},
		},
		// A hold with nothing, or two turns that bank alike, reach a
		// position again at another depth.
		DepthTranspositions: true,
		Net:                 netKit,
		ChanceNode:          search.ChanceAfterRoll(Roll),
	}
}
