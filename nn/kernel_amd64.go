//go:build !purego

package nn

import "golang.org/x/sys/cpu"

// hasAsm is whether the processor and the system support AVX and FMA,
// which the assembly uses; without them the kernels are the Go code.
var hasAsm = cpu.X86.HasAVX && cpu.X86.HasFMA

// updateAsm and updateValueAsm are updateGo and updateValueGo (len(dst) a
// multiple of Lanes, every column in w), equal to them bit for bit.
//
//go:noescape
func updateAsm(dst, src, w []float64, at []int32, a []float64)

//go:noescape
func updateValueAsm(dst, src, w []float64, at []int32, a, w2 []float64, b2 float64) float64

// addF32Asm is addF32Go (len(dst) a multiple of Lanes, every column in
// w), equal to it bit for bit.
//
//go:noescape
func addF32Asm(dst, src []float64, w []float32, at []int32, a []float32)
