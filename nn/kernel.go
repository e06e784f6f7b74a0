package nn

import "math"

// Lanes is the number of hidden units a Kernel computes at once: the
// float64 lanes of an AVX register (two SSE2 registers on an amd64
// processor without AVX).
const Lanes = 4

// Kernel is a net laid out for a search's leaves, where its value is
// computed from an accumulator: the hidden layer padded with units of
// zero weights to a multiple of Lanes, which Add and Value take Lanes at a
// time (in AVX or SSE2 assembly on amd64, in Go elsewhere). A padded unit's
// pre-activation stays 0 and adds 0 to the output.
//
// Value's arithmetic is Output's with the output's sum taken in Lanes
// partial sums, so it is within a few units in the last place of
// Forward's value: KernelTolerance bounds the difference (tested on every
// built-in net). Training keeps to Forward and Output.
type Kernel struct {
	net *Net
	H   int       // hidden units padded to a multiple of Lanes
	B1  []float64 // the hidden biases, padded: an empty accumulator
	W2  []float64 // the output weights, padded
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
	k := &Kernel{net: net, H: h, B1: make([]float64, h), W2: make([]float64, h)}
	copy(k.B1, net.B1)
	copy(k.W2, net.W2)
	return k
}

// Column writes input i's first-layer weights, padded, into dst (len H):
// what the input adds to the accumulator per unit of its value.
func (k *Kernel) Column(dst []float64, i int) {
	dst = dst[:k.H]
	copy(dst, k.net.W1[i*k.net.H:][:k.net.H])
	clear(dst[k.net.H:])
}

// Add sets dst to src + col (each len H): an accumulator with one input's
// column added, a move's.
func (k *Kernel) Add(dst, src, col []float64) {
	add(dst[:k.H], src[:k.H], col[:k.H])
}

// AddScaled sets dst to src + a·col (each len H): an accumulator with an
// input's change by a added.
func (k *Kernel) AddScaled(dst, src, col []float64, a float64) {
	addScaled(dst[:k.H], src[:k.H], col[:k.H], a)
}

// Value returns the net's value from acc (len H), the padded
// pre-activations B1 + W1·x of the inputs but the last few, and those
// inputs' values x with their padded columns, cols[s*H:][:H] input s's:
// tanh(B2 + W2·Act(acc + Σ x[s]·cols[s])). An input kept outside the
// accumulator is one that changes at every leaf (Dice's run counts).
func (k *Kernel) Value(acc, cols, x []float64) float64 {
	acc = acc[:k.H]
	return math.Tanh(k.net.B2 + hidden(acc, cols[:len(x)*k.H], x, k.W2))
}

// addGo is add in Go: the specification of the assembly.
func addGo(dst, src, col []float64) {
	col = col[:len(dst)]
	src = src[:len(dst)]
	for j := range dst {
		dst[j] = src[j] + col[j]
	}
}

// addScaledGo is addScaled in Go: the specification of the assembly.
func addScaledGo(dst, src, col []float64, a float64) {
	col = col[:len(dst)]
	src = src[:len(dst)]
	for j := range dst {
		dst[j] = src[j] + a*col[j]
	}
}

// hiddenGo is hidden in Go, the specification of the assembly: the sum of
// W2[j]·Act(acc[j] + Σ x[s]·cols[s*H+j]) over the hidden units j, taken
// in Lanes partial sums (unit j in sum j mod Lanes), which are added last
// as the halves of a register are: (sum 0 + sum 2) + (sum 1 + sum 3). Act is computed on the pre-activation clamped to [-3, 3],
// where its value at ±3 is exactly ±1, as Act's own branches give.
func hiddenGo(acc, cols, x, w2 []float64) float64 {
	h := len(acc)
	w2 = w2[:h]
	var sum [Lanes]float64
	for j := 0; j < h; j += Lanes {
		for l := range Lanes {
			p := acc[j+l]
			for s, xs := range x {
				p += xs * cols[s*h+j+l]
			}
			p = min(max(p, -3), 3)
			p2 := p * p
			sum[l] += w2[j+l] * (p * (27 + p2) / (27 + 9*p2))
		}
	}
	return (sum[0] + sum[2]) + (sum[1] + sum[3])
}
