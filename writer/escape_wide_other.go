//go:build !amd64

package writer

// useEscapeSSE2 is false where there is no SSE2 kernel.
var useEscapeSSE2 = false

// escapeUTF8Wide is escapeUTF8 where there is no SIMD kernel for it
// (escape_sse2_amd64.go).
func escapeUTF8Wide(dst, s []byte) []byte { return escapeUTF8(dst, s) }

// quotedEscapeUTF8 appends s escaped between quotes; the caller has
// reserved maxEscapeLen×len(s) + 2 bytes.
func quotedEscapeUTF8(dst, s []byte) []byte {
	dst = append(dst, '"')
	dst = escapeUTF8(dst, s)
	return append(dst, '"')
}

// escapeUTF8SSSE3 is never called where useSSSE3 is false (textTo tests
// it first); it is here so that textTo compiles on every GOARCH.
func escapeUTF8SSSE3(dst, src *byte, n int, table *[256]struct {
	word uint64
	len  int
}, quote bool) (read, written int) {
	panic("writer: escapeUTF8SSSE3 without SSSE3")
}
