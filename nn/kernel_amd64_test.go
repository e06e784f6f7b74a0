//go:build !purego

package nn

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelAssembly: the SSE2 kernels and, where the processor has AVX,
// the AVX ones equal their Go specifications bit for bit, pre-activations
// past Act's clamp included.
func TestKernelAssembly(t *testing.T) {
	if !hasAVX {
		t.Log("no AVX: its kernels are not tested here")
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
		s := []int{0, 1, 4, 12}[trial%4]
		acc, cols := kernelCase(k, x, s)
		want := hiddenGo(acc, cols, x[:s], k.W2)
		if got := hiddenSSE2(acc, cols, x[:s], k.W2); got != want {
			t.Fatalf("trial %d: hiddenSSE2 %.17g, hiddenGo %.17g", trial, got, want)
		}
		if hasAVX {
			if got := hiddenAVX(acc, cols, x[:s], k.W2); got != want {
				t.Fatalf("trial %d: hiddenAVX %.17g, hiddenGo %.17g", trial, got, want)
			}
		}
		col := make([]float64, k.H)
		k.Column(col, rng.IntN(net.In))
		spec, dst := make([]float64, k.H), make([]float64, k.H)
		addGo(spec, acc, col)
		if addSSE2(dst, acc, col); !slices.Equal(dst, spec) {
			t.Fatalf("trial %d: addSSE2 %v, addGo %v", trial, dst, spec)
		}
		if hasAVX {
			if addAVX(dst, acc, col); !slices.Equal(dst, spec) {
				t.Fatalf("trial %d: addAVX %v, addGo %v", trial, dst, spec)
			}
		}
		a := rng.Float64() - 0.5
		addScaledGo(spec, acc, col, a)
		if addScaledSSE2(dst, acc, col, a); !slices.Equal(dst, spec) {
			t.Fatalf("trial %d: addScaledSSE2 %v, addScaledGo %v", trial, dst, spec)
		}
		if hasAVX {
			if addScaledAVX(dst, acc, col, a); !slices.Equal(dst, spec) {
				t.Fatalf("trial %d: addScaledAVX %v, addScaledGo %v", trial, dst, spec)
			}
		}
	}
}
