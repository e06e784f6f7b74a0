package dice

import (
	"embed"
	"fmt"

	"starlab/nn"
)

// nets holds the built-in nets, one file per board: nets/<n>x<n>-<m>.json.
// Each is a weight file from starlab train, kept as written (version 1,
// 5x5/4's version 2); docs/training.md says how each was trained.
//
//go:embed nets/*.json
var nets embed.FS

// builtin parses and checks each built-in net once.
var builtin = nn.NewBuiltin(nets)

// EmbeddedNet returns the built-in net of an n x n board with win length
// m, or an error saying there is none. The net is shared: callers must not
// change it.
func EmbeddedNet(n, m int) (*nn.Net, error) {
	return builtin.Load(fmt.Sprintf("nets/%dx%d-%d.json", n, n, m), func(net *nn.Net) error { return CheckNet(net, n, m) },
		func() error {
			return fmt.Errorf("no network is built in for %dx%d boards with win length %d; give net=FILE (train one with starlab train -n %d -m %d) or eval=pairs", n, n, m, n, m)
		})
}
