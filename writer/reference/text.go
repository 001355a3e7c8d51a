package reference

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
)

// text writes the ref entry at i by its kind: a String quoted and escaped, a
// Plain (a preformatted datetime, UUID...) quoted as it is, a Raw (a Fragment)
// as it is, a BigInt's digits as they are or, with WriteBigIntAsFloat, as
// the nearest float64.
func (w *walk) text(i int) {
	s := w.utf8(i)
	switch k := w.t.Kind(i); k {
	case backend.KindString:
		w.buf = appendQuoted(w.buf, s)
	case backend.KindPlain:
		w.buf = append(w.buf, '"')
		w.buf = append(w.buf, s...)
		w.buf = append(w.buf, '"')
	case backend.KindRaw:
		w.buf = append(w.buf, s...)
	case backend.KindBigInt:
		if w.flags&backend.WriteBigIntAsFloat != 0 {
			// ParseFloat rounds correctly; digits beyond the float range
			// give ±Inf, written as null like every non-finite float.
			f, _ := strconv.ParseFloat(string(s), 64)
			w.buf = appendFloat(w.buf, f)
			return
		}
		w.buf = append(w.buf, s...)
	default:
		panic(fmt.Sprintf("reference writer: tape word %d is a %v, not text", i, k))
	}
}

// key writes the object key at i. Keys are String entries; any text kind is
// written as its kind says.
func (w *walk) key(i int) {
	switch w.t.Kind(i) {
	case backend.KindString, backend.KindBigInt, backend.KindRaw, backend.KindPlain:
		w.text(i)
	default:
		panic(fmt.Sprintf("reference writer: object key at tape word %d is a %v, not text", i, w.t.Kind(i)))
	}
}

// utf8 returns the text of the ref entry at i as UTF-8, whatever code unit
// it is stored in: UTF-8 as it is; CPython's one-byte (Latin-1), two-byte
// (UTF-16 code units, surrogate pairs joined) and four-byte layouts, in
// native byte order, decoded character by character.
func (w *walk) utf8(i int) []byte {
	units := w.t.Units(i, w.input)
	switch w.t.Ref(i).Width {
	case backend.WidthUTF8:
		return units
	case backend.WidthUCS1:
		var out []byte
		for _, c := range units {
			out = utf8.AppendRune(out, rune(c))
		}
		return out
	case backend.WidthUCS2:
		u16 := make([]uint16, len(units)/2)
		for n := range u16 {
			u16[n] = binary.NativeEndian.Uint16(units[2*n:])
		}
		var out []byte
		for _, r := range utf16.Decode(u16) {
			out = utf8.AppendRune(out, r)
		}
		return out
	default:
		var out []byte
		for n := 0; n+4 <= len(units); n += 4 {
			out = utf8.AppendRune(out, rune(binary.NativeEndian.Uint32(units[n:])))
		}
		return out
	}
}

// appendQuoted appends s between quotes with orjson's escaping: a quote and
// a backslash are preceded by a backslash; the control characters below
// U+0020 are \b, \t, \n, \f, \r or \u00XX (lowercase hex digits); everything
// else, U+007F and all non-ASCII text included, is copied as it is. Bytes are
// escaped one at a time: in valid UTF-8 every byte of a multi-byte character
// is 0x80 or more, so none is taken for a character that needs escaping.
func appendQuoted(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, c := range s {
		switch {
		case c == '"':
			dst = append(dst, `\"`...)
		case c == '\\':
			dst = append(dst, `\\`...)
		case c == '\b':
			dst = append(dst, `\b`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\f':
			dst = append(dst, `\f`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}
