//go:build !purego

package nn

import "golang.org/x/sys/cpu"

// hasAsm is whether the processor and the system support AVX and FMA,
// which the assembly uses; without them the kernels are the Go code.
var hasAsm = cpu.X86.HasAVX && cpu.X86.HasFMA

// has512 is whether the processor and the system support AVX-512 (F and
// DQ), which addF32Asm512 uses.
var has512 = hasAsm && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

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

// addF32Asm512 is addF32Asm over the first len(dst)/80·80 units, eighty
// at a time in AVX-512 registers, equal to it bit for bit (each unit's
// sum is one lane's, in the same order).
//
//go:noescape
func addF32Asm512(dst, src []float64, w []float32, at []int32, a []float32)

// hasInt is whether the processor and the system support AVX2, whose
// integer adds addInt32Asm uses.
var hasInt = hasAsm && cpu.X86.HasAVX2

// addInt32Asm is addInt32Go (len(dst) a multiple of Lanes, every column
// in w), equal to it.
//
//go:noescape
func addInt32Asm(dst, src, w []int32, plus, minus []int32)

// int32ToF64Asm is int32ToF64Go (len(dst) a multiple of Lanes), equal to
// it bit for bit.
//
//go:noescape
func int32ToF64Asm(dst []float64, acc []int32, b1 []float64, scale float64)

// hiddenF32Asm is hiddenF32Go (len(acc) a multiple of Lanes), equal to it
// bit for bit.
//
//go:noescape
func hiddenF32Asm(acc, w2 []float64) float64
