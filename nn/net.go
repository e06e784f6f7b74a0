package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"starlab/search/dice"
)

// StreakInputs is the number of streak features that open every input
// vector: runs of length 2 to 7 of the side to move, then of its opponent
// (Veness 2006, section 4.2.3). Lengths at or above the win length are
// unused and stay zero.
const StreakInputs = 12

// maxStreak is the longest run length with a feature.
const maxStreak = 7

// InputSize returns the number of inputs of the net of an n x n board: the
// streak features and two per cell (mine, theirs), 62 at 5x5 as in the
// thesis's figure 4.4.
func InputSize(n int) int { return StreakInputs + 2*n*n }

// HiddenSize returns the number of hidden units of the net of an n x n
// board: the thesis's figure 4.4 (10 at 5x5, 15 at 9x9, 20 at 13x13, 30 at
// 17x17) and, between and below its sizes, the rule that reproduces it: 10
// up to 5x5, then 1.25 more per unit of side up to 13x13 and 2.5 more per
// unit from there, rounded half up.
func HiddenSize(n int) int {
	switch {
	case n <= 5:
		return 10
	case n <= 13:
		return int(math.Floor(10 + 1.25*float64(n-5) + 0.5))
	default:
		return 20 + int(math.Floor(2.5*float64(n-13)+0.5))
	}
}

// Act is the hidden units' activation: the [3/2] Padé approximant of tanh,
// x(27 + x²)/(27 + 9x²), clamped to ±1 from |x| = 3, where its value is ±1
// and its slope 0, so it is continuous with its first derivative. It is
// within 0.025 of tanh everywhere and costs a few multiplications and one
// division where math.Tanh costs an exponential: the search evaluates it
// for every hidden unit at every leaf. Training and play use it alike.
func Act(x float64) float64 {
	if x >= 3 {
		return 1
	}
	if x <= -3 {
		return -1
	}
	x2 := x * x
	return x * (27 + x2) / (27 + 9*x2)
}

// actSlope is the derivative of Act at x.
func actSlope(x float64) float64 {
	if x >= 3 || x <= -3 {
		return 0
	}
	x2 := x * x
	d := 27 + 9*x2
	return ((27+3*x2)*d - 18*x2*(27+x2)) / (d * d)
}

// Net is a perceptron with one hidden layer (activation Act) and one tanh
// output, so that its value lies in [-1, 1]: the expected result for the
// side to move, as an expectimax evaluation must be (Veness 2006, section
// 4.2.1). It is the same net for both sides: a position is seen from the
// side to move (see Features).
type Net struct {
	N, M   int // board side and win length the net is for
	In, H  int // inputs and hidden units
	W1     []float64
	B1     []float64
	W2     []float64
	B2     float64
	Meta   Meta
	cellIx [2][dice.MaxCells]int32 // see cellInput
}

// Meta is what a weight file records about how the net was made.
type Meta struct {
	Games    int64          `json:"games"`    // self-play games trained on
	Source   string         `json:"source"`   // what made it: "random init", "starlab train ..."
	Settings map[string]any `json:"settings"` // the trainer's settings
}

// New returns the net of an n x n board with win length m, its weights
// drawn uniformly from [-scale, scale] by rng ("small random values near
// zero", section 4.2.3).
func New(n, m int, rng *rand.Rand, scale float64) (*Net, error) {
	if _, err := dice.New(n, m); err != nil {
		return nil, err
	}
	net := &Net{N: n, M: m, In: InputSize(n), H: HiddenSize(n)}
	net.W1 = make([]float64, net.In*net.H)
	net.B1 = make([]float64, net.H)
	net.W2 = make([]float64, net.H)
	for _, w := range [][]float64{net.W1, net.B1, net.W2} {
		for i := range w {
			w[i] = scale * (2*rng.Float64() - 1)
		}
	}
	net.B2 = 0
	net.Meta.Source = "random init"
	net.index()
	return net, nil
}

// index fills cellIx: the input of a cell seen by each side.
func (net *Net) index() {
	n := net.N
	for cell := 0; cell < n*n; cell++ {
		r, c := cell/n, cell%n
		net.cellIx[dice.Blue][cell] = int32(StreakInputs + 2*cell)
		net.cellIx[dice.Red][cell] = int32(StreakInputs + 2*(c*n+r)) // transposed
	}
}

// cellInput returns the input that a checker of colour owner on cell
// sets, seen by side: side's own checkers are "mine" (the first of the
// cell's two inputs), the opponent's "theirs"; red sees the board
// transposed.
func (net *Net) cellInput(side, owner dice.Color, cell int) int {
	i := int(net.cellIx[side][cell])
	if owner != side {
		i++
	}
	return i
}

// Features writes the input vector of b, seen from its side to move, into
// x (len InputSize). It is the one definition of the inputs, used by play
// and training alike.
//
// The position is mapped to one where the side to move is blue, the row
// player: for red to move the board is transposed and the colours swapped.
// Dice's rules are symmetric under that map (rows and columns trade
// places, both diagonals map to themselves, the column player becomes the
// row player), so one net serves both sides and every input means the same
// thing for either.
func (net *Net) Features(b *dice.Board, x []float64) {
	clear(x[:net.In])
	stm := b.SideToMove()
	net.streaks(b, x)
	for cell := 0; cell < net.N*net.N; cell++ {
		switch b.At(cell) {
		case dice.BlueCell:
			x[net.cellInput(stm, dice.Blue, cell)] = 1
		case dice.RedCell:
			x[net.cellInput(stm, dice.Red, cell)] = 1
		}
	}
}

