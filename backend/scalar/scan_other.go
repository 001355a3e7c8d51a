//go:build !goexperiment.simd || !amd64

package scalar

import "math/bits"

// Without GOEXPERIMENT=simd (or off amd64) the inline scans of
// scan_simd_amd64.go are never chosen: useSIMD is a constant, so parse
// keeps only its word (SWAR) loops. The functions below give the same
// answers from words, for the tests.

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

// notSpace32: as in scan_simd_amd64.go, except that only the lowest flag
// is set.
func notSpace32(src []byte, j int) uint32 {
	for k := 0; k < 32; k += 8 {
		if m := load64(src, j+k) ^ ones*' '; m != 0 {
			return 1 << (k + bits.TrailingZeros64(m)>>3)
		}
	}
	return 0
}
