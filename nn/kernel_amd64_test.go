//go:build !purego

package nn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelAssembly: where the processor has AVX and FMA, the assembly
// equals its Go specification bit for bit: pre-activations past Act's
// clamp, outputs across tanh's table and past its cut at ±20, NaN.
func TestKernelAssembly(t *testing.T) {
	if !hasAsm {
		t.Skip("no AVX and FMA: the kernels are the Go code")
	}
	rng := rand.New(rand.NewPCG(18, 19))
	for trial := 0; trial < 3000; trial++ {
		net := randomNet(t, 62, []int{1, 10, 15, 2, 30, 64, 80}[trial%7], uint64(trial))
		if trial%3 == 0 {
			for i := range net.W1 {
				net.W1[i] *= 8
			}
		}
		net.B2 = []float64{0, 3, -7, 25}[trial%4] * rng.Float64()
		k := NewKernel(net)
		x := randomInput(rng, net.In)
		w, at, a := kernelCase(k, x, 0)
		acc, spec := make([]float64, k.H), make([]float64, k.H)
		updateAsm(acc, k.B1, w, at, a)
		updateGo(spec, k.B1, w, at, a)
		if !slices.Equal(acc, spec) {
			t.Fatalf("trial %d: updateAsm %v, updateGo %v", trial, acc, spec)
		}
		n := rng.IntN(min(len(at), 4) + 1)
		dst, specDst := make([]float64, k.H), make([]float64, k.H)
		g := updateValueAsm(dst, acc, w, at[:n], a[:n], k.W2, net.B2)
		s := updateValueGo(specDst, acc, w, at[:n], a[:n], k.W2, net.B2)
		if g != s || !slices.Equal(dst, specDst) {
			t.Fatalf("trial %d: updateValueAsm %.17g %v, updateValueGo %.17g %v", trial, g, dst, s, specDst)
		}
	}
	zero := make([]float64, Lanes)
	for _, b2 := range []float64{math.NaN(), math.Inf(-1), -20, math.Nextafter(-20, 0), 0, math.Copysign(0, -1), 19.99, 20, 1e300} {
		g := updateValueAsm(zero, zero, nil, nil, nil, zero, b2)
		s := updateValueGo(zero, zero, nil, nil, nil, zero, b2)
		if math.Float64bits(g) != math.Float64bits(s) && !(math.IsNaN(g) && math.IsNaN(s)) {
			t.Errorf("output %v: updateValueAsm %.17g, updateValueGo %.17g", b2, g, s)
		}
	}
}

// TestAddF32Assembly: where the processor has AVX and FMA, addF32Asm
// equals addF32Go bit for bit, for every count of units the blocks,
// eights and four cover; where it has AVX-512 too, so do addF32Asm512
// over its blocks of eighty units and AddValue32's sums (its blocks, then
// addF32Asm's) over every unit.
func TestAddF32Assembly(t *testing.T) {
	if !hasAsm {
		t.Skip("no AVX and FMA: the kernels are the Go code")
	}
	rng := rand.New(rand.NewPCG(36, 37))
	for trial := 0; trial < 3000; trial++ {
		h := 4 * (1 + trial%60)
		w, at, a, src := f32Case(rng, h)
		got, want := make([]float64, h), make([]float64, h)
		addF32Go(want, src, w, at, a)
		addF32Asm(got, src, w, at, a)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d units, %d terms): addF32Asm %v, addF32Go %v", trial, h, len(at), got, want)
		}
		if !has512 {
			continue
		}
		if n := h / 80 * 80; n > 0 {
			clear(got)
			addF32Asm512(got[:n], src[:n], w, at, a)
			if !slices.Equal(got[:n], want[:n]) {
				t.Fatalf("trial %d (%d units, %d terms): addF32Asm512 %v, addF32Go %v", trial, h, len(at), got[:n], want[:n])
			}
		}
		clear(got)
		addF32(got, src, w, at, a)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d units, %d terms): addF32 %v, addF32Go %v", trial, h, len(at), got, want)
		}
	}
	if !has512 {
		t.Log("no AVX-512: addF32Asm512 not tested")
	}
}

