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
func ucs2ToUTF8SSSE3(dst *byte, src *uint16, n int, mix *ucs2MixTable, escape bool, room int) (read, written int)

// ucs2MixTable holds the shuffles that compress 4 units of ASCII and
// 3-byte characters (as first, second and third bytes in two registers:
// firsts at 0-7 and seconds at 8-15 of one, thirds at 0-7 of the other) into
// their UTF-8, chosen by the half of the 8-unit block (0: units 0-3) and
// which of its units are ASCII (bit k: unit k of the half), and the length
// of the result. The assembly reads it at fixed offsets: masks at 0, lens
// at 1024.
//
// masks2 and lens2 are the same for a mix of ASCII and 2-byte characters,
// from one register of 16-bit lanes (a 2-byte character's two bytes, an
// ASCII unit's one byte in the low half).
type ucs2MixTable struct {
	masks  [2][16][2][16]byte // [half][ascii][register]
	lens   [16]byte           // [ascii]
	masks2 [2][16][16]byte    // [half][ascii]
	lens2  [16]byte           // [ascii]
}

// The assembly's offsets, checked when compiling: an index out of range.
var (
	_ = [1]int{}[unsafe.Offsetof(ucs2MixTable{}.lens)-1024]
	_ = [1]int{}[unsafe.Offsetof(ucs2MixTable{}.masks2)-1040]
	_ = [1]int{}[unsafe.Offsetof(ucs2MixTable{}.lens2)-1552]
)

var ucs2Mix = func() (t ucs2MixTable) {
	const zero = 0x80 // a shuffle index with the top bit set gives 0
	for half := range 2 {
		for ascii := range 16 {
			m := &t.masks[half][ascii]
			for j := range 16 {
				m[0][j], m[1][j] = zero, zero
			}
			n := 0
			for k := range 4 {
				u := byte(4*half + k)
				if ascii>>k&1 != 0 {
					m[0][n] = u
					n++
					continue
				}
				m[0][n], m[0][n+1], m[1][n+2] = u, 8+u, u
				n += 3
			}
			t.lens[ascii] = byte(n)
			m2 := &t.masks2[half][ascii]
			for j := range 16 {
				m2[j] = zero
			}
			n = 0
			for k := range 4 {
				u := byte(4*half + k)
				m2[n] = 2 * u
				n++
				if ascii>>k&1 == 0 {
					m2[n] = 2*u + 1
					n++
				}
			}
			if half == 0 {
				t.lens2[ascii] = byte(n)
			}
		}
	}
	return t
}()

// ucs2Blocks transcodes the leading blocks of 8 units of the UCS2 text s
// that hold only ASCII with 2-byte or with 3-byte characters (and, with
// escape, nothing to escape) to p, and returns the units read and the bytes
// written; without escape the last 1 to 7 units too, as one padded block,
// when room (the bytes free at p) allows. It reads nothing when the CPU
// lacks SSSE3. p has room for maxEscapeLen bytes a unit of s.
func ucs2Blocks(p unsafe.Pointer, s []uint16, escape bool, room int) (read, written int) {
	if !useSSSE3 || len(s) == 0 {
		return 0, 0
	}
	return ucs2ToUTF8SSSE3((*byte)(p), &s[0], len(s), &ucs2Mix, escape, room)
}

// latin1ToUTF8SSSE3 is in transcode_amd64.s.
//
//go:noescape
func latin1ToUTF8SSSE3(dst, src *byte, n int, mix *ucs2MixTable, room int) (read, written int)

// latin1Blocks transcodes the Latin-1 text s (no escaping) to p in blocks
// of 8 bytes, the last 1 to 7 as one padded block when room (the bytes free
// at p) allows, and returns the bytes read and written; it reads nothing
// when the CPU lacks SSSE3. p has room for maxEscapeLen bytes a byte of s.
func latin1Blocks(p unsafe.Pointer, s []byte, room int) (read, written int) {
	if !useSSSE3 || len(s) == 0 {
		return 0, 0
	}
	return latin1ToUTF8SSSE3((*byte)(p), &s[0], len(s), &ucs2Mix, room)
}

// latin1Kernel and ucs2Kernel are latin1Blocks and ucs2Blocks (clean text)
// for textTo's str path: small enough to inline, with no slice made. The
// caller has checked useSSSE3 and n > 0; room is the bytes free at dst.
func latin1Kernel(dst, s unsafe.Pointer, n, room int) (read, written int) {
	return latin1ToUTF8SSSE3((*byte)(dst), (*byte)(s), n, &ucs2Mix, room)
}

func ucs2Kernel(dst, s unsafe.Pointer, n, room int) (read, written int) {
	return ucs2ToUTF8SSSE3((*byte)(dst), (*uint16)(s), n, &ucs2Mix, false, room)
}
