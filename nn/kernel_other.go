//go:build !amd64 || purego

package nn

func add(dst, src, col []float64) { addGo(dst, src, col) }

func addScaled(dst, src, col []float64, a float64) { addScaledGo(dst, src, col, a) }

func hidden(acc, cols, x, w2 []float64) float64 { return hiddenGo(acc, cols, x, w2) }
