package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestValueInt32: an accumulator of fixed-point columns (each column
// a[i]·W1[i] rounded to a multiple of 2^-24, as a caller makes them),
// updated by AddInt32 in random orders and paths, is the same integers
// whichever way it was made, and ValueInt32 of it is within the columns'
// rounding of Value of the float64 accumulator of the same input.
func TestValueInt32(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 41))
	const bits = 24
	scale := math.Ldexp(1, -bits)
	for trial := 0; trial < 300; trial++ {
		h := []int{1, 4, 8, 12, 40, 44, 80, 88, 128}[trial%9]
		net := randomNet(t, 30, h, uint64(trial))
		k := NewKernel(net)
		x := randomInput(rng, net.In)
		w, at, a := kernelCase(k, x, 0)
		q := make([]int32, len(at)*k.H) // term i's column, rounded
		plus := make([]int32, len(at))
		for i, o := range at {
			for j := 0; j < k.H; j++ {
				q[i*k.H+j] = int32(math.Round(math.Ldexp(a[i]*w[int(o)+j], bits)))
			}
			plus[i] = int32(i * k.H)
		}
		acc := make([]int32, k.H)
		AddInt32(acc, acc, q, plus, nil)
		// another path: add every term and two more, take the two out
		other := make([]int32, k.H)
		perm := rng.Perm(len(plus))
		for _, i := range perm {
			AddInt32(other, other, q, plus[i:i+1], nil)
		}
		if len(plus) >= 2 {
			extra := []int32{plus[perm[0]], plus[perm[1]]}
			AddInt32(other, other, q, extra, nil)
			AddInt32(other, other, q, nil, extra)
		}
		for j := range acc {
			if acc[j] != other[j] {
				t.Fatalf("trial %d: unit %d is %d by one path, %d by another", trial, j, acc[j], other[j])
			}
		}
		ref := make([]float64, k.H)
		k.Update(ref, k.B1, w, at, a)
		want := k.Value(ref)
		got := k.ValueInt32(make([]float64, k.H), acc, scale, nil, nil, nil)
		// each column rounds by at most 2^-25 per unit
		if d := math.Abs(got - want); d > float64(len(at)+1)*math.Ldexp(1, -bits)*float64(h) {
			t.Fatalf("trial %d: ValueInt32 %.17g, Value %.17g", trial, got, want)
		}
	}
}
