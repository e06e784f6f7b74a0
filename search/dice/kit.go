package dice

import (
	_ "embed"

	"starlab/search"
)

// defaultSuite is the text of the default suite (search.Defaults).
//
//go:embed suites/dice5x5-4.suite
var defaultSuite string

// Description is Dice as the stages know it beyond its rules (Game) and
// its engine (package search/engine/dice joins the three).
func Description() search.Description {
	return search.Description{
		Sides:        [2]string{Blue.Name(), Red.Name()},
		MoveSep:      " ",
		RulesVersion: 1,
		Notation:     "DPN",
		HandEval:     "pairs",
		DefaultEval:  "mlp",
		// The thesis's bench (depths 9, 11, 13 on the committed 5x5/4
		// suite), the chapter's tune depths (tables 5.6 to 5.8) and its
		// collect (pairs 3:7 and 5:9 over positions of 5 to 12 checkers).
		Defaults: search.Defaults{
			Suite:         "search/dice/suites/dice5x5-4.suite",
			SuiteText:     defaultSuite,
			BenchDepths:   []int{9, 11, 13},
			TuneDepths:    []int{9, 11, 13},
			CollectPairs:  [][2]int{{3, 7}, {5, 9}},
			CollectPhases: [2]int{5, 12},
		},
		SizedVariant: func(n, m int) (string, error) {
			_, err := New(n, m)
			return Variant(n, m), err
		},
		Chapter:    Chapter,
		Fit:        BuiltinFit,
		Net:        netKit,
		RollFirst:  true,
		ChanceNode: chanceNode,
	}
}
