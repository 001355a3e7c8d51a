package writer

import "unsafe"

// useEscapeSSE2 enables the SSE2 kernel (escape_sse2_amd64.s; every amd64
// CPU has SSE2); tests turn it off to check the portable path.
var useEscapeSSE2 = true

// escapeUTF8SSE2 is in escape_sse2_amd64.s. table is escapeWords.
//
//go:noescape
func escapeUTF8SSE2(dst, src *byte, n int, table *[256]struct {
	word uint64
	len  int
}) (read, written int)

// escapeUTF8Wide is escapeUTF8 for text that needs escaping: the kernel
// does whole 16-byte blocks (half the steps of escapeUTF8's words, and no
// register spills: github.json's issue bodies, with a \r\n every few dozen
// bytes, spent 10% of dumps in escapeUTF8), escapeUTF8 the last few bytes.
// The caller has reserved maxEscapeLen×len(s) bytes.
func escapeUTF8Wide(dst, s []byte) []byte {
	if len(s) < 16 || !useEscapeSSE2 {
		return escapeUTF8(dst, s)
	}
	p := freeSpace(dst, len(s))
	read, written := escapeUTF8SSE2((*byte)(p), unsafe.SliceData(s), len(s), &escapeWords)
	// The rest has its reservation: written <= maxEscapeLen×read.
	return escapeUTF8(dst[:len(dst)+written], s[read:])
}
