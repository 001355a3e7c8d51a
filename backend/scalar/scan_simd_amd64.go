//go:build goexperiment.simd && amd64

package scalar

import "simd/archsimd"

// The parser's inline scans with GOEXPERIMENT=simd: simd/archsimd's vector
// operations compile to single instructions inside parse itself, so they pay
// even on the short runs (a 7-byte key, a line's indentation) where a call
// to an assembly kernel (kernels_amd64.s, through an ABI0 wrapper) costs
// more than it saves. scan_other.go has the same functions without it.

// useSIMD chooses these scans at run time: the 16-byte compares need AVX,
// the broadcasts and 32-byte compares AVX2. Tests turn it off to run the
// portable path on the same machine.
var useSIMD = archsimd.X86.AVX2()

// The compare operands, broadcast once (only on a CPU that has the
// instructions): parse then loads each from memory in one instruction.
var (
	vecQuote     archsimd.Int8x16
	vecBackslash archsimd.Int8x16
	vecSpace16   archsimd.Int8x16
	vecSpace32   archsimd.Int8x32
)

func init() {
	if useSIMD {
		vecQuote = archsimd.BroadcastInt8x16('"')
		vecBackslash = archsimd.BroadcastInt8x16('\\')
		vecSpace16 = archsimd.BroadcastInt8x16(' ')
		vecSpace32 = archsimd.BroadcastInt8x32(' ')
	}
}

// stringSpecial16 flags the bytes of src[j:j+16] that end plain ASCII
// string content ('"', '\\', < 0x20, >= 0x80), bit k for src[j+k]: as
// signed bytes, the non-ASCII ones are negative, so one signed compare
// with 0x20 finds them and the control characters together.
func stringSpecial16(src []byte, j int) uint {
	v := archsimd.LoadUint8x16Slice(src[j : j+16]).AsInt8x16()
	return uint(v.Equal(vecQuote).Or(v.Equal(vecBackslash)).Or(v.Less(vecSpace16)).ToBits())
}

// notSpace32 flags the bytes of src[j:j+32] other than ' ', bit k for
// src[j+k]: indentation is spaces, and its length is the trailing-zero
// count.
func notSpace32(src []byte, j int) uint32 {
	v := archsimd.LoadUint8x32Slice(src[j : j+32]).AsInt8x32()
	return ^v.Equal(vecSpace32).ToBits()
}
