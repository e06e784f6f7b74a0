package backgammon

import (
	"fmt"

	"starlab/nn"
	"starlab/search"
)

// EmbeddedNet returns the built-in net of variant v, or an error saying
// there is none.
func EmbeddedNet(v Variant) (*nn.Net, error) {
	return nil, fmt.Errorf("no network is built in for backgammon %s; give net=FILE (train one with starlab train -game backgammon) or eval=contact", v)
}

// BuiltinFit returns the built-in ChanceProbCut fit of a variant, nil
// when there is none.
func BuiltinFit(variant string) *search.ProbCutParams { return nil }
