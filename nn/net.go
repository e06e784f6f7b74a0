package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

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
// 4.2.1). Its input is a plain vector; what the inputs mean is the game's
// (Game, Variant), which lays out a position as In inputs.
type Net struct {
	Game    string // the game the net evaluates: "dice"
	Variant string // the variant of the game its inputs are laid out for: "5x5-4"
	// VariantKey is the variant as integers (for Dice the board side and
	// the win length), which the checksum hashes ahead of the topology.
	VariantKey []int
	In, H      int // inputs and hidden units
	W1         []float64
	B1         []float64
	W2         []float64
	B2         float64
	// Deep are the hidden layers after the first, in order (none in the
	// thesis's net); W2 then weighs the last one's activations.
	Deep []Layer
	Meta Meta
	// Phases are nets for parts of the game that the game names
	// (backgammon's "race"), which the game's evaluator consults in those
	// positions in place of this net: a net of the same game, variant and
	// inputs, its Phase set and no Phases of its own. A net of one phase
	// has none.
	Phases []*Net
	// Phase is the part of the game a net of another's Phases evaluates;
	// "" for a main net.
	Phase string
	// Head, when set, is the net's outputs of probabilities in place of
	// its tanh output (W2 and B2 then unused): see Head.
	Head *Head
}

// PhaseNet returns the net of net's Phases for phase, nil if it has none.
func (net *Net) PhaseNet(phase string) *Net {
	for _, p := range net.Phases {
		if p.Phase == phase {
			return p
		}
	}
	return nil
}

// MaxInputs and MaxHidden bound a net's topology: a 17x17 Dice net has
// 590 inputs and 30 hidden units.
const (
	MaxInputs = 1 << 20
	MaxHidden = 4096
)

// Meta is what a weight file records about how the net was made.
type Meta struct {
	Games    int64          `json:"games"`    // self-play games trained on
	Source   string         `json:"source"`   // what made it: "random init", "starlab train ..."
	Settings map[string]any `json:"settings"` // the trainer's settings
}

// New returns a net of the given inputs and hidden units, its weights
// drawn uniformly from [-scale, scale] by rng ("small random values near
// zero", section 4.2.3): W1 (input-major), then B1, then W2; B2 is zero.
// The game sets Game, Variant and VariantKey.
func New(inputs, hidden int, rng *rand.Rand, scale float64) (*Net, error) {
	net := &Net{In: inputs, H: hidden}
	if err := net.checkTopology(); err != nil {
		return nil, err
	}
	net.W1 = make([]float64, net.In*net.H)
	net.B1 = make([]float64, net.H)
	net.W2 = make([]float64, net.H)
	for _, w := range [][]float64{net.W1, net.B1, net.W2} {
		for i := range w {
			w[i] = uniform(rng, scale)
		}
	}
	net.B2 = 0
	net.Meta.Source = "random init"
	return net, nil
}

// uniform returns a weight drawn uniformly from ±scale by rng: every
// initial weight of a net, and a widened net's new ones.
func uniform(rng *rand.Rand, scale float64) float64 { return scale * (2*rng.Float64() - 1) }

