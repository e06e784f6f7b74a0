package nn

import (
	"embed"
	"fmt"
	"sync"

	"starlab/search/dice"
)

// nets holds the built-in nets, one file per board: nets/<n>x<n>-<m>.json.
// Each is a weight file from starlab train; the README says how each was
// trained.
//
//go:embed nets/*.json
var nets embed.FS

// parsed caches the built-in nets by file name.
var parsed sync.Map

// Embedded returns the built-in net of an n x n board with win length m,
// or an error saying there is none. The net is shared: callers must not
// change it.
func Embedded(n, m int) (*Net, error) {
	name := fmt.Sprintf("nets/%dx%d-%d.json", n, n, m)
	if net, ok := parsed.Load(name); ok {
		return net.(*Net), nil
	}
	data, err := nets.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no network is built in for %dx%d boards with win length %d; give net=FILE (train one with starlab train -n %d -m %d) or eval=pairs", n, n, m, n, m)
	}
	net, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("built-in net %s: %v", name, err)
	}
	parsed.Store(name, net)
	return net, nil
}

// DefaultEvaluator evaluates with the built-in net of each board size it
// meets, chosen at Reset. Callers check first (Embedded) that the sizes
// they will search have one.
type DefaultEvaluator struct {
	cur    *Evaluator
	bySize map[[2]int]*Evaluator
}

// NewDefaultEvaluator returns an evaluator of the built-in nets.
func NewDefaultEvaluator() *DefaultEvaluator {
	return &DefaultEvaluator{bySize: map[[2]int]*Evaluator{}}
}

// Reset selects the net of b's size and follows b.
func (d *DefaultEvaluator) Reset(b *dice.Board) {
	key := [2]int{b.N(), b.M()}
	if d.cur == nil || d.cur.net.N != key[0] || d.cur.net.M != key[1] {
		ev, ok := d.bySize[key]
		if !ok {
			net, err := Embedded(key[0], key[1])
			if err != nil {
				panic(err) // the caller's check (Embedded) was skipped
			}
			ev = net.NewEvaluator()
			d.bySize[key] = ev
		}
		d.cur = ev
	}
	d.cur.Reset(b)
}

// Make follows b.Make(cell).
func (d *DefaultEvaluator) Make(b *dice.Board, cell int) { d.cur.Make(b, cell) }

// Unmake precedes b.Unmake(cell).
func (d *DefaultEvaluator) Unmake(b *dice.Board, cell int) { d.cur.Unmake(b, cell) }

// Evaluate returns the value of b for its side to move.
func (d *DefaultEvaluator) Evaluate(b *dice.Board) float64 { return d.cur.Evaluate(b) }
