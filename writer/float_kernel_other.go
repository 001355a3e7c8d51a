//go:build !amd64

package writer

import (
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// useFloatSSE2 is false: there is no float kernel on this architecture
// (tests that switch kernels run the portable path twice).
var useFloatSSE2 = false

// appendFloatKernel writes the float64 whose bits are u at dst (which has
// maxFloatLen bytes) as appendFloat does and returns the length: here the
// portable appendFloatGo.
func appendFloatKernel(dst *byte, u uint64) int { return appendFloatTo(dst, u) }

// appendFloatRun writes the Floats of words from i on, while they follow
// each other before end, comma-separated at dst, which has room bytes (at
// least maxFloatLen; a later Float needs 1 + maxFloatLen with its comma),
// and returns the bytes written and the index after the last one written.
func appendFloatRun(dst *byte, room int, words *uint64, i, end int) (written, next int) {
	w := unsafe.Slice(words, end)
	out := unsafe.Slice(dst, room)
	n := appendFloatTo(dst, w[i+1])
	for i += backend.NumberWords; i < end && backend.KindOf(w[i]) == backend.KindFloat && room-n >= 1+maxFloatLen; i += backend.NumberWords {
		out[n] = ','
		n++
		n += appendFloatTo(&out[n], w[i+1])
	}
	return n, i
}
