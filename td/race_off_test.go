//go:build !race

package td

// raceEnabled reports whether the race detector is on: a test too slow
// under it runs in make test's plain pass instead.
const raceEnabled = false
