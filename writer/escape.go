package writer

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// escapes[c] is what orjson writes for the byte c inside a string, or "" when
// c is written as itself: the two-character escapes for '"', '\\' and
// \b \f \n \r \t, \u00XX with lowercase hex for the other C0 controls. DEL,
// U+2028, U+2029 and all other non-ASCII characters are written raw.
var escapes = func() (t [256]string) {
	const hex = "0123456789abcdef"
	for c := range 0x20 {
		t[c] = `\u00` + string(hex[c>>4]) + string(hex[c&15])
	}
	t['\b'], t['\f'], t['\n'], t['\r'], t['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	t['"'], t['\\'] = `\"`, `\\`
	return t
}()

// maxEscapeLen is the longest output of one input code unit (\u00XX), which
// bounds the growth of escaped text: reserving maxEscapeLen per unit is
// always enough, also for the 2-4 byte UTF-8 of a transcoded character.
const maxEscapeLen = 6

// escapeChunk caps how much of a long string is escaped per reservation, so
// that a huge string does not reserve six times its size at once.
const escapeChunk = 16 << 10

// escapeSlack is the room escaped UTF-8 text asks for past its
// maxEscapeLen bytes a byte: the one-pass kernel's stores
// (escape_sse2_amd64.s) reach 16 bytes past that bound.
const escapeSlack = 16

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// escapeMask has the high bit of every byte of w (little-endian) that needs
// escaping set: controls below 0x20, '"' and '\\'. Bytes above the lowest
// flagged one may be flagged falsely (borrows), so only its lowest set bit
// is meaningful.
func escapeMask(w uint64) uint64 {
	ctl := (w - lsb*0x20) &^ w
	q := w ^ lsb*'"'
	q = (q - lsb) &^ q
	b := w ^ lsb*'\\'
	b = (b - lsb) &^ b
	return (ctl | q | b) & msb
}

// cleanPrefixUTF8 returns the length of the longest prefix of s that needs
// no escaping, scanning eight bytes at a time.
func cleanPrefixUTF8(s []byte) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if m := escapeMask(binary.LittleEndian.Uint64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if escapes[s[i]] != "" {
			return i
		}
	}
	return len(s)
}

// cleanPrefixLatin1 is cleanPrefixUTF8 that also stops at bytes >= 0x80,
// which a Latin-1 (UCS1) string must transcode to two UTF-8 bytes.
func cleanPrefixLatin1(s []byte) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		if m := escapeMask(w) | w&msb; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || escapes[c] != "" {
			return i
		}
	}
	return len(s)
}

// escapeUTF8 appends s escaped. The caller has reserved
// maxEscapeLen×len(s) bytes. Each 8-byte word is stored whole before it is
// checked (the reservation has room for it: before byte i at most
// maxEscapeLen×i bytes are written), so a clean run costs one load and one
// store a word, with no memmove call per run between escapes.
func escapeUTF8(dst, s []byte) []byte {
	p := freeSpace(dst, len(s))
	d, i := 0, 0
	for {
		for ; i+8 <= len(s); i += 8 {
			w := binary.LittleEndian.Uint64(s[i:])
			store64(unsafe.Add(p, d), w)
			if m := escapeMask(w); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				d += k
				i += k
				goto escape
			}
			d += 8
		}
		for ; i < len(s); i++ {
			if escapes[s[i]] != "" {
				goto escape
			}
			*(*byte)(unsafe.Add(p, d)) = s[i]
			d++
		}
		return dst[:len(dst)+d]
	escape:
		// At most 6 bytes, the room of one unit.
		w := &escapeWords[s[i]]
		store32(unsafe.Add(p, d), uint32(w.word))
		store16(unsafe.Add(p, d+4), uint16(w.word>>32))
		d += w.len
		i++
	}
}

// escapeWords[c] is escapes[c] as a little-endian word and its length.
var escapeWords = func() (t [256]struct {
	word uint64
	len  int
}) {
	for c, e := range escapes {
		for k := len(e) - 1; k >= 0; k-- {
			t[c].word = t[c].word<<8 | uint64(e[k])
		}
		t[c].len = len(e)
	}
	return t
}()

// escapeLatin1 appends the UCS1 text s as escaped UTF-8. The caller has
// reserved maxEscapeLen×len(s) bytes.
func escapeLatin1(dst, s []byte) []byte {
	for {
		n := cleanPrefixLatin1(s)
		dst = append(dst, s[:n]...)
		if n == len(s) {
			return dst
		}
		if c := s[n]; c >= 0x80 {
			dst = append(dst, 0xc0|c>>6, 0x80|c&0x3f)
		} else {
			dst = append(dst, escapes[c]...)
		}
		s = s[n+1:]
	}
}

// replacement is U+FFFD in UTF-8, written for a lone surrogate or an invalid
// code point in UCS2/UCS4 text. CPython strings can hold lone surrogates;
// orjson refuses them ("str is not valid UTF-8: surrogates not allowed"), so
// the tape's producer rejects them first and this only keeps the output
// valid UTF-8 if one slips through.
const replacement = "\uFFFD"
