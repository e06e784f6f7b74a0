//go:build !purego

package nn

import "golang.org/x/sys/cpu"

// hasAVX is whether the processor and the system support AVX, whose
// kernels take Lanes units per instruction where SSE2's take two.
var hasAVX = cpu.X86.HasAVX

func add(dst, src, col []float64) {
	if hasAVX {
		addAVX(dst, src, col)
	} else {
		addSSE2(dst, src, col)
	}
}

func addScaled(dst, src, col []float64, a float64) {
	if hasAVX {
		addScaledAVX(dst, src, col, a)
	} else {
		addScaledSSE2(dst, src, col, a)
	}
}

func hidden(acc, cols, x, w2 []float64) float64 {
	if hasAVX {
		return hiddenAVX(acc, cols, x, w2)
	}
	return hiddenSSE2(acc, cols, x, w2)
}

// addAVX and addSSE2 set dst to src + col, Lanes at a time (len(dst) a
// multiple of Lanes; src and col at least as long): addGo.
//
//go:noescape
func addAVX(dst, src, col []float64)

//go:noescape
func addSSE2(dst, src, col []float64)

// addScaledAVX and addScaledSSE2 set dst to src + a·col, Lanes at a time:
// addScaledGo.
//
//go:noescape
func addScaledAVX(dst, src, col []float64, a float64)

//go:noescape
func addScaledSSE2(dst, src, col []float64, a float64)

// hiddenAVX and hiddenSSE2 are hiddenGo, one lane per partial sum
// (len(acc) a multiple of Lanes).
//
//go:noescape
func hiddenAVX(acc, cols, x, w2 []float64) float64

//go:noescape
func hiddenSSE2(acc, cols, x, w2 []float64) float64
