//go:build !amd64

package writer

// useFloatSSE2 is false: there is no float kernel on this architecture
// (tests that switch kernels run the portable path twice).
var useFloatSSE2 = false

// appendFloatKernel writes the float64 whose bits are u at dst (which has
// maxFloatLen bytes) as appendFloat does and returns the length: here the
// portable appendFloatGo.
func appendFloatKernel(dst *byte, u uint64) int { return appendFloatTo(dst, u) }
