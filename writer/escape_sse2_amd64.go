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

// escapeUTF8SSSE3 is in escape_sse2_amd64.s: the one-pass kernel that
// takes every escape of a block from its mask and the last 1 to 15 bytes
// as one more block. table is escapeWords.
//
//go:noescape
func escapeUTF8SSSE3(dst, src *byte, n int, table *[256]struct {
	word uint64
	len  int
}, quote bool) (read, written int)

// escapeUTF8Wide is escapeUTF8 for text that needs escaping. With SSSE3
// and escapeSlack bytes of room past the reservation (text's callers
// reserve them), escapeUTF8SSSE3 does the whole string, short ones and the
// last bytes included, in one pass (text/escaped, strs of 2 to 60 bytes
// with 40% of them escaped: 723 k instructions a call before, when each
// escape restarted a block and the tail went through escapeUTF8's words);
// escapeUTF8 only the last bytes when their load would cross a page.
// Without either, the SSE2 kernel does whole 16-byte blocks (half the
// steps of escapeUTF8's words, and no register spills: github.json's issue
// bodies, with a \r\n every few dozen bytes, spent 10% of dumps in
// escapeUTF8), escapeUTF8 the last few bytes. The caller has reserved
// maxEscapeLen×len(s) bytes.
func escapeUTF8Wide(dst, s []byte) []byte {
	if useSSSE3 && len(s) > 0 && cap(dst)-len(dst)-escapeSlack >= maxEscapeLen*len(s) {
		p := freeSpace(dst, len(s))
		read, written := escapeUTF8SSSE3((*byte)(p), unsafe.SliceData(s), len(s), &escapeWords, false)
		if read == len(s) {
			return dst[:len(dst)+written]
		}
		// The rest has its reservation: written <= maxEscapeLen×read.
		return escapeUTF8(dst[:len(dst)+written], s[read:])
	}
	if len(s) < 16 || !useEscapeSSE2 {
		return escapeUTF8(dst, s)
	}
	p := freeSpace(dst, len(s))
	read, written := escapeUTF8SSE2((*byte)(p), unsafe.SliceData(s), len(s), &escapeWords)
	// The rest has its reservation: written <= maxEscapeLen×read.
	return escapeUTF8(dst[:len(dst)+written], s[read:])
}

// quotedEscapeUTF8 appends s (not empty) escaped between quotes. The caller
// has reserved maxEscapeLen×len(s) + 2 + escapeSlack bytes. Small enough
// to inline: with SSSE3 and that room the kernel writes it all, quotes
// included, in one call.
func quotedEscapeUTF8(dst, s []byte) []byte {
	if l := len(dst); useSSSE3 && cap(dst)-l-2-escapeSlack >= maxEscapeLen*len(s) {
		read, written := escapeUTF8SSSE3((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), l)),
			unsafe.SliceData(s), len(s), &escapeWords, true)
		dst = dst[:l+written]
		if read == len(s) {
			return dst
		}
		// The last bytes, whose load would cross a page; written <=
		// maxEscapeLen×read + 1 keeps their reservation.
		return quotedEscapeRest(dst, s[read:])
	}
	dst = append(dst, '"')
	return quotedEscapeRest(dst, s)
}

// quotedEscapeRest appends s escaped and the closing quote.
func quotedEscapeRest(dst, s []byte) []byte {
	dst = escapeUTF8Wide(dst, s)
	return append(dst, '"')
}
