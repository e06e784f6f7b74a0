//go:build !purego

package nn

import "golang.org/x/sys/cpu"

// hasAVX is whether the processor and the system support AVX: the
// kernels are its assembly, and the Go code without it.
var hasAVX = cpu.X86.HasAVX

func update(dst, src, w []float64, at []int32, a []float64) {
	if hasAVX {
		updateAVX(dst, src, w, at, a)
	} else {
		updateGo(dst, src, w, at, a)
	}
}

func updateHidden(dst, src, w []float64, at []int32, a, w2 []float64) float64 {
	if hasAVX {
		return updateHiddenAVX(dst, src, w, at, a, w2)
	}
	return updateHiddenGo(dst, src, w, at, a, w2)
}

func hidden(acc, w2 []float64) float64 {
	if hasAVX {
		return hiddenAVX(acc, w2)
	}
	return hiddenGo(acc, w2)
}

// updateAVX, updateHiddenAVX and hiddenAVX are updateGo, updateHiddenGo
// and hiddenGo, Lanes units per instruction (len(dst) and len(acc) a
// multiple of Lanes, every column in w).
//
//go:noescape
func updateAVX(dst, src, w []float64, at []int32, a []float64)

//go:noescape
func updateHiddenAVX(dst, src, w []float64, at []int32, a, w2 []float64) float64

//go:noescape
func hiddenAVX(acc, w2 []float64) float64
