//go:build !amd64

package writer

// useFloatSSE2 is false: there is no float kernel on this architecture
// (tests that switch kernels run the portable path twice).
var useFloatSSE2 = false

// appendFloatBits is appendFloat of the float64 whose bits are u, as the
// tape stores it; the caller has reserved maxFloatLen bytes.
func appendFloatBits(dst []byte, u uint64) []byte { return appendFloatGo(dst, u) }
