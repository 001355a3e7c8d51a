//go:build goexperiment.simd && amd64

package scalar

import "simd/archsimd"

// The parser's inline vector scan with GOEXPERIMENT=simd: simd/archsimd's
// operations compile to single instructions inside parse itself (no call,
// unlike the assembly kernels of kernels_amd64.s behind their ABI0
// wrappers), so string values, and the text between escapes, are scanned
// 16 bytes a step from their first byte. scan_other.go has the same
// function without it.
//
// Measured on the dev box (AMD EPYC), only string values gain: github
// parses 15% faster, twitter 4%. The same compare for keys, and a 32-byte
// count of a line's indentation (both tried) were slower than the word
// (SWAR) scans they replaced, though they ran fewer instructions: there
// the vector result (a load, compares, then VPMOVMSKB to a general
// register) decides the next index, and its latency is longer than the
// word scan's; for a key of 7 bytes or 28 spaces there is no second step
// to make up for it. For the same reason 16 bytes a step beat 32 (two
// loads, one mask) on string values: github parsed 10% slower with 32.
// A 256-bit compare was slower still: it leaves the upper halves of the
// vector registers dirty, and every legacy SSE instruction after it (Go's
// floating point in scanNumber included) pays for a false dependency on
// them. Everything here is 128-bit.

// useSIMD chooses the scan at run time: the compares need AVX, the
// broadcasts (once, below) AVX2. Tests turn it off to run the portable path
// on the same machine.
var useSIMD = archsimd.X86.AVX2()

// The compare operands, broadcast once (only on a CPU that has the
// instructions): parse then loads each from memory in one instruction,
// where a broadcast in place took three.
var vecTwo, vecQuoteLimit, vecBackslash archsimd.Int8x16

func init() {
	if useSIMD {
		vecTwo = archsimd.BroadcastInt8x16(2)
		vecQuoteLimit = archsimd.BroadcastInt8x16(0x21)
		vecBackslash = archsimd.BroadcastInt8x16('\\')
	}
}

// specials16 holds stringSpecial16's compare operands: loaded once before a
// scan loop (loadSpecials16), they stay in vector registers for all its
// steps instead of being loaded again from memory at each one.
type specials16 struct{ two, quoteLimit, backslash archsimd.Int8x16 }

func loadSpecials16() specials16 { return specials16{vecTwo, vecQuoteLimit, vecBackslash} }

// stringSpecial16 flags the bytes of src[j:j+16] that end plain ASCII
// string content ('"', '\\', < 0x20, >= 0x80), bit k for src[j+k].
func stringSpecial16(src []byte, j int) uint { return loadSpecials16().first(src, j) }

// first is stringSpecial16 with the operands at hand. As signed bytes, the
// non-ASCII ones are negative, so one signed compare finds them and the
// control characters together; and flipping bit 1 first moves '"' (0x22)
// to 0x20 while it keeps 0..0x1F and the negative bytes where they were,
// so the same compare (x^2 < 0x21) finds the quote too: one compare and
// one OR fewer a step than testing for '"' apart.
func (k specials16) first(src []byte, j int) uint {
	v := archsimd.LoadUint8x16Slice(src[j : j+16]).AsInt8x16()
	return uint(v.Xor(k.two).Less(k.quoteLimit).Or(v.Equal(k.backslash)).ToBits())
}

// copyFirst is first that also stores the 16 bytes it scans at dst[0:16]
// (unescapeString copies the text between escapes as it scans it).
func (k specials16) copyFirst(dst *[16]byte, src []byte, j int) uint {
	u := archsimd.LoadUint8x16Slice(src[j : j+16])
	u.Store(dst)
	v := u.AsInt8x16()
	return uint(v.Xor(k.two).Less(k.quoteLimit).Or(v.Equal(k.backslash)).ToBits())
}