// Forward returns the net's value of input x, writing the hidden units'
// activations into h[:H] and, when h is at least 2H long, their
// pre-activations into h[H:2H] (what Update needs). It is the
// specification the incremental evaluator must agree with.
func (net *Net) Forward(x, h []float64) float64 {
	if net.Head != nil {
		var p [MaxOutputs]float64
		return net.Probs(x, h, p[:])
	}
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
	if len(net.Deep) > 0 {
		if pre != nil {
			copy(pre, h[:net.H])
		}
		v := net.deepOutput(h[:net.H])
		for j := range h[:net.H] {
			h[j] = Act(h[j])
		}
		return v
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

// AddInput adds x times input i's first-layer weights to acc, the
// hidden units' pre-activations (len H): what an input that changes by x
// changes them by. An incremental evaluator keeps B1 + W1·x up to date
// with it as inputs change, instead of recomputing it from every input.
func (net *Net) AddInput(acc []float64, i int, x float64) {
	w := net.W1[i*net.H:][:len(acc)]
	for j, wj := range w {
		acc[j] += wj * x
	}
}

// Output finishes the forward pass from the hidden units' pre-activations
// pre = B1 + W1·x (len H): tanh(B2 + W2·Act(pre)), what Forward returns for
// x.
func (net *Net) Output(pre []float64) float64 {
	if len(net.Deep) > 0 {
		return net.deepOutput(pre)
	}
	if net.Head != nil {
		var p [MaxOutputs]float64
		return net.headOutput(pre, p[:])
	}
	out := net.B2
	for j, a := range pre {
		out += net.W2[j] * Act(a)
	}
	return math.Tanh(out)
}

// Update adds rate times the gradient of the output at x to the weights,
// touching only the first-layer rows of non-zero inputs: Backward and Step
// in one pass, for TD(0), where no trace needs the whole gradient. v and h
// must come from Forward(x, h), with h 2H long, on the current weights.
func (net *Net) Update(x, h []float64, v, rate float64) {
	if len(net.Deep) > 0 { // the gradient of every layer, then the step
		g := net.NewGrad()
		net.Backward(x, h, g)
		net.Step(g, rate)
		return
	}
	if net.Head != nil {
		var p [MaxOutputs]float64
		net.headOut(h[:net.H], p[:])
		net.StepProbs(x, h, p[:], net.Head.Value[1:], rate)
		return
	}
	pre, h := h[net.H:2*net.H], h[:net.H]
	dOut := rate * (1 - v*v)
	for j := 0; j < net.H; j++ {
		dh := dOut * net.W2[j] * actSlope(pre[j]) // with the old W2, as Backward
		pre[j] = dh
		net.W2[j] += dOut * h[j]
		net.B1[j] += dh
	}
	net.B2 += dOut
	net.stepRows(x, pre)
}

// stepRows adds d[j]·x[i] to the first-layer weight of input i and unit
// j for every non-zero input: a step of the first layer whose gradient at
// each unit's pre-activation is d (len H).
func (net *Net) stepRows(x, d []float64) {
	for i, xi := range x[:net.In] {
		if xi == 0 {
			continue
		}
		w := net.W1[i*net.H:][:net.H]
		for j := range w {
			w[j] += d[j] * xi
		}
	}
}

// Grad is the gradient of the net's output with respect to every weight,
// in the layout of the net's own slices.
type Grad struct {
	W1, B1, W2 []float64
	B2         float64
	Deep       []Layer // the deeper layers' components
	// HeadW and HeadB are a Head's components (nil without one).
	HeadW, HeadB []float64
	// backpropagation's scratch for a deep net: each deeper layer's
	// activations, and the gradient at each layer's pre-activations.
	sc    *deepScratch
	delta [][]float64
}

// NewGrad returns a zero gradient shaped like net.
func (net *Net) NewGrad() *Grad {
	g := &Grad{W1: make([]float64, len(net.W1)), B1: make([]float64, len(net.B1)), W2: make([]float64, len(net.W2))}
	if net.Head != nil {
		g.HeadW, g.HeadB = make([]float64, len(net.Head.W)), make([]float64, len(net.Head.B))
	}
	if len(net.Deep) > 0 {
		for _, l := range net.Deep {
			g.Deep = append(g.Deep, Layer{W: make([]float64, len(l.W)), B: make([]float64, len(l.B))})
		}
		g.sc = net.newScratch()
		for _, n := range net.Layout() {
			g.delta = append(g.delta, make([]float64, n))
		}
	}
	return g
}

// Zero sets every component to zero.
func (g *Grad) Zero() {
	for _, d := range g.slices() {
		clear(d)
	}
	g.B2 = 0
}

// Backward runs the net on x and writes into g the gradient of its output
// v = tanh(B2 + W2·Act(B1 + W1·x)) with respect to every weight, by
// backpropagation; it returns v. h is scratch of len 2H.
func (net *Net) Backward(x, h []float64, g *Grad) float64 {
	if len(net.Deep) > 0 {
		net.forwardHidden(x, h)
		v := net.deepForward(h[:net.H], g.sc)
		net.deepBackward(x, h, g, v)
		return v
	}
	if net.Head != nil {
		return net.headBackward(x, h, g)
	}
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
	for k, l := range net.Deep {
		for i, d := range g.Deep[k].W {
			l.W[i] += rate * d
		}
		for i, d := range g.Deep[k].B {
			l.B[i] += rate * d
		}
	}
	net.B2 += rate * g.B2
	if net.Head != nil {
		for i, d := range g.HeadW {
			net.Head.W[i] += rate * d
		}
		for i, d := range g.HeadB {
			net.Head.B[i] += rate * d
		}
	}
}

// SetWeights copies src's weights, its deeper layers' included, into
// net, which must have src's layout: a copy of the weights kept without
// allocating, and seen by every evaluator that reads net.
func (net *Net) SetWeights(src *Net) {
	copy(net.W1, src.W1)
	copy(net.B1, src.B1)
	copy(net.W2, src.W2)
	net.B2 = src.B2
	for k, l := range src.Deep {
		copy(net.Deep[k].W, l.W)
		copy(net.Deep[k].B, l.B)
	}
	if src.Head != nil {
		copy(net.Head.W, src.Head.W)
		copy(net.Head.B, src.Head.B)
	}
	for k, p := range src.Phases {
		net.Phases[k].SetWeights(p)
	}
}

// Clone returns a deep copy of the net.
func (net *Net) Clone() *Net {
	c := *net
	c.W1 = append([]float64(nil), net.W1...)
	c.B1 = append([]float64(nil), net.B1...)
	c.W2 = append([]float64(nil), net.W2...)
	c.VariantKey = append([]int(nil), net.VariantKey...)
	c.Deep = nil
	for _, l := range net.Deep {
		c.Deep = append(c.Deep, Layer{W: append([]float64(nil), l.W...), B: append([]float64(nil), l.B...)})
	}
	c.Head = net.Head.clone()
	c.Phases = nil
	for _, p := range net.Phases {
		c.Phases = append(c.Phases, p.Clone())
	}
	return &c
}

// Widen returns a copy of the net, of one hidden layer, with h hidden
// units (at least its own H): the first H as they are, each new one with
// input weights and a bias drawn uniformly from ±scale by rng and an
// output weight of zero, so the wider net values every input exactly as
// the net does (each new unit adds 0 to the output's sum), and training
// grows the new units from there. A net with deeper layers is refused:
// its second layer would need new columns too.
func (net *Net) Widen(h int, rng *rand.Rand, scale float64) (*Net, error) {
	switch {
	case len(net.Deep) > 0:
		return nil, fmt.Errorf("a net of %d hidden layers widens only with one", len(net.Deep)+1)
	case len(net.Phases) > 0:
		return nil, fmt.Errorf("a net with nets of its phases widens only without them")
	case net.Head != nil:
		return nil, fmt.Errorf("a net with outputs of probabilities widens only with a tanh output")
	case h < net.H:
		return nil, fmt.Errorf("%d hidden units: the net has %d, and widening keeps them all", h, net.H)
	case h > MaxHidden:
		return nil, fmt.Errorf("%d hidden units, want at most %d", h, MaxHidden)
	}
	w := net.Clone()
	w.H = h
	w.W1 = make([]float64, net.In*h)
	for i := 0; i < net.In; i++ {
		copy(w.W1[i*h:], net.W1[i*net.H:(i+1)*net.H])
		for j := net.H; j < h; j++ {
			w.W1[i*h+j] = uniform(rng, scale)
		}
	}
	for j := net.H; j < h; j++ {
		w.B1 = append(w.B1, uniform(rng, scale))
		w.W2 = append(w.W2, 0)
	}
	return w, nil
}

// checkTopology reports whether the net's sizes are in bounds.
func (net *Net) checkTopology() error {
	if net.In < 1 || net.In > MaxInputs {
		return fmt.Errorf("%d inputs, want 1 to %d", net.In, MaxInputs)
	}
	if net.H < 1 || net.H > MaxHidden {
		return fmt.Errorf("%d hidden units, want 1 to %d", net.H, MaxHidden)
	}
	return nil
}

// check reports the first way the net is malformed.
func (net *Net) check() error {
	if err := net.checkTopology(); err != nil {
		return err
	}
	if len(net.Deep) > MaxLayers-1 {
		return fmt.Errorf("%d hidden layers, want at most %d", len(net.Deep)+1, MaxLayers)
	}
	last := net.H
	for k, l := range net.Deep {
		if len(l.B) < 1 || len(l.B) > MaxHidden || len(l.W) != last*len(l.B) {
			return fmt.Errorf("hidden layer %d: %d biases and %d weights, want 1 to %d units and %d weights per unit", k+2, len(l.B), len(l.W), MaxHidden, last)
		}
		last = len(l.B)
	}
	if net.Head != nil {
		switch {
		case len(net.Deep) > 0:
			return fmt.Errorf("%d hidden layers with outputs of probabilities, which take one", len(net.Deep)+1)
		case len(net.W2) != 0 || net.B2 != 0:
			return fmt.Errorf("w2 and b2 beside outputs of probabilities, which replace them")
		}
		if err := net.Head.check(net.H); err != nil {
			return err
		}
		last = 0
	}
	if len(net.W1) != net.In*net.H || len(net.B1) != net.H || len(net.W2) != last {
		return fmt.Errorf("weight arrays of %d, %d and %d, want %d, %d and %d", len(net.W1), len(net.B1), len(net.W2), net.In*net.H, net.H, last)
	}
	weights := [][]float64{net.W1, net.B1, net.W2, {net.B2}}
	for _, l := range net.Deep {
		weights = append(weights, l.W, l.B)
	}
	for _, w := range weights {
		for _, x := range w {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("a weight is not finite")
			}
		}
	}
	return nil
}
