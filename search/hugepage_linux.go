package search

import (
	"syscall"
	"unsafe"
)

// AdviseHugePages asks the kernel to back a large table, such as the
// transposition table or an evaluation cache, with transparent huge pages
// (MADV_HUGEPAGE; it matters where THP is set to "madvise", the common
// default): a probe then costs one TLB entry per 2 MiB rather than per 4
// KiB. It is a hint; an error leaves ordinary pages. Call it before the
// table is first written.
func AdviseHugePages[T any](table []T) {
	if len(table) == 0 {
		return
	}
	const page = 4096
	size := uintptr(len(table)) * unsafe.Sizeof(table[0])
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&table[0])), size)
	off := -uintptr(unsafe.Pointer(&table[0])) & (page - 1) // to the first page boundary
	if off >= size {
		return
	}
	mem = mem[off : off+(size-off)&^(page-1)]
	if len(mem) == 0 {
		return
	}
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
}
