package backgammon

import (
	"fmt"
	"math/rand/v2"

	"starlab/nn"
)

// NetGame is the game a backgammon net's weight file names.
const NetGame = "backgammon"

// The inputs of a backgammon net, from the side to move's view (the side
// on roll, before or after its roll: the dice are not inputs): for the side
// to move, then the other, four units for each of its 24 points and its
// bar, as gnubg encodes a count n (1: 1000, 2: 0100, 3: 0010, n >= 4:
// 0 0 1 (n-3)/2, Tesauro's units made one-hot), then its borne-off
// checkers over 15. 202 inputs: TD-Gammon's 198 with the bar as a point
// and no side-to-move units, which the mover's view makes constant.
const (
	unitsPerSide = 4*Bar + 1
	InputSize    = 2 * unitsPerSide
)

// DefaultHidden is the hidden units of a net made without a size.
const DefaultHidden = 40

// pointUnits are the four units of a point holding n checkers.
var pointUnits [Checkers + 1][4]float64

func init() {
	for n := 1; n <= Checkers; n++ {
		switch n {
		case 1, 2, 3:
			pointUnits[n][n-1] = 1
		default:
			pointUnits[n] = [4]float64{0, 0, 1, float64(n-3) / 2}
		}
	}
}

// input returns the first input of side s's point p (1 to 25) or its
// borne-off checkers (p = 0) in the view of side view.
func input(view, s, p int) int {
	base := 0
	if s != view {
		base = unitsPerSide
	}
	if p == Off {
		return base + 4*Bar
	}
	return base + 4*(p-1)
}

// Features writes b's inputs, seen from its side to move, into x (len
// InputSize): the one definition of the inputs, for training and the
// engine alike.
func Features(b *Board, x []float64) {
	clear(x[:InputSize])
	view := int(b.stm)
	for s := 0; s < 2; s++ {
		for p := 1; p <= Bar; p++ {
			if n := b.pts[s][p]; n > 0 {
				copy(x[input(view, s, p):][:4], pointUnits[n][:])
			}
		}
		x[input(view, s, Off)] = float64(b.pts[s][Off]) / Checkers
	}
}

// NewNet returns a net of variant v with hidden units (DefaultHidden for
// 0), its weights drawn by nn.New from rng and scale.
func NewNet(v Variant, hidden int, rng *rand.Rand, scale float64) (*nn.Net, error) {
	if hidden == 0 {
		hidden = DefaultHidden
	}
	net, err := nn.New(InputSize, hidden, rng, scale)
	if err != nil {
		return nil, err
	}
	net.Game, net.Variant, net.VariantKey = NetGame, v.String(), []int{int(v)}
	return net, nil
}

// CheckNet reports whether net is a backgammon net of variant v.
func CheckNet(net *nn.Net, v Variant) error {
	if net.Game != NetGame {
		return fmt.Errorf("a net for the game %q, not %q", net.Game, NetGame)
	}
	if net.Variant != v.String() || len(net.VariantKey) != 1 || net.VariantKey[0] != int(v) {
		return fmt.Errorf("a net for backgammon %s, not %s", net.Variant, v)
	}
	if net.In != InputSize {
		return fmt.Errorf("%d inputs, not the %d of a backgammon net", net.In, InputSize)
	}
	return nil
}

// NetEvaluator is a backgammon net as the engine's evaluator. It keeps the
// first layer's pre-activations for both sides' views and a stack of them,
// one per play made since Reset: a play changes a few points (its from and
// to points, the borne-off count, and a hit's point and bar), and Make
// adds the change of their units to a copy of the accumulators, found by
// comparing the board with the position it last saw; Unmake pops.
type NetEvaluator struct {
	net   *nn.Net
	top   int
	stack []netFrame
}

type netFrame struct {
	pts [2]Points
	acc [2][]float64
}

// maxNetDepth bounds the plays the evaluator follows from a Reset.
const maxNetDepth = 160

// NewNetEvaluator returns an evaluator of net; call Reset before Evaluate.
func NewNetEvaluator(net *nn.Net) *NetEvaluator {
	e := &NetEvaluator{net: net, stack: make([]netFrame, maxNetDepth+1)}
	for i := range e.stack {
		for v := range e.stack[i].acc {
			e.stack[i].acc[v] = make([]float64, net.H)
		}
	}
	return e
}

// Clone returns an evaluator of the same net with stacks of its own.
func (e *NetEvaluator) Clone() *NetEvaluator { return NewNetEvaluator(e.net) }

// Reset computes the accumulators from b.
func (e *NetEvaluator) Reset(b *Board) {
	e.top = 0
	f := &e.stack[0]
	f.pts = b.pts
	for v := range f.acc {
		copy(f.acc[v], e.net.B1)
		for s := 0; s < 2; s++ {
			for p := 0; p <= Bar; p++ {
				e.addPoint(f.acc[v], v, s, p, b.pts[s][p], 1)
			}
		}
	}
}

// addPoint adds sign times the units of side s's point p holding n
// checkers, in view v, to acc.
func (e *NetEvaluator) addPoint(acc []float64, v, s, p int, n int8, sign float64) {
	if n == 0 {
		return
	}
	i := input(v, s, p)
	if p == Off {
		e.net.AddInput(acc, i, sign*float64(n)/Checkers)
		return
	}
	u := &pointUnits[n]
	for k := 0; k < 4; k++ {
		if u[k] != 0 {
			e.net.AddInput(acc, i+k, sign*u[k])
		}
	}
}

// Make follows b.MakeSaving(m, ...): b shows the play made.
func (e *NetEvaluator) Make(b *Board, _ int) {
	if e.top == maxNetDepth {
		panic("backgammon net evaluator: too many plays since Reset")
	}
	old := &e.stack[e.top]
	e.top++
	f := &e.stack[e.top]
	f.pts = b.pts
	for v := range f.acc {
		copy(f.acc[v], old.acc[v])
	}
	for s := 0; s < 2; s++ {
		for p := 0; p <= Bar; p++ {
			if n, was := b.pts[s][p], old.pts[s][p]; n != was {
				for v := range f.acc {
					e.addPoint(f.acc[v], v, s, p, was, -1)
					e.addPoint(f.acc[v], v, s, p, n, 1)
				}
			}
		}
	}
}

// Unmake precedes the take-back of the play Make followed.
func (e *NetEvaluator) Unmake(*Board, int) { e.top-- }

// Evaluate returns the net's value of b for its side to move, from the
// accumulators, which must follow b.
func (e *NetEvaluator) Evaluate(b *Board) float64 {
	return e.net.Output(e.stack[e.top].acc[b.stm])
}

// Value returns the net's value of b without accumulators kept in step:
// Reset, then Evaluate.
func (e *NetEvaluator) Value(b *Board) float64 {
	e.Reset(b)
	return e.Evaluate(b)
}
