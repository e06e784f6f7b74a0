//go:build !amd64 || purego

package nn

// hasAsm is false: the kernels are the Go code.
const hasAsm = false

func updateAsm(dst, src, w []float64, at []int32, a []float64) { panic("no assembly") }

func updateValueAsm(dst, src, w []float64, at []int32, a, w2 []float64, b2 float64) float64 {
	panic("no assembly")
}

func addF32Asm(dst, src []float64, w []float32, at []int32, a []float32) { panic("no assembly") }

const has512 = false

func addF32Asm512(dst, src []float64, w []float32, at []int32, a []float32) { panic("no assembly") }

const hasInt = false

func addInt32Asm(dst, src, w []int32, plus, minus []int32) { panic("no assembly") }

func int32ToF64Asm(dst []float64, acc []int32, b1 []float64, scale float64) { panic("no assembly") }

func hiddenF32Asm(acc, w2 []float64) float64 { panic("no assembly") }
