package scalar

import (
	"encoding/binary"
	"math/bits"
	"strconv"

	"github.com/isojson/isojson/backend"
)

// unescapeString finishes a string that holds escapes: src[q] is its opening
// quote and src[j] the first backslash; extra and class describe src[q+1:j].
// The unescaped UTF-8 is appended to the arena. The entry is Clean unless an
// escape produced a byte JSON must escape again ('"', '\\', < 0x20).
//
// The arena is written through out, a local copy of t.Arena stored back when
// the string ends or the arena grows (arenaRoom): through t, every byte
// stored would make the compiler load the slice header again and store it
// back (Go assumes a store through a pointer may change it).
func unescapeString(src []byte, q, j, extra int, class backend.Class, t *backend.Tape) (int, error) {
	n := len(src)
	out := t.Arena
	start := len(out)
	clean := true
	out = arenaRoom(t, out, j-q-1)
	out = append(out, src[q+1:j]...)
	for {
		// src[j] is a backslash. Escapes and the ASCII between them go
		// through unescapeCommon, which takes every valid escape; then what
		// it left: the closing quote, other text, or a backslash.
		out = arenaRoom(t, out, commonRoom)
		from := j
		j, out, clean, extra, class = unescapeCommon(src, j, out, clean, extra, class)
		if j < n {
			switch c := src[j]; {
			case c == '"':
				goto end
			case c == '\\':
				if j != from { // the end of its room: more, and on
					continue
				}
				t.Arena = out
				return 0, escapeError(src, j)
			}
		}
		// Copy the text up to the next special byte: plain ASCII (the
		// usual text between escapes) as it is scanned, each block stored
		// whole to the arena before its special byte is looked for, then
		// the arena cut back to just before it (no copy call per run); the
		// rest by scanText.
		k := j
		if useSIMD { // 16 bytes a step, as in parse
			sp := loadSpecials16()
			for uint(k+16) <= uint(n) {
				out = arenaRoom(t, out, 16)
				l := len(out)
				m := sp.copyFirst((*[16]byte)(out[l:l+16]), src, k)
				if m != 0 {
					d := bits.TrailingZeros(m)
					out = out[:l+d]
					k += d
					goto runEnd
				}
				out = out[:l+16]
				k += 16
			}
		}
		for uint(k+8) <= uint(n) {
			out = arenaRoom(t, out, 8)
			l := len(out)
			w := load64(src, k)
			binary.LittleEndian.PutUint64(out[l:l+8], w)
			if m := stringSpecial(w); m != 0 {
				d := int(bits.TrailingZeros64(m) >> 3)
				out = out[:l+d]
				k += d
				goto runEnd
			}
			out = out[:l+8]
			k += 8
		}
		j = k // the last few bytes of input
		k = asciiRun(src, k)
		out = arenaRoom(t, out, k-j)
		out = append(out, src[j:k]...)
	runEnd:
		if k < n && src[k] >= 0x80 {
			var cont int
			var cl backend.Class
			var ok bool
			j = k
			if k, cont, cl, ok = scanText(src, k); !ok {
				t.Arena = out
				return 0, failUTF8()
			}
			class = max(class, cl)
			extra += cont
			out = arenaRoom(t, out, k-j)
			out = append(out, src[j:k]...)
		}
		if k == n {
			t.Arena = out
			return 0, failEnd(src)
		}
		j = k
		switch c := src[j]; {
		case c == '"':
			goto end
		case c < 0x20:
			t.Arena = out
			return 0, fail(src, j, backend.MsgControlChar)
		}
		// Another backslash: loop.
	}
end: // src[j] is the closing quote
	t.Arena = out
	size := len(out) - start
	put3(t, backend.RefHeader(backend.KindString, backend.StorageArena, class, backend.WidthUTF8, clean, size),
		uint64(start), uint64(size-extra))
	return j + 1, nil
}

// commonRoom is the arena room unescapeCommon is given: strings up to some
// 240 bytes of input after their first escape end in one call.
const commonRoom = 256

