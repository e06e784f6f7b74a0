package backgammon

import (
	"embed"
	"fmt"

	"starlab/nn"
	"starlab/search"
)

// nets holds the built-in nets, one file per variant: nets/<variant>.json,
// each a weight file from starlab train kept as written; docs/backgammon.md
// says how each was trained.
//
//go:embed nets/*.json
var nets embed.FS

// builtin parses and checks each built-in net once.
var builtin = nn.NewBuiltin(nets)

// EmbeddedNet returns the built-in net of variant v, or an error saying
// there is none. The net is shared: callers must not change it.
func EmbeddedNet(v Variant) (*nn.Net, error) {
	return builtin.Load("nets/"+v.String()+".json", func(net *nn.Net) error { return CheckNet(net, v) },
		func() error {
			return fmt.Errorf("no network is built in for backgammon %s; give net=FILE (train one with starlab train -game backgammon -variant %s) or eval=contact", v, v)
		})
}

// BuiltinFit returns the built-in ChanceProbCut fit of a variant, nil
// when there is none.
func BuiltinFit(variant string) *search.ProbCutParams { return nil }
