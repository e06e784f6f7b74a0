//go:build !purego

package nn

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelAssembly: where the processor has AVX, the assembly equals
// its Go specification bit for bit, pre-activations past Act's clamp
// included (TestKernel compares whichever the processor runs).
func TestKernelAssembly(t *testing.T) {
	if !hasAVX {
		t.Skip("no AVX: the kernels are the Go code")
	}
	rng := rand.New(rand.NewPCG(18, 19))
	for trial := 0; trial < 300; trial++ {
		net := randomNet(t, 62, []int{1, 10, 15, 2, 30}[trial%5], uint64(trial))
		if trial%3 == 0 {
			for i := range net.W1 {
				net.W1[i] *= 8
			}
		}
		k := NewKernel(net)
		x := randomInput(rng, net.In)
		w, at, a := kernelCase(k, x, 0)
		acc, spec := make([]float64, k.H), make([]float64, k.H)
		updateAVX(acc, k.B1, w, at, a)
		updateGo(spec, k.B1, w, at, a)
		if !slices.Equal(acc, spec) {
			t.Fatalf("trial %d: updateAVX %v, updateGo %v", trial, acc, spec)
		}
		if g, s := hiddenAVX(acc, k.W2), hiddenGo(acc, k.W2); g != s {
			t.Fatalf("trial %d: hiddenAVX %.17g, hiddenGo %.17g", trial, g, s)
		}
		n := rng.IntN(min(len(at), 4) + 1)
		dst, specDst := make([]float64, k.H), make([]float64, k.H)
		g, s := updateHiddenAVX(dst, acc, w, at[:n], a[:n], k.W2), updateHiddenGo(specDst, acc, w, at[:n], a[:n], k.W2)
		if g != s || !slices.Equal(dst, specDst) {
			t.Fatalf("trial %d: updateHiddenAVX %.17g %v, updateHiddenGo %.17g %v", trial, g, dst, s, specDst)
		}
	}
}
