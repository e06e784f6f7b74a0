package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Layer is a hidden layer after the first: len(B) units, each
// Act(B[o] + Σ_i W[o*in+i]·a[i]) of the layer before's activations a (in
// of them), so W is output-major, len(B)·in long.
type Layer struct {
	W []float64 `json:"w"`
	B []float64 `json:"b"`
}

// MaxLayers bounds the hidden layers of a net, the first included.
const MaxLayers = 8

// NewLayout returns a net of the given inputs and hidden layers (hidden[0]
// units in the first, the accumulator's, then the deeper ones in order).
// The first layer and the output are drawn as New draws them, from rng
// and scale, in New's order (W1, B1, W2), so that one hidden layer gives
// New's net; then each deeper layer's W, uniform in ±sqrt(6/(in+out))
// (Glorot and Bengio's initialisation: a layer behind a small first layer
// keeps its signal), its biases zero.
func NewLayout(inputs int, hidden []int, rng *rand.Rand, scale float64) (*Net, error) {
	if len(hidden) < 1 || len(hidden) > MaxLayers {
		return nil, fmt.Errorf("%d hidden layers, want 1 to %d", len(hidden), MaxLayers)
	}
	for _, h := range hidden {
		if h < 1 || h > MaxHidden {
			return nil, fmt.Errorf("a hidden layer of %d units, want 1 to %d", h, MaxHidden)
		}
	}
	net, err := New(inputs, hidden[0], rng, scale)
	if err != nil || len(hidden) == 1 {
		return net, err
	}
	last := hidden[len(hidden)-1]
	net.W2 = make([]float64, last)
	for i := range net.W2 {
		net.W2[i] = uniform(rng, scale)
	}
	in := hidden[0]
	for _, out := range hidden[1:] {
		l := Layer{W: make([]float64, in*out), B: make([]float64, out)}
		lim := math.Sqrt(6 / float64(in+out))
		for i := range l.W {
			l.W[i] = uniform(rng, lim)
		}
		net.Deep = append(net.Deep, l)
		in = out
	}
	return net, nil
}

// Layout returns the sizes of the net's hidden layers, the first (H)
// included: [10] for the thesis's 5x5 net.
func (net *Net) Layout() []int {
	sizes := []int{net.H}
	for _, l := range net.Deep {
		sizes = append(sizes, len(l.B))
	}
	return sizes
}

// LayoutString writes the layout as the -hidden flag takes it: "10",
// "32,16".
func LayoutString(sizes []int) string {
	s := ""
	for i, n := range sizes {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(n)
	}
	return s
}

// deepScratch holds a deep net's activations and pre-activations, layer by
// layer, for one forward and backward pass.
type deepScratch struct {
	act, pre [][]float64
}

func (net *Net) newScratch() *deepScratch {
	sc := &deepScratch{}
	for _, l := range net.Deep {
		sc.act = append(sc.act, make([]float64, len(l.B)))
		sc.pre = append(sc.pre, make([]float64, len(l.B)))
	}
	return sc
}

// deepForward finishes the forward pass of a net with deeper layers from
// the first layer's activations a1 (len H), writing each deeper layer's
// pre-activations and activations into sc, and returns the output.
func (net *Net) deepForward(a1 []float64, sc *deepScratch) float64 {
	a := a1
	for k, l := range net.Deep {
		pre, act := sc.pre[k], sc.act[k]
		in := len(a)
		for o := range l.B {
			z := l.B[o]
			for i, w := range l.W[o*in:][:in] {
				z += w * a[i]
			}
			pre[o], act[o] = z, Act(z)
		}
		a = act
	}
	out := net.B2
	for j, w := range net.W2 {
		out += w * a[j]
	}
	return math.Tanh(out)
}

// deepOutput is Output for a net with deeper layers: the activations of
// the first layer from its pre-activations, then the deeper layers, on
// the stack where the layers are small.
func (net *Net) deepOutput(pre []float64) float64 {
	var buf [4 * 256]float64
	var sc deepScratch
	var stack [2 * MaxLayers][]float64
	sc.act, sc.pre = stack[:0:MaxLayers], stack[MaxLayers:MaxLayers]
	need := net.H
	for _, l := range net.Deep {
		need += 2 * len(l.B)
	}
	var mem []float64
	if need <= len(buf) {
		mem = buf[:need]
	} else {
		mem = make([]float64, need)
	}
	a1 := mem[:net.H]
	mem = mem[net.H:]
	for j, z := range pre {
		a1[j] = Act(z)
	}
	for _, l := range net.Deep {
		n := len(l.B)
		sc.act, sc.pre = append(sc.act, mem[:n]), append(sc.pre, mem[n:2*n])
		mem = mem[2*n:]
	}
	return net.deepForward(a1, &sc)
}

