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
// Raw (a Fragment, a preformatted number) as it is, a BigInt's digits as they
// are or, with WriteBigIntAsFloat, as the nearest float64.
func (w *walk) text(i int) {
	switch k := w.t.Kind(i); k {
	case backend.KindString:
		w.out.byte('"')
		w.each(i, w.escaped)
		w.out.byte('"')
	case backend.KindRaw:
		w.each(i, w.out.bytes)
	case backend.KindBigInt:
		if w.flags&backend.WriteBigIntAsFloat != 0 {
			// ParseFloat rounds correctly; digits beyond the float range
			// give ±Inf, written as null like every non-finite float.
			f, _ := strconv.ParseFloat(string(w.utf8(i)), 64)
			w.out.string(formatFloat(f))
			return
		}
		w.each(i, w.out.bytes)
	default:
		panic(fmt.Sprintf("reference writer: tape word %d is a %v, not text", i, k))
	}
}

// key writes the object key at i. Keys are String entries; any text kind is
// written as its kind says.
func (w *walk) key(i int) {
	switch w.t.Kind(i) {
	case backend.KindString, backend.KindBigInt, backend.KindRaw:
		w.text(i)
	default:
		panic(fmt.Sprintf("reference writer: object key at tape word %d is a %v, not text", i, w.t.Kind(i)))
	}
}

// each calls emit with the text of the ref entry at i as UTF-8, in pieces,
// whatever code unit it is stored in: UTF-8 in one piece; CPython's one-byte
// (Latin-1), two-byte (UTF-16 code units, surrogate pairs joined) and
// four-byte layouts, in native byte order, one character a piece.
func (w *walk) each(i int, emit func([]byte)) {
	units := w.t.Units(i, w.input)
	var char [utf8.UTFMax]byte
	switch w.t.Ref(i).Width {
	case backend.WidthUTF8:
		emit(units)
	case backend.WidthUCS1:
		for _, c := range units {
			emit(utf8.AppendRune(char[:0], rune(c)))
		}
	case backend.WidthUCS2:
		for n := 0; n+2 <= len(units); n += 2 {
			r := rune(binary.NativeEndian.Uint16(units[n:]))
			if utf16.IsSurrogate(r) && n+4 <= len(units) {
				if pair := utf16.DecodeRune(r, rune(binary.NativeEndian.Uint16(units[n+2:]))); pair != utf8.RuneError {
					r = pair
					n += 2
				}
			}
			emit(utf8.AppendRune(char[:0], r))
		}
	default:
		for n := 0; n+4 <= len(units); n += 4 {
			emit(utf8.AppendRune(char[:0], rune(binary.NativeEndian.Uint32(units[n:]))))
		}
	}
}

// utf8 returns the text of the ref entry at i as UTF-8 (a copy unless it is
// stored as UTF-8).
func (w *walk) utf8(i int) []byte {
	if w.t.Ref(i).Width == backend.WidthUTF8 {
		return w.t.Units(i, w.input)
	}
	var out []byte
	w.each(i, func(piece []byte) { out = append(out, piece...) })
	return out
}

// escaped writes UTF-8 text with orjson's escaping: a quote and a backslash
// are preceded by a backslash; the control characters below U+0020 are \b,
// \t, \n, \f, \r or \u00XX (lowercase hex digits); everything else, U+007F
// and all non-ASCII text included, is copied as it is. Bytes are escaped one
// at a time: in valid UTF-8 every byte of a multi-byte character is 0x80 or
// more, so none is taken for a character that needs escaping.
func (w *walk) escaped(s []byte) {
	const hex = "0123456789abcdef"
	for _, c := range s {
		switch {
		case c == '"':
			w.out.string(`\"`)
		case c == '\\':
			w.out.string(`\\`)
		case c == '\b':
			w.out.string(`\b`)
		case c == '\t':
			w.out.string(`\t`)
		case c == '\n':
			w.out.string(`\n`)
		case c == '\f':
			w.out.string(`\f`)
		case c == '\r':
			w.out.string(`\r`)
		case c < 0x20:
			w.out.string(`\u00` + hex[c>>4:c>>4+1] + hex[c&0xf:c&0xf+1])
		default:
			w.out.byte(c)
		}
	}
}
