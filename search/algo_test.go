package search

import "testing"

// TestEveryAlgorithmHasARow: every Algorithm constant has its row in the
// algorithms table, with a name that parses back to it, and no two
// algorithms use the same techniques (an algorithm whose row was left
// empty would use Expectimax's). The rows are what the algorithms'
// documentation says they add to the one before.
func TestEveryAlgorithmHasARow(t *testing.T) {
	seen := map[Techniques]Algorithm{}
	for a := Algorithm(0); a < numAlgorithms; a++ {
		if algorithms[a].name == "" {
			t.Errorf("Algorithm(%d) has no row in the algorithms table", int(a))
			continue
		}
		if b, err := ParseAlgorithm(a.String()); err != nil || b != a {
			t.Errorf("%s parses to %v, %v", a, b, err)
		}
		if b, ok := seen[a.Techniques()]; ok {
			t.Errorf("%s uses the techniques of %s: %+v", a, b, a.Techniques())
		}
		seen[a.Techniques()] = a
	}
	for a, want := range map[Algorithm]Techniques{
		Expectimax: {},
		Star1:      {Star1: true},
		Star2:      {Star1: true, Star2Probing: true},
		StarETC:    {Star1: true, Star2Probing: true, ChanceTT: true},
		CPC:        {Star1: true, Star2Probing: true, ChanceTT: true, ProbCut: true},
	} {
		if got := a.Techniques(); got != want {
			t.Errorf("%s uses %+v, want %+v", a, got, want)
		}
		if a.Sound() == want.ProbCut {
			t.Errorf("%s: Sound is %v", a, a.Sound())
		}
	}
	if (numAlgorithms).Techniques() != (Techniques{}) || Algorithm(-1).Techniques() != (Techniques{}) {
		t.Error("an Algorithm that is not a constant uses techniques")
	}
}
