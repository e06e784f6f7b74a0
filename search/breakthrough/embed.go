package breakthrough

import (
	"embed"
	"fmt"
	"sync"

	"starlab/nn"
)

// nets holds the built-in nets, one file per board: nets/<w>x<h>.json. Each
// is a weight file from starlab train, kept as written; docs/training.md
// says how each was trained.
//
//go:embed nets/*.json
var nets embed.FS

// parsed caches the built-in nets by file name.
var parsed sync.Map

// EmbeddedNet returns the built-in net of a w x h board, or an error
// saying there is none. The net is shared: callers must not change it.
func EmbeddedNet(w, h int) (*nn.Net, error) {
	name := "nets/" + Variant(w, h) + ".json"
	if net, ok := parsed.Load(name); ok {
		return net.(*nn.Net), nil
	}
	data, err := nets.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no network is built in for breakthrough %s; give net=FILE (train one with starlab train -game breakthrough -variant %s) or eval=material", Variant(w, h), Variant(w, h))
	}
	net, err := nn.Parse(data)
	if err == nil {
		err = CheckNet(net, w, h)
	}
	if err != nil {
		return nil, fmt.Errorf("built-in net %s: %v", name, err)
	}
	parsed.Store(name, net)
	return net, nil
}
