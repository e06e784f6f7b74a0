//go:build !linux

package search

// AdviseHugePages does nothing where the kernel offers no such hint.
func AdviseHugePages[T any]([]T) {}
