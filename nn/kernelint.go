package nn

// AddInt32 sets dst to src plus the columns w[o:][:len(dst)] of each
// offset o in plus, less those of each o in minus: an accumulator of
// fixed-point weights, updated in integer arithmetic. The sum is exact
// while it stays within int32, so it is the same whatever the order and
// the path of the updates that made it: an accumulator followed play by
// play equals one built afresh. dst may be src.
func AddInt32(dst, src, w []int32, plus, minus []int32) {
	src = src[:len(dst)]
	for _, o := range plus {
		_ = w[int(o):][:len(dst)]
	}
	for _, o := range minus {
		_ = w[int(o):][:len(dst)]
	}
	if hasInt && len(dst)%Lanes == 0 {
		addInt32Asm(dst, src, w, plus, minus)
		return
	}
	addInt32Go(dst, src, w, plus, minus)
}

// addInt32Go is AddInt32 in Go: the specification of the assembly.
func addInt32Go(dst, src, w []int32, plus, minus []int32) {
	src = src[:len(dst)]
	for j := range dst {
		s := src[j]
		for _, o := range plus {
			s += w[int(o)+j]
		}
		for _, o := range minus {
			s -= w[int(o)+j]
		}
		dst[j] = s
	}
}

// ValueInt32 returns the value of a fixed-point accumulator acc (len H):
// dst (len H) is set to B1 + scale·acc per unit, scale a power of two (so
// that the product is exact and one rounding makes each unit), the
// float32 terms are added as AddValue32 adds them, and the value is
// Value's with the activations in float32 (valueF32), each within 2e-7 of
// Act's.
func (k *Kernel) ValueInt32(dst []float64, acc []int32, scale float64, w []float32, at []int32, a []float32) float64 {
	dst, acc = dst[:k.H], acc[:k.H]
	if hasAsm {
		int32ToF64Asm(dst, acc, k.B1, scale)
	} else {
		int32ToF64Go(dst, acc, k.B1, scale)
	}
	if len(at) > 0 {
		k.check32(w, at, a)
		addF32(dst, dst, w, at, a)
	}
	return k.valueF32(dst)
}

// int32ToF64Go sets dst[j] to b1[j] + scale·acc[j]: ValueInt32's first
// step in Go, the specification of the assembly.
func int32ToF64Go(dst []float64, acc []int32, b1 []float64, scale float64) {
	acc, b1 = acc[:len(dst)], b1[:len(dst)]
	for j := range dst {
		dst[j] = b1[j] + float64(float64(acc[j])*scale)
	}
}

// act32 is Act in float32 arithmetic, on x rounded to float32: clamped to
// [-3, 3], then p·(27 + p·p) / (27 + 9·p·p), each operation rounded to
// float32 (the conversions keep the compiler from fusing any). Its values
// are within 2e-7 of Act's (TestHiddenF32Assembly).
func act32(x float64) float32 {
	p := min(max(float32(x), -3), 3)
	p2 := float32(p * p)
	return float32(p*float32(27+p2)) / float32(27+float32(9*p2))
}

// hiddenF32Go is hiddenGo with act32 for Act: the sum of W2[j]·act32(acc[j])
// in float64 over the hidden units j, in Lanes partial sums added last as
// hiddenGo adds them. The specification of hiddenF32Asm.
func hiddenF32Go(acc, w2 []float64) float64 {
	w2 = w2[:len(acc)]
	var sum [Lanes]float64
	for j := 0; j < len(acc); j += Lanes {
		for l := range Lanes {
			sum[l] += float64(w2[j+l] * float64(act32(acc[j+l])))
		}
	}
	return (sum[0] + sum[2]) + (sum[1] + sum[3])
}

// valueF32 is Value(acc) with the hidden units' activations computed by
// act32, four units to a division of float32 lanes (a net whose value
// Output computes, byOutput, is Output's).
func (k *Kernel) valueF32(acc []float64) float64 {
	if k.byOutput() {
		return k.net.Output(acc[:k.net.H])
	}
	var s float64
	if hasAsm {
		s = hiddenF32Asm(acc[:k.H], k.W2)
	} else {
		s = hiddenF32Go(acc[:k.H], k.W2)
	}
	return k.ofTanh(tanh(k.b2 + s))
}
