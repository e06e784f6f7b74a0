package dice

import (
	"embed"
	"fmt"
	"sync"

	"starlab/nn"
)

// nets holds the built-in nets, one file per board: nets/<n>x<n>-<m>.json.
// Each is a weight file from starlab train, kept as written (version 1,
// 5x5/4's version 2); docs/training.md says how each was trained.
//
//go:embed nets/*.json
var nets embed.FS

// parsed caches the built-in nets by file name.
var parsed sync.Map

// EmbeddedNet returns the built-in net of an n x n board with win length
// m, or an error saying there is none. The net is shared: callers must not
// change it.
func EmbeddedNet(n, m int) (*nn.Net, error) {
	name := fmt.Sprintf("nets/%dx%d-%d.json", n, n, m)
	if net, ok := parsed.Load(name); ok {
		return net.(*nn.Net), nil
	}
	data, err := nets.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no network is built in for %dx%d boards with win length %d; give net=FILE (train one with starlab train -n %d -m %d) or eval=pairs", n, n, m, n, m)
	}
	net, err := nn.Parse(data)
	if err == nil {
		err = CheckNet(net, n, m)
	}
	if err != nil {
		return nil, fmt.Errorf("built-in net %s: %v", name, err)
	}
	parsed.Store(name, net)
	return net, nil
}
