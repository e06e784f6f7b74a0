package nn

import "math"

// Column32 writes input i's first-layer weights, padded, into dst (len
// H), each rounded to float32: the column AddValue32 reads.
func (k *Kernel) Column32(dst []float32, i int) {
	dst = dst[:k.H]
	for j, w := range k.net.W1[i*k.net.H:][:k.net.H] {
		dst[j] = float32(w)
	}
	clear(dst[k.net.H:])
}

// AddValue32 sets dst to src plus, per unit, Σ a[i]·w[at[i]:][:H] summed
// in float32 with a fused multiply-add per term (from 0, in order), and
// returns Value(dst): the value of an accumulator src (len H) with inputs
// of float32 weights added, such as a backgammon net's features, which
// change with the whole position and are added afresh at every value.
// In float32 the sum takes a quarter of Update's arithmetic (eight lanes
// to a register, one instruction a term); it rounds the added part to
// within about 1e-7 of itself, and src is added to it in float64, so
// that dst follows src exactly where the terms are the same. dst may be
// src.
func (k *Kernel) AddValue32(dst, src []float64, w []float32, at []int32, a []float32) float64 {
	k.check32(w, at, a)
	addF32(dst[:k.H], src[:k.H], w, at, a)
	return k.Value(dst)
}

// check32 panics unless every column at[i] lies in w and has its a[i]:
// the assembly reads them unchecked.
func (k *Kernel) check32(w []float32, at []int32, a []float32) {
	_ = a[:len(at)]
	for _, o := range at {
		_ = w[int(o):][:k.H]
	}
}

// addF32 is addF32Go by the assembly where the processor has it: eighty
// units at a time in AVX-512 registers where it has those, the rest in
// AVX registers.
func addF32(dst, src []float64, w []float32, at []int32, a []float32) {
	if !hasAsm {
		addF32Go(dst, src, w, at, a)
		return
	}
	n := 0
	if has512 {
		if n = len(dst) / 80 * 80; n > 0 {
			addF32Asm512(dst[:n], src[:n], w, at, a)
		}
	}
	if n < len(dst) {
		addF32Asm(dst[n:], src[n:], w[n:], at, a)
	}
}

// addF32Go is addF32 in Go: the specification of the assembly.
func addF32Go(dst, src []float64, w []float32, at []int32, a []float32) {
	src = src[:len(dst)]
	for j := range dst {
		var s float32
		for i, o := range at {
			s = fma32(a[i], w[int(o)+j], s)
		}
		dst[j] = src[j] + float64(s)
	}
}

// fma32 returns a·b + c rounded once to float32, as the processor's fused
// multiply-add computes it. a·b is exact in float64; the sum with c is
// taken in float64 rounded to odd (its rounding error kept as the last
// bit), which rounds to float32 as the exact sum does (Boldo and
// Melquiond, "Emulation of FMA and correctly rounded sums: proved
// algorithms using rounding to odd", 2008: 53 bits ≥ 24 + 2).
func fma32(a, b, c float32) float32 {
	p := float64(float64(a) * float64(b))
	x := float64(c)
	s := float64(p + x)
	// the exact error of s (Knuth's TwoSum)
	bv := float64(s - p)
	e := float64(float64(p-float64(s-bv)) + float64(x-bv))
	if e != 0 && !math.IsInf(s, 0) {
		if u := math.Float64bits(s); u&1 == 0 {
			if (e > 0) == (s > 0) {
				u++ // away from zero, toward the exact sum
			} else {
				u--
			}
			s = math.Float64frombits(u)
		}
	}
	return float32(s)
}
