package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// kernelCase lays out a net's input x for its kernel: w holds the padded
// columns of every input, input i's at offset i*H, and at and a list the
// inputs from the s-th on that are not zero and their values. The
// accumulator is then Update of B1 by them; the first s inputs are left
// for a second Update.
func kernelCase(k *Kernel, x []float64, s int) (w []float64, at []int32, a []float64) {
	w = make([]float64, len(x)*k.H)
	for i := range x {
		k.Column(w[i*k.H:], i)
	}
	for i := s; i < len(x); i++ {
		if x[i] != 0 {
			at, a = append(at, int32(i*k.H)), append(a, x[i])
		}
	}
	return w, at, a
}

// TestKernel: the kernel's value is within KernelTolerance of Forward's,
// for hidden layers that need padding and ones that do not, from an
// accumulator built in one Update or two, and with pre-activations past
// Act's clamp at ±3; the kernels (assembly on amd64 with AVX and FMA)
// equal their Go specifications bit for bit.
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
		w, at, a := kernelCase(k, x, s)
		acc := make([]float64, k.H)
		k.Update(acc, k.B1, w, at, a)
		spec := make([]float64, k.H)
		updateGo(spec, k.B1, w, at, a)
		if !slices.Equal(acc, spec) {
			t.Fatalf("trial %d: update %v, its Go specification %v", trial, acc, spec)
		}
		want := net.Forward(x, make([]float64, net.H))
		if s == 0 {
			got := k.Value(acc)
			if spec := updateValueGo(slices.Clone(acc), acc, nil, nil, nil, k.W2, net.B2); got != spec {
				t.Fatalf("trial %d: Value %.17g, its Go specification %.17g", trial, got, spec)
			}
			worst = max(worst, math.Abs(got-want))
			if math.Abs(got-want) > KernelTolerance {
				t.Fatalf("trial %d: kernel %.17g, Forward %.17g", trial, got, want)
			}
			continue
		}
		w2, at2, a2 := kernelCase(k, x[:s], 0)
		dst, specDst := make([]float64, k.H), make([]float64, k.H)
		got := k.UpdateValue(dst, acc, w2, at2, a2)
		if spec := updateValueGo(specDst, acc, w2, at2, a2, k.W2, net.B2); got != spec || !slices.Equal(dst, specDst) {
			t.Fatalf("trial %d: UpdateValue %.17g %v, its Go specification %.17g %v", trial, got, dst, spec, specDst)
		}
		worst = max(worst, math.Abs(got-want))
		if math.Abs(got-want) > KernelTolerance || got != k.Value(dst) {
			t.Fatalf("trial %d: kernel %.17g (Value of its accumulator %.17g), Forward %.17g", trial, got, k.Value(dst), want)
		}
	}
	t.Logf("largest difference from Forward: %.3g", worst)
}

// TestKernelChecks: a column outside the table, or without its value, is
// refused before the assembly reads it.
func TestKernelChecks(t *testing.T) {
	k := NewKernel(randomNet(t, 4, 10, 1))
	acc, w := make([]float64, k.H), make([]float64, 4*k.H)
	for name, c := range map[string]struct {
		at []int32
		a  []float64
	}{
		"past the end":  {[]int32{int32(3*k.H + 1)}, []float64{1}},
		"negative":      {[]int32{-1}, []float64{1}},
		"with no value": {[]int32{0, int32(k.H)}, []float64{1}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			k.Update(acc, acc, w, c.at, c.a)
		}()
	}
}

// TestKernelNoAllocs: the kernel allocates nothing.
func TestKernelNoAllocs(t *testing.T) {
	net := randomNet(t, 62, 10, 1)
	k := NewKernel(net)
	x := randomInput(rand.New(rand.NewPCG(1, 2)), net.In)
	w, at, a := kernelCase(k, x, 0)
	acc, dst := make([]float64, k.H), make([]float64, k.H)
	s := 0.0
	if n := testing.AllocsPerRun(100, func() {
		k.Update(acc, k.B1, w, at, a)
		s += k.UpdateValue(dst, acc, w, at[:1], a[:1]) + k.Value(acc)
	}); n != 0 {
		t.Errorf("the kernel allocates %v times per run", n)
	}
	sink = s
}

// BenchmarkKernelValue prices a leaf's evaluation by the kernel, beside
// BenchmarkOutput: 62 inputs, 10 hidden units, a move's three columns
// added to an accumulator.
func BenchmarkKernelValue(b *testing.B) {
	net := randomNet(b, 62, 10, 1)
	k := NewKernel(net)
	x := randomInput(rand.New(rand.NewPCG(1, 2)), net.In)
	w, at, a := kernelCase(k, x, 0)
	acc, dst := make([]float64, k.H), make([]float64, k.H)
	k.Update(acc, k.B1, w, at, a)
	s := 0.0
	for b.Loop() {
		s += k.UpdateValue(dst, acc, w, at[:3], a[:3])
	}
	sink = s
}

// TestKernelDeep: for a net of more than one hidden layer the kernel
// updates the first layer and Output finishes the pass: its value is
// Forward's.
func TestKernelDeep(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	for trial, layout := range deepLayouts {
		checkKernelForward(t, deepNet(t, 62, layout, uint64(trial)), rng, fmt.Sprint("layout ", layout))
	}
}

// checkKernelForward fails the test unless the kernel's value of net, on
// an input drawn by rng, is Forward's to KernelTolerance.
func checkKernelForward(t *testing.T, net *Net, rng *rand.Rand, name string) {
	t.Helper()
	k := NewKernel(net)
	x := randomInput(rng, net.In)
	w, at, a := kernelCase(k, x, 0)
	acc := make([]float64, k.H)
	got := k.UpdateValue(acc, k.B1, w, at, a)
	want := net.Forward(x, make([]float64, 2*net.H))
	if math.Abs(got-want) > KernelTolerance || math.Abs(k.Value(acc)-want) > KernelTolerance {
		t.Fatalf("%s: kernel %v, Forward %v", name, got, want)
	}
}
