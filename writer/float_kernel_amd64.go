package writer

// useFloatSSE2 enables the SSE2 float kernel (float_kernel_amd64.s; every
// amd64 CPU has SSE2); tests turn it off to check the portable path.
var useFloatSSE2 = true

// appendFloatSSE2 is in float_kernel_amd64.s: appendFloatGo's fast path in
// one function, which writes at dst (maxFloatLen bytes) and returns the
// length, or 0 for the values it leaves to appendFloatGo.
//
//go:noescape
func appendFloatSSE2(dst *byte, u uint64) int

// appendFloatBits is appendFloat of the float64 whose bits are u, as the
// tape stores it; the caller has reserved maxFloatLen bytes. The kernel
// takes about half the instructions of appendFloatGo (which the Go
// compiler spreads over two calls with spills), and it is small enough
// to be inlined into the writer's loops.
func appendFloatBits(dst []byte, u uint64) []byte {
	l := len(dst)
	s := dst[l : l+maxFloatLen]
	if useFloatSSE2 {
		if n := appendFloatSSE2(&s[0], u); n != 0 {
			return dst[:l+n]
		}
	}
	return appendFloatGo(dst, u)
}
