package nn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// kernelCase returns a net's kernel input: the accumulator of the inputs
// past the first s (B1 plus their columns, padded) and the first s
// inputs' values and padded columns, which Value adds itself.
func kernelCase(k *Kernel, x []float64, s int) (acc, cols []float64) {
	acc = slices.Clone(k.B1)
	col := make([]float64, k.H)
	for i := s; i < len(x); i++ {
		if x[i] != 0 {
			k.Column(col, i)
			for j := range acc {
				acc[j] += x[i] * col[j]
			}
		}
	}
	cols = make([]float64, s*k.H)
	for i := 0; i < s; i++ {
		k.Column(cols[i*k.H:], i)
	}
	return acc, cols
}

// TestKernel: the kernel's value is within KernelTolerance of Forward's,
// for hidden layers that need padding and ones that do not, with and
// without inputs outside the accumulator, and with pre-activations past
// Act's clamp at ±3; the kernels (assembly on amd64) equal their Go
// specifications bit for bit.
func TestKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	worst := 0.0
	for trial := 0; trial < 300; trial++ {
		net := randomNet(t, []int{30, 62, 174}[trial%3], []int{1, 10, 15, 2, 30}[trial%5], uint64(trial))
		if trial%4 == 0 { // large weights: many units clamped
			for i := range net.W1 {
				net.W1[i] *= 8
			}
		}
		k := NewKernel(net)
		if k.H%Lanes != 0 || k.H < net.H || k.H >= net.H+Lanes {
			t.Fatalf("%d hidden units padded to %d", net.H, k.H)
		}
		x := randomInput(rng, net.In)
		s := []int{0, 1, 4, 12}[trial%4]
		acc, cols := kernelCase(k, x, s)
		got := k.Value(acc, cols, x[:s])
		want := net.Forward(x, make([]float64, net.H))
		worst = max(worst, math.Abs(got-want))
		if math.Abs(got-want) > KernelTolerance {
			t.Fatalf("trial %d: kernel %.17g, Forward %.17g", trial, got, want)
		}
		if g, w := hidden(acc, cols, x[:s], k.W2), hiddenGo(acc, cols, x[:s], k.W2); g != w {
			t.Fatalf("trial %d: hidden %.17g, its Go specification %.17g", trial, g, w)
		}
		dst, spec := make([]float64, k.H), make([]float64, k.H)
		col := make([]float64, k.H)
		k.Column(col, rng.IntN(net.In))
		k.Add(dst, acc, col)
		addGo(spec, acc, col)
		if !slices.Equal(dst, spec) {
			t.Fatalf("trial %d: add %v, its Go specification %v", trial, dst, spec)
		}
		a := rng.Float64()
		k.AddScaled(dst, acc, col, a)
		addScaledGo(spec, acc, col, a)
		if !slices.Equal(dst, spec) {
			t.Fatalf("trial %d: addScaled %v, its Go specification %v", trial, dst, spec)
		}
	}
	t.Logf("largest difference from Forward: %.3g", worst)
}

// TestKernelNoAllocs: the kernel allocates nothing.
func TestKernelNoAllocs(t *testing.T) {
	net := randomNet(t, 62, 10, 1)
	k := NewKernel(net)
	x := randomInput(rand.New(rand.NewPCG(1, 2)), net.In)
	acc, cols := kernelCase(k, x, 4)
	dst := make([]float64, k.H)
	s := 0.0
	if a := testing.AllocsPerRun(100, func() {
		k.Add(dst, acc, cols)
		s += k.Value(dst, cols, x[:4])
	}); a != 0 {
		t.Errorf("Add and Value allocate %v times per run", a)
	}
	sink = s
}

// BenchmarkKernelValue prices Value, beside BenchmarkOutput: 62 inputs,
// 10 hidden units, 4 of the inputs outside the accumulator.
func BenchmarkKernelValue(b *testing.B) {
	net := randomNet(b, 62, 10, 1)
	k := NewKernel(net)
	x := randomInput(rand.New(rand.NewPCG(1, 2)), net.In)
	acc, cols := kernelCase(k, x, 4)
	s := 0.0
	for b.Loop() {
		s += k.Value(acc, cols, x[:4])
	}
	sink = s
}
