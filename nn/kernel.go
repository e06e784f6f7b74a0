package nn

// Lanes is the number of hidden units a Kernel computes at once: the
// float64 lanes of an AVX register.
const Lanes = 4

// Kernel is a net laid out for a search's leaves, where its value is
// computed from an accumulator: the hidden layer padded with units of
// zero weights to a multiple of Lanes, which Update and Value take Lanes
// at a time (in AVX assembly on amd64 processors that have it and FMA, in
// Go elsewhere). A padded unit's pre-activation stays 0 and adds 0 to the
// output.
//
// A net with hidden layers after the first (Net.Deep), or with a Head
// whose value weighs more than one output, has its first layer updated
// here and the rest of its pass computed by Output, exactly; a Head whose
// value weighs one output alone is computed as a tanh output (byTanh).
//
// Value's arithmetic is Output's with the output's sum taken in Lanes
// partial sums and the output's tanh computed at lower latency (tanh,
// within 1e-15 of math.Tanh), so it is within a few units in the last
// place of Forward's value: KernelTolerance bounds the difference (tested
// on every built-in net). Training keeps to Forward and Output.
type Kernel struct {
	net *Net
	H   int       // hidden units padded to a multiple of Lanes
	B1  []float64 // the hidden biases, padded: an empty accumulator
	W2  []float64 // the output weights, padded
	b2  float64   // the output's bias
	// A Head of whose outputs the value weighs one alone, c·p + c0 (a
	// one-point backgammon net of outcomes, 2·win - 1), is computed as a
	// tanh output: c0 + c/2 + (c/2)·tanh(z/2) for p = σ(z), with W2 and b2
	// half the output's weights and bias (exact: a power of two), scale
	// c/2 and offset c0 + c/2. byTanh says the kernel does so.
	byTanh        bool
	scale, offset float64
}

// KernelTolerance bounds |Kernel.Value - Forward| for an accumulator that
// is B1 + W1·x for the same input x, computed in any order: the
// accumulator's own rounding (a sum of at most a few hundred weight
// columns) and the output's partial sums each move the value by far less.
const KernelTolerance = 1e-12

// NewKernel returns net's kernel. It shares nothing with net that changes:
// a net trained further needs a new kernel.
func NewKernel(net *Net) *Kernel {
	h := (net.H + Lanes - 1) / Lanes * Lanes
	k := &Kernel{net: net, H: h, B1: make([]float64, h), W2: make([]float64, h), b2: net.B2}
	copy(k.B1, net.B1)
	copy(k.W2, net.W2)
	if hd := net.Head; hd != nil {
		one := -1
		for o, c := range hd.Value[1:] {
			if c != 0 {
				if one >= 0 {
					return k // the outputs' sum is Output's
				}
				one = o
			}
		}
		if one >= 0 {
			for j, w := range hd.W[one*net.H:][:net.H] {
				k.W2[j] = w / 2
			}
			k.b2, k.byTanh = hd.B[one]/2, true
			k.scale = hd.Value[one+1] / 2
			k.offset = hd.Value[0] + k.scale
		}
	}
	return k
}

// Column writes input i's first-layer weights, padded, into dst (len H):
// what the input adds to the accumulator per unit of its value.
func (k *Kernel) Column(dst []float64, i int) {
	dst = dst[:k.H]
	copy(dst, k.net.W1[i*k.net.H:][:k.net.H])
	clear(dst[k.net.H:])
}

// Update sets dst to src + Σ a[i]·w[at[i]:][:H] (dst and src len H), the
// columns added in order: an accumulator after its inputs change by a[i],
// their columns at offsets at[i] of w, a table of the caller's (a 1 adds a
// column exactly). dst may be src.
func (k *Kernel) Update(dst, src, w []float64, at []int32, a []float64) {
	k.check(w, at, a)
	if hasAsm {
		updateAsm(dst[:k.H], src[:k.H], w, at, a)
	} else {
		updateGo(dst[:k.H], src[:k.H], w, at, a)
	}
}

// UpdateValue is Update followed by Value(dst), in one pass over the
// units.
func (k *Kernel) UpdateValue(dst, src, w []float64, at []int32, a []float64) float64 {
	k.check(w, at, a)
	if k.byOutput() {
		k.Update(dst, src, w, at, a)
		return k.net.Output(dst[:k.net.H])
	}
	var v float64
	if hasAsm {
		v = updateValueAsm(dst[:k.H], src[:k.H], w, at, a, k.W2, k.b2)
	} else {
		v = updateValueGo(dst[:k.H], src[:k.H], w, at, a, k.W2, k.b2)
	}
	return k.ofTanh(v)
}

// byOutput reports whether the net's value is Output's from the
// accumulator: the layers after the first, or a Head's outputs of
// probabilities, are computed there, not by the kernel's tanh output.
func (k *Kernel) byOutput() bool {
	return len(k.net.Deep) > 0 || (k.net.Head != nil && !k.byTanh)
}

// ofTanh returns the net's value from v, the kernel's tanh output: v
// itself, or a Head's value of its one output (byTanh).
func (k *Kernel) ofTanh(v float64) float64 {
	if k.byTanh {
		return k.offset + k.scale*v
	}
	return v
}

// Value returns the net's value from acc (len H), the padded
// pre-activations B1 + W1·x of an input x: tanh(B2 + W2·Act(acc)).
func (k *Kernel) Value(acc []float64) float64 {
	return k.UpdateValue(acc, acc, nil, nil, nil)
}

// check panics unless every column at[i] lies in w and has its a[i]: the
// assembly reads them unchecked.
func (k *Kernel) check(w []float64, at []int32, a []float64) {
	_ = a[:len(at)]
	for _, o := range at {
		_ = w[int(o):][:k.H]
	}
}

// updateGo is update in Go: the specification of the assembly.
func updateGo(dst, src, w []float64, at []int32, a []float64) {
	src = src[:len(dst)]
	for j := range dst {
		p := src[j]
		for i, o := range at {
			p += a[i] * w[int(o)+j]
		}
		dst[j] = p
	}
}

// hiddenGo is hidden in Go, the specification of the assembly: the sum of
// W2[j]·Act(acc[j]) over the hidden units j, taken in Lanes partial sums
// (unit j in sum j mod Lanes), which are added last as the halves of a
// register are: (sum 0 + sum 2) + (sum 1 + sum 3). Act is computed on the
// pre-activation clamped to [-3, 3], where its value at ±3 is exactly ±1,
// as Act's own branches give.
func hiddenGo(acc, w2 []float64) float64 {
	w2 = w2[:len(acc)]
	var sum [Lanes]float64
	for j := 0; j < len(acc); j += Lanes {
		for l := range Lanes {
			p := min(max(acc[j+l], -3), 3)
			p2 := p * p
			sum[l] += w2[j+l] * (p * (27 + p2) / (27 + 9*p2))
		}
	}
	return (sum[0] + sum[2]) + (sum[1] + sum[3])
}

// updateValueGo is updateGo, then tanh(b2 + hiddenGo(dst)): UpdateValue's
// specification, and its code without the assembly.
func updateValueGo(dst, src, w []float64, at []int32, a, w2 []float64, b2 float64) float64 {
	updateGo(dst, src, w, at, a)
	return tanh(b2 + hiddenGo(dst, w2))
}
