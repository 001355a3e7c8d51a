package scalar

import (
	"math/bits"

	"github.com/isojson/isojson/backend"
)

// scanString reads the string whose opening quote is at src[q], appends its
// String entry and returns the index just past the closing quote.
//
// A string without escapes (nearly all of them) is not copied: its entry
// points into src. Plain ASCII is skipped eight bytes at a time; a non-ASCII
// byte is validated as UTF-8 on the spot, and its lead byte raises the class
// and counts the code point. The first backslash hands over to
// unescapeString, which copies into the arena.
func scanString(src []byte, q int, t *backend.Tape) (int, error) {
	n := len(src)
	j := q + 1
	extra := 0 // UTF-8 bytes minus code points so far
	class := backend.ClassASCII
	for {
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
		switch c := src[j]; {
		case c == '"':
			size := j - q - 1
			reserveWords(t, backend.RefWords)
			t.Words = append(t.Words,
				backend.RefHeader(backend.KindString, backend.StorageInput, class, backend.WidthUTF8, true, size),
				uint64(q+1), uint64(size-extra))
			return j + 1, nil
		case c == '\\':
			return unescapeString(src, q, j, extra, class, t)
		case c < 0x20:
			return 0, fail(src, j, backend.MsgControlChar)
		default:
			// Non-ASCII text (CJK, emoji) comes in runs: stay here while
			// it lasts instead of going back to the ASCII scan.
			for {
				size, cl := decodeRune(src, j)
				if size == 0 {
					return 0, failUTF8()
				}
				class = max(class, cl)
				extra += size - 1
				j += size
				if j >= n || src[j] < 0x80 {
					break
				}
			}
		}
	}
}

// decodeRune validates the UTF-8 sequence at src[j] (whose lead byte is >=
// 0x80) and returns its length and class, or size 0 when it is invalid:
// a stray continuation byte, an overlong form, a surrogate (ED A0..BF), a
// code point above U+10FFFF, or a sequence cut short.
func decodeRune(src []byte, j int) (size int, class backend.Class) {
	n := len(src)
	c0 := src[j]
	switch {
	case c0 < 0xC2: // continuation byte or overlong 2-byte lead
		return 0, 0
	case c0 < 0xE0:
		if j+1 >= n || src[j+1]&0xC0 != 0x80 {
			return 0, 0
		}
		if c0 < 0xC4 {
			return 2, backend.ClassLatin1
		}
		return 2, backend.ClassBMP
	case c0 < 0xF0:
		if j+2 >= n {
			return 0, 0
		}
		lo, hi := byte(0x80), byte(0xBF)
		if c0 == 0xE0 {
			lo = 0xA0 // overlong below U+0800
		} else if c0 == 0xED {
			hi = 0x9F // surrogates U+D800..DFFF
		}
		if c1 := src[j+1]; c1 < lo || c1 > hi || src[j+2]&0xC0 != 0x80 {
			return 0, 0
		}
		return 3, backend.ClassBMP
	case c0 < 0xF5:
		if j+3 >= n {
			return 0, 0
		}
		lo, hi := byte(0x80), byte(0xBF)
		if c0 == 0xF0 {
			lo = 0x90 // overlong below U+10000
		} else if c0 == 0xF4 {
			hi = 0x8F // above U+10FFFF
		}
		if c1 := src[j+1]; c1 < lo || c1 > hi || src[j+2]&0xC0 != 0x80 || src[j+3]&0xC0 != 0x80 {
			return 0, 0
		}
		return 4, backend.ClassAstral
	}
	return 0, 0
}
