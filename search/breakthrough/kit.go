package breakthrough

import (
	_ "embed"

	"starlab/search"
)

// defaultSuite is the text of the default suite (search.Defaults).
//
//go:embed suites/breakthrough8x8-measure.suite
var defaultSuite string

// Description is ChanceBreakthrough as the stages know it beyond its
// rules (Game) and its engine (package search/engine/breakthrough joins
// the three).
func Description() search.Description {
	return search.Description{
		Sides:        colorNames,
		MoveSep:      " ",
		RulesVersion: 1,
		Notation:     "position",
		HandEval:     "material", // the chapter's, Board.Evaluate
		DefaultEval:  "mlp",
		// The suites and settings of the chapter's measurements on 8x8
		// (docs/reproducing.md: ChanceBreakthrough, the chapter's section
		// 5.6.3); bench's depths are the shallow ones, which every
		// algorithm reaches in seconds.
		Defaults: search.Defaults{
			Suite:         "search/breakthrough/suites/breakthrough8x8-measure.suite",
			SuiteText:     defaultSuite,
			BenchDepths:   []int{1, 2, 3},
			TuneDepths:    []int{5},
			CollectPairs:  [][2]int{{1, 3}, {2, 4}, {3, 5}},
			CollectPhases: [2]int{10, 31},
		},
		// A roll onto an empty square is a pass: two of them return to the
		// same board and side two decisions deeper.
		DepthTranspositions: true,
		Chapter:             Chapter,
		Fit:                 BuiltinFit,
		Net:                 netKit,
		ChanceNode:          search.ChanceAfterRoll(Roll),
	}
}
