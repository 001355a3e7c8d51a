//go:build !goexperiment.simd || !amd64

package scalar

import "math/bits"

// Without GOEXPERIMENT=simd (or off amd64) the inline vector scan of
// scan_simd_amd64.go is never chosen: useSIMD is a constant, so parse keeps
// only its word (SWAR) loops and the asciiBlocks kernel. The function below
// gives the same answer from words, for the tests.

const useSIMD = false

// stringSpecial16: as in scan_simd_amd64.go, except that only the lowest
// flag is set (the only one parse uses).
func stringSpecial16(src []byte, j int) uint {
	if m := stringSpecial(load64(src, j)); m != 0 {
		return 1 << (bits.TrailingZeros64(m) >> 3)
	}
	if m := stringSpecial(load64(src, j+8)); m != 0 {
		return 1 << (8 + bits.TrailingZeros64(m)>>3)
	}
	return 0
}

// specials16: the vector version's operands; here there are none.
type specials16 struct{}

func loadSpecials16() specials16 { return specials16{} }

func (specials16) first(src []byte, j int) uint { return stringSpecial16(src, j) }

func (specials16) copyFirst(dst *[16]byte, src []byte, j int) uint {
	*dst = [16]byte(src[j : j+16])
	return stringSpecial16(src, j)
}
