package writer

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// useSSSE3 enables the SSSE3 kernel (transcode_amd64.s) for clean UCS2
// text; tests turn it off to check the portable path on the same machine.
var useSSSE3 = cpuid.CPU.Has(cpuid.SSSE3)

// ucs2ToUTF8SSSE3 is in transcode_amd64.s.
//
//go:noescape
func ucs2ToUTF8SSSE3(dst *byte, src *uint16, n int) (read, written int)

// ucs2Blocks transcodes the leading blocks of 8 units of the clean UCS2
// text s that are all ASCII or all 3-byte characters to p, 16 bytes at a
// time, and returns the units read and the bytes written; it reads nothing
// when the CPU lacks SSSE3. p has room for 3 bytes a unit of s.
func ucs2Blocks(p unsafe.Pointer, s []uint16) (read, written int) {
	if !useSSSE3 || len(s) < 8 {
		return 0, 0
	}
	return ucs2ToUTF8SSSE3((*byte)(p), &s[0], len(s))
}
