//go:build !amd64

package scalar

// Without the SIMD kernel scanText's DFA does all the work; this hook
// (kernels_amd64.go on amd64) scans nothing.

// useAVX2 is never true here; the tests that turn it on and off run the
// portable path twice.
var useAVX2 = false

func utf8Blocks(b []byte) (k, cont, maxb int, bad bool) { return 0, 0, 0, false }
