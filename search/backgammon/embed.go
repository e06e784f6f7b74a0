package backgammon

import (
	"embed"
	"fmt"
	"sync"

	"starlab/nn"
	"starlab/search"
)

// nets holds the built-in nets, one file per variant: nets/<variant>.json,
// each a weight file from starlab train kept as written; docs/backgammon.md
// says how each was trained.
//
//go:embed nets/*.json
var nets embed.FS

// parsed caches the built-in nets by variant.
var parsed sync.Map

// EmbeddedNet returns the built-in net of variant v, or an error saying
// there is none. The net is shared: callers must not change it.
func EmbeddedNet(v Variant) (*nn.Net, error) {
	if net, ok := parsed.Load(v); ok {
		return net.(*nn.Net), nil
	}
	name := "nets/" + v.String() + ".json"
	data, err := nets.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no network is built in for backgammon %s; give net=FILE (train one with starlab train -game backgammon -variant %s) or eval=contact", v, v)
	}
	net, err := nn.Parse(data)
	if err == nil {
		err = CheckNet(net, v)
	}
	if err != nil {
		return nil, fmt.Errorf("built-in net %s: %v", name, err)
	}
	parsed.Store(v, net)
	return net, nil
}

// BuiltinFit returns the built-in ChanceProbCut fit of a variant, nil
// when there is none.
func BuiltinFit(variant string) *search.ProbCutParams { return nil }
