package backgammon

import (
	_ "embed"

	"starlab/search"
)

// defaultSuite is the text of the default suite (search.Defaults).
//
//go:embed suites/backgammon.suite
var defaultSuite string

// Description is backgammon as the stages know it beyond its rules (Game)
// and its engine (package search/engine/backgammon joins the three).
func Description() search.Description {
	return search.Description{
		Sides:        [2]string{string(SideLetters[0]), string(SideLetters[1])}, // gnubg's O and X
		MoveSep:      ", ",                                                      // a play is several words ("8/5 6/5")
		RulesVersion: 1,
		Notation:     "position",
		HandEval:     HandNames[HandContact],
		OtherEvals:   []string{HandNames[HandRace]},
		DefaultEval:  defaultEval(),
		LuckEval:     luckEval,
		ForPoints:    isMoney,
		Defaults: search.Defaults{
			Suite:         "search/backgammon/suites/backgammon.suite",
			SuiteText:     defaultSuite,
			BenchDepths:   []int{1, 3, 5},
			TuneDepths:    []int{5},
			CollectPairs:  [][2]int{{1, 3}, {3, 5}},
			CollectPhases: [2]int{10, 40},
			SampleCount:   200,
			LuckDepth:     1,
			GenPhases:     [2]int{10, 40},
		},
		// One search meets a position at several depths: a double against
		// two other rolls, two empty plays, a hit sending checkers back.
		DepthTranspositions: true,
		Fit:                 BuiltinFit,
		Net:                 netKit,
		RollFirst:           true,
		ChanceNode:          chanceNode,
		Export:              &exporter,
		ValueScale:          valueScale,
	}
}
