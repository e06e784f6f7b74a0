//go:build !race

package dice

// raceEnabled reports whether the race detector is on; slow tests run
// smaller samples under it.
const raceEnabled = false
