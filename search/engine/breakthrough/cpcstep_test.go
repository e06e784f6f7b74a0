package breakthrough

import (
	"testing"

	"starlab/search"
)

// TestCPCStep checks which chance-node depths get a ChanceProbCut model:
// every depth of [cpcmin, cpcmax] that has a pair of reduction r, and
// with cpcstep=2 every other one from cpcmin, the chapter's d in {3, 5}.
func TestCPCStep(t *testing.T) {
	params := &search.ProbCutParams{Pairs: []search.DepthPair{
		{Shallow: 1, Deep: 3, A: 1, Sigma: 0.1},
		{Shallow: 2, Deep: 4, A: 1, Sigma: 0.1},
		{Shallow: 3, Deep: 5, A: 1, Sigma: 0.1},
	}}
	for _, tc := range []struct {
		spec string
		want []int
	}{
		{"cpc:depth=5,multi=0,r=2,cpcmin=3,cpcmax=5", []int{3, 4, 5}},
		{"cpc:depth=5,multi=0,r=2,cpcmin=3,cpcmax=5,cpcstep=2", []int{3, 5}},
		{"cpc:depth=5,multi=0,r=2,cpcmin=3,cpcmax=5,cpcstep=1", []int{3, 4, 5}},
		{"cpc:depth=5,multi=0,r=2,cpcmin=4,cpcstep=2", []int{4}},
	} {
		c, err := search.ParseSpec(tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		e := New(c.Config.MustResolve())
		e.setModels(params)
		var got []int
		for d, ms := range e.cpc {
			if len(ms) > 0 {
				got = append(got, d)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: models at depths %v, want %v", tc.spec, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: models at depths %v, want %v", tc.spec, got, tc.want)
				break
			}
		}
	}
}
