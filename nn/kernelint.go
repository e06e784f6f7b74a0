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
// that the product is exact and one rounding makes each unit), then it
// goes on as AddValue32(dst, dst, w, at, a), adding the float32 terms
// (as Value(dst) where there are none).
func (k *Kernel) ValueInt32(dst []float64, acc []int32, scale float64, w []float32, at []int32, a []float32) float64 {
	dst, acc = dst[:k.H], acc[:k.H]
	if hasAsm {
		int32ToF64Asm(dst, acc, k.B1, scale)
	} else {
		int32ToF64Go(dst, acc, k.B1, scale)
	}
	if len(at) == 0 {
		return k.Value(dst)
	}
	return k.AddValue32(dst, dst, w, at, a)
}

// int32ToF64Go sets dst[j] to b1[j] + scale·acc[j]: ValueInt32's first
// step in Go, the specification of the assembly.
func int32ToF64Go(dst []float64, acc []int32, b1 []float64, scale float64) {
	acc, b1 = acc[:len(dst)], b1[:len(dst)]
	for j := range dst {
		dst[j] = b1[j] + float64(float64(acc[j])*scale)
	}
}