// unescapeCommon is unescapeString's loop for what text holds between its
// quotes nearly always: two-byte escapes, \u escapes of code points and of
// valid surrogate pairs, and plain ASCII between them, copied 16 bytes a
// step. From src[j], a backslash, it appends to out until the byte it
// leaves to its caller: a quote, a non-ASCII or control byte, text within 16
// bytes of the input's end, the room's end, or an escape it does not take,
// which is never a valid one (each case tests the bytes its escape needs,
// and a valid one is followed by at least its string's closing quote):
// escapeError says what is wrong with it. It calls nothing and checks no
// room per step: what an escape or a run of ASCII writes is never longer
// than what it reads (\n: 2 bytes read, 1 written; \u0416: 6 and 2; a pair:
// 12 and 4), so out stays within its room while the input read since the
// call does, with 16 bytes kept for a block's whole store. The arguments and
// results after out are unescapeString's clean, extra and class.
func unescapeCommon(src []byte, j int, out []byte, clean bool, extra int, class backend.Class) (
	int, []byte, bool, int, backend.Class) {
	n := len(src)
	l := len(out)
	lim := j + cap(out) - l - 16 // a step may begin at j <= lim
	out = out[:cap(out)]
	sp, simd := loadSpecials16(), useSIMD
	for j <= lim && j+1 < n { // src[j] is a backslash
		if c := simpleEscapes[src[j+1]]; c != 0 {
			// \" \\ \/ \b \f \n \r \t: one byte, of which only '/'
			// may be written again as it is.
			clean = clean && c == '/'
			out[l] = c
			l++
			j += 2
		} else {
			if src[j+1] != 'u' || j+6 > n {
				break
			}
			r, ok := hexQuad(src[j+2 : j+6 : j+6])
			if !ok {
				break
			}
			if uint32(r)-0xD800 < 0x800 {
				// A surrogate: a high one and a low one's escape after
				// it (an astral code point written with ensure_ascii) are
				// 12 bytes read and 4 written; anything else is left to
				// unescapeUnicode, which says what is wrong.
				if r >= 0xDC00 || j+12 > n || src[j+6] != '\\' || src[j+7] != 'u' {
					break
				}
				lo, ok := hexQuad(src[j+8 : j+12 : j+12])
				if !ok || uint32(lo)-0xDC00 >= 0x400 {
					break
				}
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				u := out[l : l+4 : l+4]
				u[0], u[1], u[2], u[3] = 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F
				l += 4
				j += 12
				extra += 3
				class = backend.ClassAstral
			} else if j += 6; r < 0x80 {
				if r < 0x20 || r == '"' || r == '\\' {
					clean = false
				}
				out[l] = byte(r)
				l++
			} else if r < 0x800 {
				u := out[l : l+2 : l+2]
				u[0], u[1] = 0xC0|byte(r>>6), 0x80|byte(r)&0x3F
				l += 2
				extra++
				class = max(class, classOf(r))
			} else {
				u := out[l : l+3 : l+3]
				u[0], u[1], u[2] = 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F
				l += 3
				extra += 2
				class = max(class, backend.ClassBMP)
			}
		}
		if j < n && src[j] == '\\' { // escapes one after another (\u0416\u0438, \r\n)
			continue
		}
		// The text up to the next special byte, 16 bytes a step (each
		// block stored whole, then the length cut back to its special
		// byte, as in unescapeString).
		for {
			if j > lim || j+16 > n || !simd {
				return j, out[:l], clean, extra, class
			}
			m := sp.copyFirst((*[16]byte)(out[l:l+16]), src, j)
			if m != 0 {
				d := bits.TrailingZeros(m)
				l += d
				j += d
				break
			}
			l += 16
			j += 16
		}
		if src[j] != '\\' {
			break
		}
	}
	return j, out[:l], clean, extra, class
}

// simpleEscapes maps the byte after a backslash to the byte its two-byte
// escape stands for, and every other byte (\u's 'u' too) to 0.
var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escapeError is the error of the escape at src[j], a backslash, that
// unescapeCommon did not take: cut short by the input's end, not an escape,
// or a \u escape unescapeUnicode finds wrong (bad hex digits, a lone or
// broken surrogate). unescapeCommon takes every valid escape, so
// unescapeUnicode accepting this one would be a bug in it: a panic, which
// the engine reports as an internal error, not text decoded twice.
func escapeError(src []byte, j int) error {
	switch {
	case j+1 >= len(src):
		return failEnd(src)
	case src[j+1] != 'u':
		return fail(src, j, backend.MsgInvalidEscape)
	}
	if _, _, err := unescapeUnicode(src, j); err != nil {
		return err
	}
	panic("scalar: unescapeCommon left a valid escape at " + strconv.Itoa(j))
}

// arenaRoom returns out, the arena's bytes so far (unescapeString's local
// copy of t.Arena), with room for n more; when it must grow, the arena is
// grown as the tape grows it (t.ReserveArena: its allocator, if any) and
// out is the grown arena.
func arenaRoom(t *backend.Tape, out []byte, n int) []byte {
	if cap(out)-len(out) >= n {
		return out
	}
	return growArena(t, out, n)
}

//go:noinline
func growArena(t *backend.Tape, out []byte, n int) []byte {
	t.Arena = out
	t.ReserveArena(n)
	return t.Arena
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
