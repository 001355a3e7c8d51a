package scalar

import (
	"encoding/binary"
	"math/bits"

	"github.com/isojson/isojson/backend"
)

// unescapeString finishes a string that holds escapes: src[q] is its opening
// quote and src[j] the first backslash; extra and class describe src[q+1:j].
// The unescaped UTF-8 is appended to the arena. The entry is Clean unless an
// escape produced a byte JSON must escape again ('"', '\\', < 0x20).
func unescapeString(src []byte, q, j, extra int, class backend.Class, t *backend.Tape) (int, error) {
	n := len(src)
	start := len(t.Arena)
	clean := true
	appendArena(t, src[q+1:j])
	for {
		// src[j] is a backslash.
		if j+1 >= n {
			return 0, failEnd(src)
		}
		var r rune
		switch e := src[j+1]; e {
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
			// Four valid hex digits of a code point that is no surrogate
			// (every escape of text written with ensure_ascii but the
			// astral pairs) decoded here; the rest by unescapeUnicode.
			if j+6 <= n {
				if v, ok := hexQuad(src[j+2 : j+6 : j+6]); ok && uint32(v)-0xD800 >= 0x800 {
					r = v
					j += 6
					if r < 0x20 || r == '"' || r == '\\' {
						clean = false
					}
					goto encode
				}
			}
			var err error
			var size int
			r, size, err = unescapeUnicode(src, j)
			if err != nil {
				return 0, err
			}
			j += size
			if r < 0x20 || r == '"' || r == '\\' {
				clean = false
			}
			goto encode
		default:
			return 0, fail(src, j, backend.MsgInvalidEscape)
		}
		j += 2
	encode:
		if r < 0x80 { // every two-byte escape: no call, no class change
			reserveArena(t, 1)
			arenaByte(t, byte(r))
		} else if r < 0x10000 { // 2 or 3 bytes of UTF-8, stored in place
			reserveArena(t, 3)
			a := len(t.Arena)
			if r < 0x800 {
				t.Arena = t.Arena[:a+2]
				u := t.Arena[a : a+2 : a+2]
				u[0], u[1] = 0xC0|byte(r>>6), 0x80|byte(r)&0x3F
				extra++
			} else {
				t.Arena = t.Arena[:a+3]
				u := t.Arena[a : a+3 : a+3]
				u[0], u[1], u[2] = 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F
				extra += 2
			}
			class = max(class, classOf(r))
		} else { // a surrogate pair's code point: 4 bytes, out of line
			arenaAstral(t, r)
			extra += 3
			class = backend.ClassAstral
		}

		// Another escape straight after this one (\u0416\u0438..., text
		// written with ensure_ascii): no text between them to copy.
		if j < n && src[j] == '\\' {
			continue
		}

		// Copy the text up to the next special byte: plain ASCII (the
		// usual text between escapes) as it is scanned, each block stored
		// whole to the arena before its special byte is looked for, then
		// the arena cut back to just before it (no copy call per run, and
		// nothing to do for a run that is empty, as between \r and \n);
		// the rest by scanText.
		k := j
		if useSIMD { // 16 bytes a step, as in parse
			sp := loadSpecials16()
			for uint(k+16) <= uint(n) {
				reserveArena(t, 16)
				a := len(t.Arena)
				m := sp.copyFirst((*[16]byte)(t.Arena[a:a+16]), src, k)
				if m != 0 {
					d := bits.TrailingZeros(m)
					t.Arena = t.Arena[:a+d]
					k += d
					goto runEnd
				}
				t.Arena = t.Arena[:a+16]
				k += 16
			}
		}
		for uint(k+8) <= uint(n) {
			reserveArena(t, 8)
			a := len(t.Arena)
			w := load64(src, k)
			binary.LittleEndian.PutUint64(t.Arena[a:a+8], w)
			if m := stringSpecial(w); m != 0 {
				d := int(bits.TrailingZeros64(m) >> 3)
				t.Arena = t.Arena[:a+d]
				k += d
				goto runEnd
			}
			t.Arena = t.Arena[:a+8]
			k += 8
		}
		j = k // the last few bytes of input
		k = asciiRun(src, k)
		appendArena(t, src[j:k])
	runEnd:
		if k < n && src[k] >= 0x80 {
			var cont int
			var cl backend.Class
			var ok bool
			j = k
			if k, cont, cl, ok = scanText(src, k); !ok {
				return 0, failUTF8()
			}
			class = max(class, cl)
			extra += cont
			appendArena(t, src[j:k])
		}
		if k == n {
			return 0, failEnd(src)
		}
		j = k
		switch c := src[j]; {
		case c == '"':
			size := len(t.Arena) - start
			put3(t, backend.RefHeader(backend.KindString, backend.StorageArena, class, backend.WidthUTF8, clean, size),
				uint64(start), uint64(size-extra))
			return j + 1, nil
		case c < 0x20:
			return 0, fail(src, j, backend.MsgControlChar)
		}
		// Another backslash: loop.
	}
}

