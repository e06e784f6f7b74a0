//go:build race

package breakthrough

// raceEnabled reports whether the race detector is on, which allocates.
const raceEnabled = true
