//go:build race

package main

// raceEnabled reports whether the race detector is on: tests that check
// text and figures, not concurrency, and run twenty times slower under it,
// run in make test's pass without it instead.
const raceEnabled = true
