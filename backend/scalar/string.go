package scalar

import (
	"math/bits"

	"github.com/isojson/isojson/backend"
)

// scanStringAt reads the string whose opening quote is at src[q], appends
// its String entry and returns the index just past the closing quote. The
// parser has already scanned src[q+1:j], plain ASCII, inline: the scan
// resumes at src[j].
//
// A string without escapes (nearly all of them) is not copied: its entry
// points into src. Plain ASCII is skipped eight bytes at a time; from the
// first non-ASCII byte on, scanText validates the UTF-8 and counts the code
// points and the class, also eight bytes at a time. The first backslash
// hands over to unescapeString, which copies into the arena.
func scanStringAt(src []byte, q, j int, t *backend.Tape) (int, error) {
	n := len(src)
	extra := 0 // UTF-8 bytes minus code points so far
	class := backend.ClassASCII
	for j+8 <= n {
		if m := stringSpecial(load64(src, j)); m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			goto special
		}
		j += 8
	}
	for ; j < n; j++ {
		if c := src[j]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			goto special
		}
	}
	return 0, failEnd(src)
special:
	if src[j] >= 0x80 {
		// Non-ASCII text (CJK, emoji) mixes with ASCII: scanText takes
		// both to the next special byte.
		k, cont, cl, ok := scanText(src, j)
		if !ok {
			return 0, failUTF8()
		}
		if k == n {
			return 0, failEnd(src)
		}
		class, extra, j = cl, cont, k
	}
	switch c := src[j]; {
	case c == '"':
		size := j - q - 1
		put3(t, backend.RefHeader(backend.KindString, backend.StorageInput, class, backend.WidthUTF8, true, size),
			uint64(q+1), uint64(size-extra))
		return j + 1, nil
	case c == '\\':
		return unescapeString(src, q, j, extra, class, t)
	}
	return 0, fail(src, j, backend.MsgControlChar)
}
