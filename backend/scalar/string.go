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
// points into src. Plain ASCII is skipped eight bytes at a time; a non-ASCII
// byte is validated as UTF-8 on the spot, and its lead byte raises the class
// and counts the code point. The first backslash hands over to
// unescapeString, which copies into the arena.
func scanStringAt(src []byte, q, j int, t *backend.Tape) (int, error) {
	n := len(src)
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
			put3(t, backend.RefHeader(backend.KindString, backend.StorageInput, class, backend.WidthUTF8, true, size),
				uint64(q+1), uint64(size-extra))
			return j + 1, nil
		case c == '\\':
			return unescapeString(src, q, j, extra, class, t)
		case c < 0x20:
			return 0, fail(src, j, backend.MsgControlChar)
		default:
			// Non-ASCII text (CJK, emoji) comes in runs: stay here while
			// it lasts instead of going back to the ASCII scan.
			// decodeRune, inlined by hand.
			for {
				e := utf8Lead[src[j]]
				size := int(e & 7)
				if size == 0 || j+size > n {
					return 0, failUTF8()
				}
				if c1 := src[j+1]; c1 < byte(e>>8) || c1 > byte(e>>16) {
					return 0, failUTF8()
				}
				if size >= 3 && (src[j+2]&0xC0 != 0x80 || size == 4 && src[j+3]&0xC0 != 0x80) {
					return 0, failUTF8()
				}
				class = max(class, backend.Class(e>>4&3))
				extra += size - 1
				j += size
				if j >= n || src[j] < 0x80 {
					break
				}
			}
		}
	}
}

// utf8Lead describes each byte >= 0x80 as the first byte of a UTF-8
// sequence: bits 0-2 its length (0: cannot start one), bits 4-5 its class,
// bits 8-15 and 16-23 the range of the second byte, which excludes overlong
// forms (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
var utf8Lead = func() (t [256]uint32) {
	set := func(from, to int, size int, class backend.Class, lo, hi byte) {
		for c := from; c <= to; c++ {
			t[c] = uint32(size) | uint32(class)<<4 | uint32(lo)<<8 | uint32(hi)<<16
		}
	}
	set(0xC2, 0xC3, 2, backend.ClassLatin1, 0x80, 0xBF)
	set(0xC4, 0xDF, 2, backend.ClassBMP, 0x80, 0xBF)
	set(0xE0, 0xE0, 3, backend.ClassBMP, 0xA0, 0xBF)
	set(0xE1, 0xEC, 3, backend.ClassBMP, 0x80, 0xBF)
	set(0xED, 0xED, 3, backend.ClassBMP, 0x80, 0x9F)
	set(0xEE, 0xEF, 3, backend.ClassBMP, 0x80, 0xBF)
	set(0xF0, 0xF0, 4, backend.ClassAstral, 0x90, 0xBF)
	set(0xF1, 0xF3, 4, backend.ClassAstral, 0x80, 0xBF)
	set(0xF4, 0xF4, 4, backend.ClassAstral, 0x80, 0x8F)
	return t
}()

// decodeRune validates the UTF-8 sequence at src[j] (whose first byte is >=
// 0x80) and returns its length and class, or size 0 when it is invalid:
// a stray continuation byte, an overlong form, a surrogate (ED A0..BF), a
// code point above U+10FFFF, or a sequence cut short.
func decodeRune(src []byte, j int) (size int, class backend.Class) {
	e := utf8Lead[src[j]]
	size = int(e & 7)
	if size == 0 || j+size > len(src) {
		return 0, 0
	}
	if c1 := src[j+1]; c1 < byte(e>>8) || c1 > byte(e>>16) {
		return 0, 0
	}
	if size >= 3 && (src[j+2]&0xC0 != 0x80 || size == 4 && src[j+3]&0xC0 != 0x80) {
		return 0, 0
	}
	return size, backend.Class(e >> 4 & 3)
}
