package scalar

import "github.com/klauspost/cpuid/v2"

// useAVX2 enables the AVX2 kernel of kernels_amd64.s for scanText (POPCNT comes with
// every AVX2 CPU, but is checked too: the UTF-8 kernel counts with it).
// Tests turn it off to run the portable path on the same machine.
var useAVX2 = cpuid.CPU.Has(cpuid.AVX2) && cpuid.CPU.Has(cpuid.POPCNT)

// The kernels are in kernels_amd64.s; they scan whole blocks.

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

// asciiBlockSize is the block of asciiBlocks' kernel.
const asciiBlockSize = 16

// asciiBlocks returns how many bytes from src[j] are plain ASCII string
// text (not '"', '\\', < 0x20 or >= 0x80), counting in whole 16-byte blocks
// within src: the index of the first other byte if a block holds one, else
// the length of the blocks. SSE2 is part of amd64, so there is no check; it
// is SSE2 rather than AVX2 because strings are short: measured, the AVX2
// version of this kernel made github.json 10-15% slower to parse, and this
// one makes it about 6% faster.
func asciiBlocks(src []byte, j int) int {
	if len(src)-j < asciiBlockSize {
		return 0
	}
	return asciiBlocksSSE2(&src[j], len(src)-j)
}

//go:noescape
func asciiBlocksSSE2(p *byte, n int) int
