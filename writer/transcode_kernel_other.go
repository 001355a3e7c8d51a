//go:build !amd64

package writer

import "unsafe"

// useSSSE3 is false where there is no SSSE3 kernel.
var useSSSE3 = false

// ucs2Blocks is the SIMD kernel's hook (transcode_amd64.go); elsewhere the
// SWAR code in transcode.go does all the work.
func ucs2Blocks(p unsafe.Pointer, s []uint16, escape bool, room int) (read, written int) {
	return 0, 0
}

// latin1Blocks: as ucs2Blocks.
func latin1Blocks(p unsafe.Pointer, s []byte, room int) (read, written int) { return 0, 0 }

// latin1Kernel and ucs2Kernel: as ucs2Blocks (never called: useSSSE3 is
// false).
func latin1Kernel(dst, s unsafe.Pointer, n, room int) (read, written int) { return 0, 0 }

func ucs2Kernel(dst, s unsafe.Pointer, n, room int) (read, written int) { return 0, 0 }