// f32Case returns a random case of h units for the float32 kernels: up to
// 50 inputs' columns w, the terms at and a of about two thirds of them,
// and an accumulator src.
func f32Case(rng *rand.Rand, h int) (w []float32, at []int32, a []float32, src []float64) {
	in := 1 + rng.IntN(50)
	w = make([]float32, in*h)
	for i := range w {
		w[i] = float32(rng.NormFloat64() * math.Ldexp(1, rng.IntN(8)-4))
	}
	for i := 0; i < in; i++ {
		if rng.IntN(3) > 0 {
			at, a = append(at, int32(i*h)), append(a, float32(rng.Float64()*float64(rng.IntN(16))))
		}
	}
	src = make([]float64, h)
	for j := range src {
		src[j] = rng.NormFloat64()
	}
	return w, at, a, src
}

// TestInt32Assembly: where the processor has AVX2, addInt32Asm equals
// addInt32Go, for every count of units its blocks and fours cover, with
// sums that wrap past int32's range; and int32ToF64Asm equals
// int32ToF64Go bit for bit, over int32's range and every scale a caller
// may use.
func TestInt32Assembly(t *testing.T) {
	if !hasInt {
		t.Skip("no AVX2: the kernels are the Go code")
	}
	rng := rand.New(rand.NewPCG(42, 43))
	for trial := 0; trial < 3000; trial++ {
		h := 4 * (1 + trial%60)
		in := 1 + rng.IntN(30)
		w := make([]int32, in*h)
		for i := range w {
			w[i] = int32(rng.Uint32()) >> rng.IntN(32)
		}
		var plus, minus []int32
		for i := 0; i < in; i++ {
			switch rng.IntN(3) {
			case 0:
				plus = append(plus, int32(i*h))
			case 1:
				minus = append(minus, int32(i*h))
			}
		}
		src := make([]int32, h)
		for j := range src {
			src[j] = int32(rng.Uint32())
		}
		got, want := make([]int32, h), make([]int32, h)
		addInt32Go(want, src, w, plus, minus)
		addInt32Asm(got, src, w, plus, minus)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d units, %d+%d columns): addInt32Asm %v, addInt32Go %v", trial, h, len(plus), len(minus), got, want)
		}
		b1 := make([]float64, h)
		for j := range b1 {
			b1[j] = rng.NormFloat64()
		}
		scale := math.Ldexp(1, -rng.IntN(40))
		f, g := make([]float64, h), make([]float64, h)
		int32ToF64Go(g, got, b1, scale)
		int32ToF64Asm(f, got, b1, scale)
		if !slices.Equal(f, g) {
			t.Fatalf("trial %d (%d units): int32ToF64Asm %v, int32ToF64Go %v", trial, h, f, g)
		}
	}
}

// TestHiddenF32Assembly: where the processor has AVX and FMA,
// hiddenF32Asm equals hiddenF32Go bit for bit, for pre-activations of
// every scale (past the clamp, and small enough to round to float32's
// subnormals), and act32 is within 2e-7 of Act.
func TestHiddenF32Assembly(t *testing.T) {
	if !hasAsm {
		t.Skip("no AVX and FMA: the kernels are the Go code")
	}
	rng := rand.New(rand.NewPCG(44, 45))
	for trial := 0; trial < 3000; trial++ {
		h := 4 * (1 + trial%60)
		acc, w2 := make([]float64, h), make([]float64, h)
		for j := range acc {
			acc[j] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(60)-50)
			w2[j] = rng.NormFloat64()
			if d := math.Abs(float64(act32(acc[j])) - Act(acc[j])); d > 2e-7 {
				t.Fatalf("act32(%g) = %g, Act %g", acc[j], act32(acc[j]), Act(acc[j]))
			}
		}
		if got, want := hiddenF32Asm(acc, w2), hiddenF32Go(acc, w2); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("trial %d (%d units): hiddenF32Asm %.17g, hiddenF32Go %.17g", trial, h, got, want)
		}
	}
}
