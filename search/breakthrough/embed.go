package breakthrough

import (
	"embed"
	"fmt"

	"starlab/nn"
)

// nets holds the built-in nets, one file per board: nets/<w>x<h>.json. Each
// is a weight file from starlab train, kept as written; docs/training.md
// says how each was trained.
//
//go:embed nets/*.json
var nets embed.FS

// builtin parses and checks each built-in net once.
var builtin = nn.NewBuiltin(nets)

// EmbeddedNet returns the built-in net of a w x h board, or an error
// saying there is none. The net is shared: callers must not change it.
func EmbeddedNet(w, h int) (*nn.Net, error) {
	v := Variant(w, h)
	return builtin.Load("nets/"+v+".json", func(net *nn.Net) error { return CheckNet(net, w, h) },
		func() error {
			return fmt.Errorf("no network is built in for breakthrough %s; give net=FILE (train one with starlab train -game breakthrough -variant %s) or eval=material", v, v)
		})
}
