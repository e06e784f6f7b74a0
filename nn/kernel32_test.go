package nn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestFMA32: fma32 is a·b + c rounded once to float32, the exact sum
// rounded by math/big, on random operands of every scale and on sums that
// cancel to the last bits, and on sums that rounding twice (to float64,
// then float32) would round the wrong way.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 33))
	f := func() float32 {
		return float32((rng.Float64()*2 - 1) * math.Ldexp(1, rng.IntN(40)-20))
	}
	exact := func(a, b, c float32) float32 {
		x := new(big.Float).SetPrec(200).SetFloat64(float64(a))
		x.Mul(x, new(big.Float).SetPrec(200).SetFloat64(float64(b)))
		x.Add(x, new(big.Float).SetPrec(200).SetFloat64(float64(c)))
		r, _ := x.Float32()
		return r
	}
	for i := 0; i < 300000; i++ {
		a, b, c := f(), f(), f()
		switch i % 3 {
		case 1: // c cancels most of a·b
			c = -float32(float64(a) * float64(b))
		case 2: // a·b just under half a unit of c's last place: the sum
			// rounds in float64 to a tie of float32 that it is not
			c = float32(math.Ldexp(float64(1<<23+2*rng.IntN(1<<22)+1), rng.IntN(40)-43))
			half := math.Ldexp(1, math.Ilogb(float64(c))-24)
			a, b = float32(half*(1+0x1p-23)), float32(1-0x1p-23)
			if rng.IntN(2) == 0 {
				a, c = -a, -c
			}
		}
		if got, want := fma32(a, b, c), exact(a, b, c); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fma32(%g, %g, %g) = %g, exact %g", a, b, c, got, want)
		}
	}
}

// TestAddValue32: AddValue32 adds the float32 columns' sum to the
// accumulator and values it, within float32's rounding (1e-5) of
// UpdateValue's float64 value of the same terms.
func TestAddValue32(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 35))
	for trial := 0; trial < 500; trial++ {
		h := []int{1, 4, 8, 12, 40, 44, 80, 88, 128}[trial%9]
		net := randomNet(t, 30, h, uint64(trial))
		k := NewKernel(net)
		x := randomInput(rng, net.In)
		w, at, a := kernelCase(k, x, 0)
		w32, a32 := make([]float32, len(w)), make([]float32, len(a))
		for i := range x {
			k.Column32(w32[i*k.H:], i)
		}
		for i, v := range a {
			a32[i] = float32(v)
		}
		got := k.AddValue32(make([]float64, k.H), k.B1, w32, at, a32)
		want := k.UpdateValue(make([]float64, k.H), k.B1, w, at, a)
		if math.Abs(got-want) > 1e-5 {
			t.Fatalf("trial %d (%d hidden): AddValue32 %v, UpdateValue %v", trial, h, got, want)
		}
	}
}
