package nn

import "math"

// tanh is math.Tanh within 1e-15 (tested) at well under its latency,
// which a search's leaf waits for: (e - 1)/(e + 1) for e = exp(2x), by
// Tang's table method (Tang 1989, "Table-driven implementation of the
// exponential function in IEEE floating-point arithmetic"): e = 2^(k/64) ·
// exp(r), with r = 2x - k·ln2/64 in [-ln2/128, ln2/128], 2^(j/64) from a
// table and exp(r) by its Taylor polynomial of degree 5 (the next term is
// below 4e-17) in Estrin's scheme, with fused multiply-adds (math.FMA,
// exact everywhere and one instruction where the processor has it).
// math.Tanh takes a branch between two formulas, and math.Exp's
// polynomial of degree 8 and four squarings in sequence. Near 0, where
// math.Tanh keeps the relative error small with a rational function, the
// absolute error stays below 1e-15, which is what a value in [-1, 1]
// needs. From |x| = 20 the value is ±1 to the last bit.
func tanh(x float64) float64 {
	if !(x < 20 && x > -20) { // or NaN
		if x != x {
			return x
		}
		return math.Copysign(1, x)
	}
	// k = round(2x·64/ln2), by the float64 rounding of adding 1.5·2^52.
	const round = 0x1.8p52
	kf := math.FMA(x, 128/math.Ln2, round)
	k := int64(math.Float64bits(kf)) - int64(math.Float64bits(round))
	kf -= round
	// r = 2x - k·ln2/64 in one rounding: |k| < 2^12, so the error of
	// ln2/64 itself moves r by less than 1e-19.
	r := math.FMA(-kf, math.Ln2/64, 2*x)
	// s = 2^(k/64): the table's 2^(j/64) for j = k mod 64, its exponent
	// moved by floor(k/64).
	s := math.Float64frombits(uint64(int64(math.Float64bits(exp2By64[k&63])) + k>>6<<52))
	// e = s·exp(r) = s·(1 + r) + s·r²·(1/2 + r/6 + r²·(1/24 + r/120)).
	r2 := r * r
	b := math.FMA(r2, math.FMA(r, 1.0/120, 1.0/24), math.FMA(r, 1.0/6, 0.5))
	e := math.FMA(s*r2, b, math.FMA(s, r, s))
	return (e - 1) / (e + 1)
}

// exp2By64[j] is 2^(j/64).
var exp2By64 = func() (t [64]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / 64)
	}
	return t
}()
