package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Head is the output layer of a net that gives the probabilities of a
// game's results in place of one value: K logistic units over the hidden
// layer's activations h, p_k = σ(B[k] + W[k·H:(k+1)·H]·h), and the net's
// value the fixed combination Value[0] + Σ_k Value[k+1]·p_k, which the
// game sets (backgammon's money nets: gnubg's five outputs, the chances
// of winning and of winning and losing a gammon and a backgammon, and
// the cubeless equity over 3 from them). A net with a Head has no W2 and
// a B2 of 0, and one hidden layer.
type Head struct {
	W     []float64 `json:"w"`     // K×H, output k's weights at k·H
	B     []float64 `json:"b"`     // the K biases
	Value []float64 `json:"value"` // K+1: the value's constant, then each output's weight
}

// MaxOutputs bounds a Head's outputs.
const MaxOutputs = 8

// K returns the head's outputs.
func (hd *Head) K() int { return len(hd.B) }

// NewHead gives net (of one hidden layer) a Head of len(value)-1 outputs
// in place of its tanh output, the output weights drawn uniformly from
// ±scale by rng, the biases 0, and value its Value.
func (net *Net) NewHead(value []float64, rng *rand.Rand, scale float64) error {
	k := len(value) - 1
	switch {
	case len(net.Deep) > 0:
		return fmt.Errorf("a net of %d hidden layers with outputs of probabilities: they take one", len(net.Deep)+1)
	case k < 2 || k > MaxOutputs:
		return fmt.Errorf("%d outputs of probabilities, want 2 to %d", k, MaxOutputs)
	}
	hd := &Head{W: make([]float64, k*net.H), B: make([]float64, k), Value: append([]float64(nil), value...)}
	for i := range hd.W {
		hd.W[i] = uniform(rng, scale)
	}
	net.Head, net.W2, net.B2 = hd, nil, 0
	return nil
}

// sigmoid is the logistic function.
func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// headOut writes into p (len K) the head's probabilities from the hidden
// activations a (len H) and returns the net's value.
func (net *Net) headOut(a, p []float64) float64 {
	hd := net.Head
	v := hd.Value[0]
	for k := range hd.B {
		z := hd.B[k]
		for j, w := range hd.W[k*net.H:][:net.H] {
			z += w * a[j]
		}
		p[k] = sigmoid(z)
		v += hd.Value[k+1] * p[k]
	}
	return v
}

// headOutput is Output for a net with a Head: the value from the hidden
// pre-activations pre, each unit's activation taken once, the outputs'
// sums in the order of the units.
func (net *Net) headOutput(pre, p []float64) float64 {
	if len(net.Head.B) == 5 {
		return net.headOutput5(pre, p)
	}
	return net.headOutputAny(pre, p)
}

// headOutput5 is headOutputAny for a head of five outputs (backgammon's
// money nets), the same sums in the same order, each in a variable of its
// own instead of an array indexed by an inner loop.
func (net *Net) headOutput5(pre, p []float64) float64 {
	hd, h := net.Head, net.H
	pre, w := pre[:h], hd.W[:5*h]
	w0, w1, w2, w3, w4 := w[:h], w[h:2*h], w[2*h:3*h], w[3*h:4*h], w[4*h:5*h]
	z0, z1, z2, z3, z4 := hd.B[0], hd.B[1], hd.B[2], hd.B[3], hd.B[4]
	for j, x := range pre {
		a := Act(x)
		z0 += w0[j] * a
		z1 += w1[j] * a
		z2 += w2[j] * a
		z3 += w3[j] * a
		z4 += w4[j] * a
	}
	v := hd.Value[0]
	for k, z := range [5]float64{z0, z1, z2, z3, z4} {
		p[k] = sigmoid(z)
		v += hd.Value[k+1] * p[k]
	}
	return v
}

// headOutputAny is headOutput for a head of any number of outputs.
func (net *Net) headOutputAny(pre, p []float64) float64 {
	hd := net.Head
	var z [MaxOutputs]float64
	copy(z[:], hd.B)
	for j, x := range pre[:net.H] {
		a := Act(x)
		for k := range hd.B {
			z[k] += hd.W[k*net.H+j] * a
		}
	}
	v := hd.Value[0]
	for k := range hd.B {
		p[k] = sigmoid(z[k])
		v += hd.Value[k+1] * p[k]
	}
	return v
}

