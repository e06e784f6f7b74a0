//go:build !amd64

package search

// prefetch is a no-op where no prefetch instruction is wired up.
func prefetch(uintptr) {}