// deepBackward is Backward for a net with deeper layers: h holds the first
// layer's activations (h[:H]) and pre-activations (h[H:2H]) from the
// forward pass; g.Deep and g's other slices receive the gradient of the
// output v.
func (net *Net) deepBackward(x, h []float64, g *Grad, v float64) {
	a1, pre1 := h[:net.H], h[net.H:2*net.H]
	sc := g.sc
	dOut := 1 - v*v
	g.B2 = dOut
	n := len(net.Deep) // at least 1: the one-layer net has Backward's own code
	last, lastPre := sc.act[n-1], sc.pre[n-1]
	// delta is the gradient with respect to the current layer's
	// pre-activations, starting at the last hidden layer.
	delta := g.delta[n][:len(last)]
	for j, a := range last {
		g.W2[j] = dOut * a
		delta[j] = dOut * net.W2[j] * actSlope(lastPre[j])
	}
	for k := len(net.Deep) - 1; k >= 0; k-- {
		l, gl := net.Deep[k], g.Deep[k]
		prevAct, prevPre := a1, pre1
		if k > 0 {
			prevAct, prevPre = sc.act[k-1], sc.pre[k-1]
		}
		in := len(prevAct)
		prevDelta := g.delta[k][:in]
		clear(prevDelta)
		for o, d := range delta {
			gl.B[o] = d
			w, gw := l.W[o*in:][:in], gl.W[o*in:][:in]
			for i, a := range prevAct {
				gw[i] = d * a
				prevDelta[i] += w[i] * d
			}
		}
		for i := range prevDelta {
			prevDelta[i] *= actSlope(prevPre[i])
		}
		delta = prevDelta
	}
	for j, d := range delta {
		g.B1[j] = d
	}
	for i, xi := range x[:net.In] {
		row := g.W1[i*net.H:][:net.H]
		for j, d := range delta {
			row[j] = d * xi
		}
	}
}

// Adam is the Adam optimiser (Kingma and Ba 2015) over a net's weights:
// per-weight running means of the gradient and of its square, bias
// corrected, and a step of Rate along their ratio. Step descends a loss
// whose gradient it is given.
type Adam struct {
	Rate, Beta1, Beta2, Eps float64
	t                       int
	m, v                    *Grad
	mB2, vB2                float64 // the running means for B2
}

// NewAdam returns Adam with the paper's defaults (β1 0.9, β2 0.999, ε 1e-8)
// and the given rate, for net's shape.
func NewAdam(net *Net, rate float64) *Adam {
	return &Adam{Rate: rate, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, m: net.NewGrad(), v: net.NewGrad()}
}

// Step moves net's weights by one Adam step against g, the gradient of the
// loss.
func (a *Adam) Step(net *Net, g *Grad) {
	a.t++
	c1 := 1 - math.Pow(a.Beta1, float64(a.t))
	c2 := 1 - math.Pow(a.Beta2, float64(a.t))
	step := func(w, d, m, v []float64) {
		for i, gi := range d {
			m[i] = a.Beta1*m[i] + (1-a.Beta1)*gi
			v[i] = a.Beta2*v[i] + (1-a.Beta2)*gi*gi
			w[i] -= a.Rate * (m[i] / c1) / (math.Sqrt(v[i]/c2) + a.Eps)
		}
	}
	step(net.W1, g.W1, a.m.W1, a.v.W1)
	step(net.B1, g.B1, a.m.B1, a.v.B1)
	for k, l := range net.Deep {
		step(l.W, g.Deep[k].W, a.m.Deep[k].W, a.v.Deep[k].W)
		step(l.B, g.Deep[k].B, a.m.Deep[k].B, a.v.Deep[k].B)
	}
	step(net.W2, g.W2, a.m.W2, a.v.W2)
	w, m, v := []float64{net.B2}, []float64{a.mB2}, []float64{a.vB2}
	step(w, []float64{g.B2}, m, v)
	net.B2, a.mB2, a.vB2 = w[0], m[0], v[0]
	if net.Head != nil {
		step(net.Head.W, g.HeadW, a.m.HeadW, a.v.HeadW)
		step(net.Head.B, g.HeadB, a.m.HeadB, a.v.HeadB)
	}
}

// AddScaled adds f times src to g.
func (g *Grad) AddScaled(src *Grad, f float64) {
	add := func(d, s []float64) {
		for i := range d {
			d[i] += f * s[i]
		}
	}
	add(g.W1, src.W1)
	add(g.B1, src.B1)
	for k := range g.Deep {
		add(g.Deep[k].W, src.Deep[k].W)
		add(g.Deep[k].B, src.Deep[k].B)
	}
	add(g.W2, src.W2)
	g.B2 += f * src.B2
	add(g.HeadW, src.HeadW)
	add(g.HeadB, src.HeadB)
}

// Scale multiplies g by f.
func (g *Grad) Scale(f float64) {
	for _, d := range g.slices() {
		for i := range d {
			d[i] *= f
		}
	}
	g.B2 *= f
}

// slices returns g's components but B2.
func (g *Grad) slices() [][]float64 {
	s := [][]float64{g.W1, g.B1, g.W2}
	for _, l := range g.Deep {
		s = append(s, l.W, l.B)
	}
	if g.HeadW != nil {
		s = append(s, g.HeadW, g.HeadB)
	}
	return s
}