// Probs returns the net's value of input x and writes into p (len K) the
// probabilities of its Head, and into h what Forward writes: the forward
// pass of a net with a Head, whose StepProbs needs h.
func (net *Net) Probs(x, h, p []float64) float64 {
	net.forwardHidden(x, h)
	return net.headOut(h[:net.H], p)
}

// forwardHidden writes the hidden activations of x into h[:H] and their
// pre-activations into h[H:2H] where h is that long.
func (net *Net) forwardHidden(x, h []float64) {
	a := h[:net.H]
	copy(a, net.B1)
	for i, xi := range x[:net.In] {
		if xi != 0 {
			net.AddInput(a, i, xi)
		}
	}
	if len(h) >= 2*net.H {
		copy(h[net.H:2*net.H], a)
	}
	for j, z := range a {
		a[j] = Act(z)
	}
}

// StepProbs adds rate times the gradient of Σ_k c[k]·p_k at x to the
// weights of a net with a Head, touching only the first-layer rows of
// non-zero inputs, as Update does: TD(0) of each output towards its own
// target when c is the outputs' errors. h (2H long) and p must come from
// Probs(x, h, p) on the current weights.
func (net *Net) StepProbs(x, h, p, c []float64, rate float64) {
	hd := net.Head
	pre, a := h[net.H:2*net.H], h[:net.H]
	var dz [MaxOutputs]float64
	for k := range hd.B {
		dz[k] = rate * c[k] * p[k] * (1 - p[k])
	}
	for j := 0; j < net.H; j++ {
		d := 0.0
		for k := range hd.B {
			d += dz[k] * hd.W[k*net.H+j] // with the old weights, as Backward
		}
		pre[j] = d * actSlope(pre[j])
		net.B1[j] += pre[j]
	}
	for k := range hd.B {
		w := hd.W[k*net.H:][:net.H]
		for j := range w {
			w[j] += dz[k] * a[j]
		}
		hd.B[k] += dz[k]
	}
	net.stepRows(x, pre)
}

// headBackward writes into g the gradient of the value of a net with a
// Head at x, every component, and returns the value; h is scratch of
// len 2H.
func (net *Net) headBackward(x, h []float64, g *Grad) float64 {
	hd := net.Head
	net.forwardHidden(x, h)
	pre, a := h[net.H:2*net.H], h[:net.H]
	var p [MaxOutputs]float64
	v := net.headOut(a, p[:])
	for k := range hd.B {
		dz := hd.Value[k+1] * p[k] * (1 - p[k])
		g.HeadB[k] = dz
		for j := range a {
			g.HeadW[k*net.H+j] = dz * a[j]
		}
	}
	for j := 0; j < net.H; j++ {
		d := 0.0
		for k := range hd.B {
			d += g.HeadB[k] * hd.W[k*net.H+j]
		}
		dh := d * actSlope(pre[j])
		g.B1[j] = dh
		for i := 0; i < net.In; i++ {
			g.W1[i*net.H+j] = dh * x[i]
		}
	}
	return v
}

// clone returns a copy of the head.
func (hd *Head) clone() *Head {
	if hd == nil {
		return nil
	}
	return &Head{W: append([]float64(nil), hd.W...), B: append([]float64(nil), hd.B...), Value: append([]float64(nil), hd.Value...)}
}

// check reports the first way the head of a net of h hidden units is
// malformed.
func (hd *Head) check(h int) error {
	k := len(hd.B)
	switch {
	case k < 2 || k > MaxOutputs:
		return fmt.Errorf("%d outputs of probabilities, want 2 to %d", k, MaxOutputs)
	case len(hd.W) != k*h || len(hd.Value) != k+1:
		return fmt.Errorf("outputs of %d weights and %d value terms, want %d and %d", len(hd.W), len(hd.Value), k*h, k+1)
	}
	for _, w := range [][]float64{hd.W, hd.B, hd.Value} {
		for _, x := range w {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("a weight of the outputs is not finite")
			}
		}
	}
	return nil
}