// asciiRun returns the index of the first byte at or after src[j] that is
// not plain ASCII string text ('"', '\\', a control or non-ASCII byte), or
// len(src).
func asciiRun(src []byte, j int) int {
	n := len(src)
	for j+8 <= n {
		if m := stringSpecial(load64(src, j)); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		j += 8
	}
	for j < n {
		if c := src[j]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		j++
	}
	return j
}

// hexValue maps a byte to its hex digit value, or -1.
var hexValue = func() (h [256]int8) {
	for i := range h {
		h[i] = -1
	}
	for c := '0'; c <= '9'; c++ {
		h[c] = int8(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		h[c] = int8(c - 'a' + 10)
		h[c-'a'+'A'] = int8(c - 'a' + 10)
	}
	return h
}()

// hexQuad is the value of the four hex digits d[0:4], and false if one is
// not a hex digit: four table loads and one sign test of their or (a bad
// digit is -1).
func hexQuad(d []byte) (rune, bool) {
	_ = d[3]
	a, b, c, e := hexValue[d[0]], hexValue[d[1]], hexValue[d[2]], hexValue[d[3]]
	return rune(a)<<12 | rune(b)<<8 | rune(c)<<4 | rune(e), a|b|c|e >= 0
}

// hex4 reads the four hex digits at src[i:i+4]: all at once (hexQuad) when
// they are there and valid (every escape of valid input); otherwise one by
// one, as orjson does: the end of input is reported before a bad digit that
// would follow it.
func hex4(src []byte, i int) (r rune, atEnd, bad bool) {
	if i >= 0 && i+4 <= len(src) {
		if v, ok := hexQuad(src[i : i+4 : i+4]); ok {
			return v, false, false
		}
	}
	for k := i; k < i+4; k++ {
		if k >= len(src) {
			return 0, true, false
		}
		v := hexValue[src[k]]
		if v < 0 {
			return 0, false, true
		}
		r = r<<4 | rune(v)
	}
	return r, false, false
}

// unescapeUnicode decodes the \uXXXX escape at src[j] (the backslash), joining
// a UTF-16 surrogate pair, and returns the code point and the bytes consumed.
// Errors are reported at the first backslash, with orjson's messages.
func unescapeUnicode(src []byte, j int) (rune, int, error) {
	r, atEnd, bad := hex4(src, j+2)
	switch {
	case atEnd:
		return 0, 0, failEnd(src)
	case bad:
		return 0, 0, fail(src, j, backend.MsgInvalidEscape)
	case r < 0xD800 || r > 0xDFFF:
		return r, 6, nil
	}
	// A surrogate. orjson looks for the low half before judging either
	// half, so input that ends where a low-surrogate escape could still
	// follow is cut short ("unexpected end of data"), even after a lone low
	// surrogate; anything else after one is a lone low surrogate.
	if lowEscapePrefix(src[j+6:]) {
		return 0, 0, failEnd(src)
	}
	if r >= 0xDC00 {
		return 0, 0, fail(src, j, backend.MsgLoneLowSurrogate)
	}
	// A high surrogate: a \u low surrogate must follow. src[j+6:] is not
	// empty nor a lone backslash (both are prefixes).
	if src[j+6] != '\\' || src[j+7] != 'u' {
		return 0, 0, fail(src, j, backend.MsgNoLowSurrogate)
	}
	// Hex digits cut short that cannot begin a low surrogate are as bad as
	// wrong ones.
	lo, atEnd, bad := hex4(src, j+8)
	switch {
	case atEnd || bad:
		return 0, 0, fail(src, j, backend.MsgInvalidPairHex)
	case lo < 0xDC00 || lo > 0xDFFF:
		return 0, 0, fail(src, j, backend.MsgBadLowSurrogate)
	}
	return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12, nil
}

// lowEscapePrefix reports whether b is shorter than a \u escape and could
// still grow into one of a low surrogate: \u, then d or D, then c to f in
// either case, then hex digits.
func lowEscapePrefix(b []byte) bool {
	if len(b) >= 6 {
		return false
	}
	for k, c := range b {
		var ok bool
		switch k {
		case 0:
			ok = c == '\\'
		case 1:
			ok = c == 'u'
		case 2:
			ok = c|0x20 == 'd'
		case 3:
			ok = c|0x20 >= 'c' && c|0x20 <= 'f'
		default:
			ok = hexValue[c] >= 0
		}
		if !ok {
			return false
		}
	}
	return true
}

// classOf is the class of one code point.
func classOf(r rune) backend.Class {
	switch {
	case r < 0x80:
		return backend.ClassASCII
	case r < 0x100:
		return backend.ClassLatin1
	case r < 0x10000:
		return backend.ClassBMP
	}
	return backend.ClassAstral
}

// arenaAstral stores r, a code point beyond U+FFFF, as its 4 bytes of UTF-8
// at the arena's end (unescapeString stores the shorter forms itself).
func arenaAstral(t *backend.Tape, r rune) {
	reserveArena(t, 4)
	a := len(t.Arena)
	t.Arena = t.Arena[:a+4]
	u := t.Arena[a : a+4 : a+4]
	u[0], u[1], u[2], u[3] = 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F
}
