//go:build !amd64 || purego

package nn

func update(dst, src, w []float64, at []int32, a []float64) { updateGo(dst, src, w, at, a) }

func updateHidden(dst, src, w []float64, at []int32, a, w2 []float64) float64 {
	return updateHiddenGo(dst, src, w, at, a, w2)
}

func hidden(acc, w2 []float64) float64 { return hiddenGo(acc, w2) }
