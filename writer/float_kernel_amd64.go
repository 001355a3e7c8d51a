package writer

// useFloatSSE2 enables the SSE2 float kernel (float_kernel_amd64.s; every
// amd64 CPU has SSE2); tests turn it off to check the portable path.
var useFloatSSE2 = true

// floatKernelProbe makes the kernel return 0 for the values it hands to
// appendFloatTo, so that tests can check which values it takes (the output
// is the same either way). Only tests set it, and none runs in parallel.
var floatKernelProbe = false

// appendFloatKernel writes the float64 whose bits are u at dst (which has
// maxFloatLen bytes) as appendFloat does and returns the length. It is in
// float_kernel_amd64.s: appendFloatGo's fast path in one function, which
// takes about half its instructions (the Go compiler spreads it over two
// calls with spills). What the kernel does not take it hands, with a jump
// and the same arguments, to appendFloatTo, so that appendFloatBits is one
// call and is inlined into the writer's loops.
//
//go:noescape
func appendFloatKernel(dst *byte, u uint64) int

// The kernel indexes pow10Table with pow10KMin = -324 built in.
var _ = [1]int{}[pow10KMin+324]

// floatShifts[bq] is 5-j, the shift of the significand before fastDigits'
// product, for the exponent field bq of a normal float64: the kernel loads
// it rather than computing it with two dependent multiplies, as Żmij does.
var floatShifts = func() (t [2048]uint8) {
	for bq := 1; bq < 0x7ff; bq++ {
		q := bq - 1075
		t[bq] = uint8(5 + q + flog2pow10(-flog10pow2(q)-1))
	}
	return t
}()

// appendFloatRun writes the Floats of words from i on, while they follow
// each other before end, comma-separated at dst, which has room bytes (at
// least maxFloatLen; a later Float needs 1 + maxFloatLen with its comma),
// and returns the bytes written and the index after the last one written.
// It is in float_kernel_amd64.s: one loop around the kernel, so that the
// walk takes a run of floats (canada.json's coordinate pairs, a numpy row)
// in one call. It stops before a value that is not a Float, at end, when
// the room runs out, and before a Float the kernel leaves to appendFloatGo.
//
//go:noescape
func appendFloatRun(dst *byte, room int, words *uint64, i, end int) (written, next int)
