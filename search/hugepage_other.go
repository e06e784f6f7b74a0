//go:build !linux

package search

// adviseHugePages does nothing where the kernel offers no such hint.
func adviseHugePages([]ttBucket) {}
