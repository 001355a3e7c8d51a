package scalar

import "github.com/klauspost/cpuid/v2"

// useAVX2 enables the AVX2 kernel of kernels_amd64.s (POPCNT comes with
// every AVX2 CPU, but is checked too: the UTF-8 kernel counts with it).
// Tests turn it off to run the portable path on the same machine.
var useAVX2 = cpuid.CPU.Has(cpuid.AVX2) && cpuid.CPU.Has(cpuid.POPCNT)

// The kernel is in kernels_amd64.s; it scans whole 32-byte blocks.

//go:noescape
func utf8BlocksAVX2(p *byte, n int) (k, cont, maxb int, bad bool)

// utf8Blocks validates and measures a prefix of the string text b, which
// follows ASCII (see utf8BlocksAVX2): k bytes, cont continuation bytes among
// them, maxb the largest, bad when invalid.
func utf8Blocks(b []byte) (k, cont, maxb int, bad bool) {
	if !useAVX2 || len(b) < 32 {
		return 0, 0, 0, false
	}
	return utf8BlocksAVX2(&b[0], len(b))
}
