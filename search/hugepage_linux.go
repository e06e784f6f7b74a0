package search

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks the kernel to back the table with transparent huge
// pages (MADV_HUGEPAGE; it matters where THP is set to "madvise", the
// common default): a probe then costs one TLB entry per 2 MiB rather than
// per 4 KiB. It is a hint; an error leaves ordinary pages.
func adviseHugePages(buckets []ttBucket) {
	if len(buckets) == 0 {
		return
	}
	const page = 4096
	size := uintptr(len(buckets)) * unsafe.Sizeof(buckets[0])
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&buckets[0])), size)
	off := -uintptr(unsafe.Pointer(&buckets[0])) & (page - 1) // to the first page boundary
	if off >= size {
		return
	}
	mem = mem[off : off+(size-off)&^(page-1)]
	if len(mem) == 0 {
		return
	}
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
}
