//go:build !amd64

package search

import "unsafe"

// prefetch is a no-op where no prefetch instruction is wired up.
func prefetch(uintptr) {}

// Prefetch is a no-op where no prefetch instruction is wired up.
func Prefetch(unsafe.Pointer) {}
