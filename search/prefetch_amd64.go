package search

import "unsafe"

// prefetch asks the processor to bring the cache line at addr into its
// caches without waiting for it (PREFETCHT0): a hint, never a fault.
//
//go:noescape
func prefetch(addr uintptr)

// Prefetch asks the processor to bring the cache line at p into its
// caches without waiting for it: a hint for a table slot that a search
// will read soon (the transposition table's, an evaluator's cache).
func Prefetch(p unsafe.Pointer) { prefetch(uintptr(p)) }
