//go:build !amd64

package writer

// useEscapeSSE2 is false where there is no SSE2 kernel.
var useEscapeSSE2 = false

// escapeUTF8Wide is escapeUTF8 where there is no SIMD kernel for it
// (escape_sse2_amd64.go).
func escapeUTF8Wide(dst, s []byte) []byte { return escapeUTF8(dst, s) }
