//go:build !purego

package nn

// add sets dst to src + col, Lanes at a time (len(dst) a multiple of
// Lanes; src and col at least as long): addGo in SSE2.
//
//go:noescape
func add(dst, src, col []float64)

// hidden is hiddenGo in SSE2, one lane per partial sum (len(acc) a
// multiple of Lanes).
//
//go:noescape
func hidden(acc, cols, x, w2 []float64) float64
