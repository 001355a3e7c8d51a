//go:build !amd64

package scalar

// Without SIMD kernels the word loops and scanText's DFA do all the work;
// these hooks (kernels_amd64.go on amd64) scan nothing.

// asciiBlockSize is 0: asciiBlocks never counts a block.
const asciiBlockSize = 0

func asciiBlocks(src []byte, j int) int { return 0 }

// useAVX2 is never true here; the tests that turn it on and off run the
// portable path twice.
var useAVX2 = false

func utf8Blocks(b []byte) (k, cont, maxb int, bad bool) { return 0, 0, 0, false }
