package rescan

import (
	"bytes"
	"encoding/binary"

	"github.com/isojson/isojson/backend"
)

// SWAR constants: a byte in a word is flagged when it is < 0x20, '"', '\\'
// or >= 0x80 — the bytes a string body cannot pass through unexamined.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special returns a nonzero word whose high bit is set in every byte of w
// that is < 0x20, '"', '\\' or >= 0x80 (exactly: no false positives are
// possible because every test is done on 7-bit values).
func special(w uint64) uint64 {
	low := w &^ msb // 7-bit values, so the per-byte additions below never carry
	ctrl := low + (0x80-0x20)*lsb
	quote := (low ^ '"'*lsb) + 0x7f*lsb
	slash := (low ^ '\\'*lsb) + 0x7f*lsb
	// ctrl's high bit is set when low >= 0x20; quote's and slash's are set
	// when the byte differs from the character.
	return (w | ^ctrl | ^quote | ^slash) & msb
}

// utf8Seq validates the multi-byte UTF-8 sequence at s[0] (a byte >= 0x80)
// strictly (no overlongs, no surrogates, nothing above U+10FFFF) and returns
// its length and the Class of its code point; n == 0 means invalid.
func utf8Seq(s []byte) (n int, c backend.Class) {
	b0 := s[0]
	switch {
	case b0 >= 0xC2 && b0 <= 0xDF:
		if len(s) < 2 || s[1]&0xC0 != 0x80 {
			return 0, 0
		}
		if b0 <= 0xC3 {
			return 2, backend.ClassLatin1
		}
		return 2, backend.ClassBMP
	case b0 >= 0xE0 && b0 <= 0xEF:
		if len(s) < 3 || s[1]&0xC0 != 0x80 || s[2]&0xC0 != 0x80 {
			return 0, 0
		}
		if b0 == 0xE0 && s[1] < 0xA0 || b0 == 0xED && s[1] > 0x9F {
			return 0, 0 // overlong, or a surrogate
		}
		return 3, backend.ClassBMP
	case b0 >= 0xF0 && b0 <= 0xF4:
		if len(s) < 4 || s[1]&0xC0 != 0x80 || s[2]&0xC0 != 0x80 || s[3]&0xC0 != 0x80 {
			return 0, 0
		}
		if b0 == 0xF0 && s[1] < 0x90 || b0 == 0xF4 && s[1] > 0x8F {
			return 0, 0 // overlong, or above U+10FFFF
		}
		return 4, backend.ClassAstral
	}
	return 0, 0
}

// InputString checks the body of a string without escapes (the bytes between
// its quotes) and returns the widest Class of its code points and their
// number. ok is false when the body holds a control character, a quote, a
// backslash or invalid UTF-8; the text is then not a string the scalar parser
// would store as is.
func InputString(s []byte) (c backend.Class, chars int, ok bool) {
	i := 0
	for i < len(s) {
		for i+8 <= len(s) {
			if special(binary.LittleEndian.Uint64(s[i:])) != 0 {
				break
			}
			i += 8
			chars += 8
		}
		if i >= len(s) {
			break
		}
		b := s[i]
		switch {
		case b < 0x20 || b == '"' || b == '\\':
			return 0, 0, false
		case b < 0x80:
			i++
			chars++
		default:
			n, sc := utf8Seq(s[i:])
			if n == 0 {
				return 0, 0, false
			}
			c = max(c, sc)
			i += n
			chars++
		}
	}
	return c, chars, true
}

// StringEnd returns the index of the quote that closes the string whose
// opening quote is at src[open], or -1 when the string is not closed.
func StringEnd(src []byte, open int) int {
	i := open + 1
	for {
		q := bytes.IndexByte(src[i:], '"')
		if q < 0 {
			return -1
		}
		q += i
		// The quote is escaped when an odd number of backslashes precede it.
		k := q
		for k > open+1 && src[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// hex4 decodes four hexadecimal digits; ok is false if s is short or has
// another character.
func hex4(s []byte) (r rune, ok bool) {
	if len(s) < 4 {
		return 0, false
	}
	for _, b := range s[:4] {
		var d byte
		switch {
		case b >= '0' && b <= '9':
			d = b - '0'
		case b >= 'a' && b <= 'f':
			d = b - 'a' + 10
		case b >= 'A' && b <= 'F':
			d = b - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// Unescape decodes the body of a string with escapes (the bytes between its
// quotes) and appends the UTF-8 result to dst. It returns the widest Class,
// the number of code points, and whether the result is clean (needs no
// escaping when written as JSON: no quote, backslash or control character).
// ok is false for anything orjson rejects: a raw control character, invalid
// UTF-8, an unknown escape, bad hex digits, or a surrogate escape that is not
// a high one followed by a low one.
func Unescape(dst, body []byte) (out []byte, c backend.Class, chars int, clean, ok bool) {
	clean = true
	i := 0
	for i < len(body) {
		// Copy the run up to the next byte that needs a look.
		start := i
		for i+8 <= len(body) && special(binary.LittleEndian.Uint64(body[i:])) == 0 {
			i += 8
		}
		for i < len(body) && body[i] >= 0x20 && body[i] < 0x80 && body[i] != '\\' && body[i] != '"' {
			i++
		}
		chars += i - start
		dst = append(dst, body[start:i]...)
		if i >= len(body) {
			break
		}
		b := body[i]
		switch {
		case b < 0x20 || b == '"':
			return dst, 0, 0, false, false
		case b >= 0x80:
			n, sc := utf8Seq(body[i:])
			if n == 0 {
				return dst, 0, 0, false, false
			}
			c = max(c, sc)
			dst = append(dst, body[i:i+n]...)
			i += n
			chars++
			continue
		}
		// A backslash.
		if i+1 >= len(body) {
			return dst, 0, 0, false, false
		}
		e := body[i+1]
		i += 2
		var r rune
		switch e {
		case '"', '\\':
			r, clean = rune(e), false
		case '/':
			r = '/'
		case 'b':
			r, clean = '\b', false
		case 'f':
			r, clean = '\f', false
		case 'n':
			r, clean = '\n', false
		case 'r':
			r, clean = '\r', false
		case 't':
			r, clean = '\t', false
		case 'u':
			var okh bool
			if r, okh = hex4(body[i:]); !okh {
				return dst, 0, 0, false, false
			}
			i += 4
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return dst, 0, 0, false, false // a low surrogate first
			case r >= 0xD800 && r <= 0xDBFF:
				if i+6 > len(body) || body[i] != '\\' || body[i+1] != 'u' {
					return dst, 0, 0, false, false
				}
				lo, okl := hex4(body[i+2:])
				if !okl || lo < 0xDC00 || lo > 0xDFFF {
					return dst, 0, 0, false, false
				}
				i += 6
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
			}
			if r < 0x20 || r == '"' || r == '\\' {
				clean = false
			}
		default:
			return dst, 0, 0, false, false
		}
		dst = appendRune(dst, r)
		chars++
		switch {
		case r >= 0x10000:
			c = backend.ClassAstral
		case r >= 0x100:
			c = max(c, backend.ClassBMP)
		case r >= 0x80:
			c = max(c, backend.ClassLatin1)
		}
	}
	return dst, c, chars, clean, true
}

// appendRune appends the UTF-8 encoding of a valid, non-surrogate r.
func appendRune(dst []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return append(dst, byte(r))
	case r < 0x800:
		return append(dst, 0xC0|byte(r>>6), 0x80|byte(r)&0x3F)
	case r < 0x10000:
		return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return append(dst, 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}