// streaks writes the 12 streak features of b, seen from its side to move:
// the count of runs of each length 2..7 shorter than m, times 1/n (a 5x5
// board has at most a handful of runs of a length).
func (net *Net) streaks(b *dice.Board, x []float64) {
	stm := b.SideToMove()
	inv := 1 / float64(net.N)
	for k := 2; k <= maxStreak && k < net.M; k++ {
		x[k-2] = float64(b.Streaks(stm, k)) * inv
		x[6+k-2] = float64(b.Streaks(stm.Other(), k)) * inv
	}
}

// Forward returns the net's value of input x, writing the hidden units'
// activations into h[:H] and, when h is at least 2H long, their
// pre-activations into h[H:2H] (what Update needs). It is the
// specification the incremental evaluator must agree with.
func (net *Net) Forward(x, h []float64) float64 {
	var pre []float64
	if len(h) >= 2*net.H {
		pre = h[net.H : 2*net.H]
	}
	return net.forward(x, pre, h[:net.H])
}

func (net *Net) forward(x, pre, h []float64) float64 {
	// h holds the pre-activations until the last loop: the inputs are
	// mostly zero, so the first layer adds one weight column per non-zero
	// input.
	copy(h[:net.H], net.B1)
	for i, xi := range x[:net.In] {
		if xi == 0 {
			continue
		}
		w := net.W1[i*net.H:][:net.H]
		for j, wj := range w {
			h[j] += wj * xi
		}
	}
	out := net.B2
	for j := 0; j < net.H; j++ {
		if pre != nil {
			pre[j] = h[j]
		}
		h[j] = Act(h[j])
		out += net.W2[j] * h[j]
	}
	return math.Tanh(out)
}

// Update adds rate times the gradient of the output at x to the weights,
// touching only the first-layer rows of non-zero inputs: Backward and Step
// in one pass, for TD(0), where no trace needs the whole gradient. v and h
// must come from Forward(x, h), with h 2H long, on the current weights.
func (net *Net) Update(x, h []float64, v, rate float64) {
	pre, h := h[net.H:2*net.H], h[:net.H]
	dOut := rate * (1 - v*v)
	for j := 0; j < net.H; j++ {
		dh := dOut * net.W2[j] * actSlope(pre[j]) // with the old W2, as Backward
		pre[j] = dh
		net.W2[j] += dOut * h[j]
		net.B1[j] += dh
	}
	net.B2 += dOut
	for i, xi := range x[:net.In] {
		if xi == 0 {
			continue
		}
		w := net.W1[i*net.H:][:net.H]
		for j := range w {
			w[j] += pre[j] * xi
		}
	}
}

// Grad is the gradient of the net's output with respect to every weight,
// in the layout of the net's own slices.
type Grad struct {
	W1, B1, W2 []float64
	B2         float64
}

// NewGrad returns a zero gradient shaped like net.
func (net *Net) NewGrad() *Grad {
	return &Grad{W1: make([]float64, len(net.W1)), B1: make([]float64, len(net.B1)), W2: make([]float64, len(net.W2))}
}

// Zero sets every component to zero.
func (g *Grad) Zero() {
	clear(g.W1)
	clear(g.B1)
	clear(g.W2)
	g.B2 = 0
}

// Backward runs the net on x and writes into g the gradient of its output
// v = tanh(B2 + W2·Act(B1 + W1·x)) with respect to every weight, by
// backpropagation; it returns v. h is scratch of len 2H.
func (net *Net) Backward(x, h []float64, g *Grad) float64 {
	pre, h := h[net.H:2*net.H], h[:net.H]
	v := net.forward(x, pre, h)
	dOut := 1 - v*v // d tanh(z)/dz at the output
	g.B2 = dOut
	for j := 0; j < net.H; j++ {
		g.W2[j] = dOut * h[j]
		dh := dOut * net.W2[j] * actSlope(pre[j])
		g.B1[j] = dh
		for i := 0; i < net.In; i++ {
			g.W1[i*net.H+j] = dh * x[i]
		}
	}
	return v
}

// Step adds rate*g to the weights: a gradient step towards a larger output
// when rate is positive.
func (net *Net) Step(g *Grad, rate float64) {
	for i, d := range g.W1 {
		net.W1[i] += rate * d
	}
	for i, d := range g.B1 {
		net.B1[i] += rate * d
	}
	for i, d := range g.W2 {
		net.W2[i] += rate * d
	}
	net.B2 += rate * g.B2
}

// Clone returns a deep copy of the net.
func (net *Net) Clone() *Net {
	c := *net
	c.W1 = append([]float64(nil), net.W1...)
	c.B1 = append([]float64(nil), net.B1...)
	c.W2 = append([]float64(nil), net.W2...)
	return &c
}

// check reports the first way the net is malformed.
func (net *Net) check() error {
	if _, err := dice.New(net.N, net.M); err != nil {
		return err
	}
	if net.In != InputSize(net.N) {
		return fmt.Errorf("%d inputs, want %d for %dx%d", net.In, InputSize(net.N), net.N, net.N)
	}
	if net.H < 1 || net.H > 4096 {
		return fmt.Errorf("%d hidden units, want 1 to 4096", net.H)
	}
	if len(net.W1) != net.In*net.H || len(net.B1) != net.H || len(net.W2) != net.H {
		return fmt.Errorf("weight arrays of %d, %d and %d, want %d, %d and %d", len(net.W1), len(net.B1), len(net.W2), net.In*net.H, net.H, net.H)
	}
	for _, w := range [][]float64{net.W1, net.B1, net.W2, {net.B2}} {
		for _, x := range w {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("a weight is not finite")
			}
		}
	}
	return nil
}
