package writer

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
)

// CPython's fixed-width layouts (UCS1, UCS2, UCS4) are transcoded to UTF-8
// here. The text is handled a machine word at a time (4 UCS2 or 2 UCS4
// units, 8 UCS1 bytes): a word of ASCII that needs no escaping is packed
// into bytes at once, and the characters of other words are encoded without
// a branch on their length, since tweets and other mixed-script text switch
// between 1- and 3-byte forms too often for such branches to predict. Only a
// word holding a character to escape or a surrogate goes through the exact
// per-unit path. On amd64 SSSE3 kernels (transcode_amd64.s) take UCS2 and
// Latin-1 text first, 8 units at a time, as long as a block holds only
// ASCII with 2-byte or with 3-byte characters, and the last 1 to 7 units of
// clean text as one block padded with zeros (when the load stays on one
// page and the buffer has the room); the word code takes the blocks they
// stop at.
//
// Every function here appends to dst within its capacity, and checks first
// that the caller has reserved maxEscapeLen bytes a unit. The fast paths
// store through a pointer rather than a slice: no form takes more than
// maxEscapeLen bytes a unit, so before unit i at most maxEscapeLen×i bytes
// are written, and the widest store (13 bytes, four 3-byte characters
// written 4 bytes at a time) ends within maxEscapeLen×(i+4) bytes of the
// start (the kernel's, 28 bytes past its output, within maxEscapeLen×(i+8));
// bounds checks, which the compiler cannot prove away, would cost as much
// as the encoding.

// SWAR constants for 16-bit lanes.
const (
	lanes16   = 0x0001000100010001
	high16    = 0x8000800080008000
	nonASCII  = 0xff80ff80ff80ff80 // bits that make a UCS2 unit non-ASCII
	below800  = 0xf800f800f800f800 // all clear: the unit encodes in 1 or 2 bytes
	surrogate = 0xd800d800d800d800 // a unit & 0xf800 equal to this is a surrogate
)

// zeroLane16 reports whether some 16-bit lane of x is zero (exactly: a
// borrow only reaches lanes above a zero one).
func zeroLane16(x uint64) bool { return (x-lanes16)&^x&high16 != 0 }

// escapeLanes16 reports whether one of the four UCS2 units in w needs
// escaping: a control below 0x20, '"' or '\\'.
func escapeLanes16(w uint64) bool {
	return zeroLane16(w&0xffe0ffe0ffe0ffe0) || zeroLane16(w^lanes16*'"') || zeroLane16(w^lanes16*'\\')
}

// freeSpace returns the address of dst's unused capacity after checking
// that it holds maxEscapeLen bytes for each of n units.
func freeSpace(dst []byte, n int) unsafe.Pointer {
	if cap(dst)-len(dst) < maxEscapeLen*n {
		panic("writer: text transcoded without its reservation")
	}
	return unsafe.Pointer(unsafe.SliceData(dst[len(dst):cap(dst)]))
}

// putBMP stores the UTF-8 form of the BMP code point c (not a surrogate)
// at p and returns its length, 1 to 3, choosing the form with masks rather
// than branches. It stores 4 bytes whatever the length.
func putBMP(p unsafe.Pointer, c uint32) int {
	two := int32(0x7f-c) >> 31    // -1 when c >= 0x80
	three := int32(0x7ff-c) >> 31 // -1 when c >= 0x800
	low := c & 0x3f << 8          // the last byte's payload, in the second byte
	v := c ^ (c^(0x80c0|c>>6|low))&uint32(two)
	store32(p, v^(v^(0x8080e0|c>>12|c<<2&0x3f00|low<<8))&uint32(three))
	return int(1 - two - three)
}

// put3 stores the 3-byte UTF-8 form of c (0x800 <= c <= 0xffff, not a
// surrogate) at p; it stores 4 bytes.
func put3(p unsafe.Pointer, c uint32) {
	store32(p, 0x8080e0|c>>12|c>>6&0x3f<<8|c&0x3f<<16)
}

// put4 stores the 4-byte UTF-8 form of c (0x10000 <= c <= 0x10ffff) at p.
func put4(p unsafe.Pointer, c uint32) {
	store32(p, 0x808080f0|c>>18|c>>12&0x3f<<8|c>>6&0x3f<<16|c&0x3f<<24)
}

// escapeUCS2 appends the UCS2 text s (native-endian code units) as escaped
// UTF-8 (escape false: transcoded only). Surrogate pairs are joined and
// lone surrogates become U+FFFD. The caller has reserved maxEscapeLen×len(s)
// bytes.
func escapeUCS2(dst []byte, s []uint16, escape bool) []byte {
	p := freeSpace(dst, len(s))
	out := dst[len(dst):cap(dst)]
	d, i := 0, 0
	for i < len(s) {
		stop := len(s)
		if useSSSE3 {
			// The SIMD kernel takes the runs of ASCII with 2- or
			// 3-byte characters (clean text to its end); ucs2Words
			// the 8 units that stopped it.
			r, w := ucs2Blocks(unsafe.Add(p, d), s[i:], escape, cap(out)-d)
			i, d = i+r, d+w
			if i == len(s) {
				break
			}
			stop = min(len(s), i+8)
		}
		if i+4 <= stop {
			d, i = ucs2Words(p, d, s[:stop], i, escape)
			if i+4 > stop && stop < len(s) {
				continue
			}
		}
		// Unit by unit: the word that stopped ucs2Words (a pair that
		// starts in its last lane ends past it), or the last units.
		for end := min(i+4, len(s)); i < end; {
			c := uint32(s[i])
			if c&0xf800 == 0xd800 {
				d, i = escapeUnitUCS2(out, d, s, i, escape)
				continue
			}
			if c < 0x80 && escape {
				w := &escapeWords[c]
				if w.len != 0 {
					store32(unsafe.Add(p, d), uint32(w.word))
					store16(unsafe.Add(p, d+4), uint16(w.word>>32))
					d += w.len
					i++
					continue
				}
			}
			d += putBMP(unsafe.Add(p, d), c)
			i++
		}
	}
	return dst[:len(dst)+d]
}

// ucs2Words writes the words of four units of s from unit i on at p+d
// until fewer than four units are left or a word holds a surrogate or (with
// escape) a character to escape, and returns the new d and i. It is apart
// from escapeUCS2 so that its few values stay in registers.
func ucs2Words(p unsafe.Pointer, d int, s []uint16, i int, escape bool) (int, int) {
	for ; i+4 <= len(s); i += 4 {
		w := load4x16(unsafe.Pointer(&s[i]))
		if escape && escapeLanes16(w) {
			break
		}
		q := unsafe.Add(p, d)
		if w&nonASCII == 0 {
			// Four ASCII units: gather their low bytes.
			x := (w | w>>8) & 0x0000ffff0000ffff
			store32(q, uint32(x|x>>16))
			d += 4
			continue
		}
		if zeroLane16(w&below800 ^ surrogate) {
			break
		}
		if !zeroLane16(w & below800) {
			// Four 3-byte characters (a run of CJK text).
			put3(q, uint32(w&0xffff))
			put3(unsafe.Add(q, 3), uint32(w>>16&0xffff))
			put3(unsafe.Add(q, 6), uint32(w>>32&0xffff))
			put3(unsafe.Add(q, 9), uint32(w>>48))
			d += 12
			continue
		}
		n := putBMP(q, uint32(w&0xffff))
		n += putBMP(unsafe.Add(q, n), uint32(w>>16&0xffff))
		n += putBMP(unsafe.Add(q, n), uint32(w>>32&0xffff))
		d += n + putBMP(unsafe.Add(q, n), uint32(w>>48))
	}
	return d, i
}

// escapeUnitUCS2 writes the unit s[i] (with s[i+1] when they are a
// surrogate pair) at out[d:] and returns the new d and i: the exact path,
// with bounds checks, for text that needs escaping or holds surrogates.
func escapeUnitUCS2(out []byte, d int, s []uint16, i int, escape bool) (int, int) {
	c := rune(s[i])
	switch {
	case c < 0x80 && escape && escapes[c] != "":
		return d + copy(out[d:], escapes[c]), i + 1
	case c < 0xd800 || c > 0xdfff:
		return d + utf8.EncodeRune(out[d:], c), i + 1
	case c < 0xdc00 && i+1 < len(s) && s[i+1]&0xfc00 == 0xdc00:
		return d + utf8.EncodeRune(out[d:], 0x10000+(c-0xd800)<<10+rune(s[i+1])-0xdc00), i + 2
	default:
		return d + copy(out[d:], replacement), i + 1
	}
}

// escapeUCS4 appends the UCS4 text s (native-endian code points) as escaped
// UTF-8 (escape false: transcoded only); surrogates and values beyond
// U+10FFFF become U+FFFD. The caller has reserved maxEscapeLen×len(s)
// bytes. CPython uses this layout only for text with a character beyond the
// BMP (emoji), which is mostly ASCII and BMP text all the same.
func escapeUCS4(dst []byte, s []uint32, escape bool) []byte {
	p := freeSpace(dst, len(s))
	out := dst[len(dst):cap(dst)]
	d, i := 0, 0
	if !escape {
		// Clean text: ucs4Pairs takes the pairs of ASCII and emoji, and
		// the pair it stops at goes unit by unit.
		for i < len(s) {
			d, i = ucs4Pairs(p, d, s, i)
			for end := min(i+2, len(s)); i < end; i++ {
				d = putUCS4(p, out, d, s[i], false)
			}
		}
		return dst[:len(dst)+d]
	}
	for ; i+2 <= len(s); i += 2 {
		a, b := s[i], s[i+1]
		if (a|b) < 0x80 && escapes[a] == "" && escapes[b] == "" {
			store16(unsafe.Add(p, d), uint16(a|b<<8))
			d += 2
			continue
		}
		d = putUCS4(p, out, d, a, escape)
		d = putUCS4(p, out, d, b, escape)
	}
	if i < len(s) {
		d = putUCS4(p, out, d, s[i], escape)
	}
	return dst[:len(dst)+d]
}

// maxAstral is the largest c-0x10000 of a character beyond the BMP.
const maxAstral = utf8.MaxRune - 0x10000

// ucs4Pairs writes the clean UCS4 text s from unit i on at p+d, two units
// at a time, while each pair is ASCII or beyond the BMP (emoji, and the
// spaces and punctuation between them), and returns the new d and i: the
// pair it stops at, or the last unit, is left to the caller. It is apart
// from escapeUCS4 so that its few values stay in registers, and it reads s
// through a pointer: i+2 <= len(s) bounds every load.
func ucs4Pairs(p unsafe.Pointer, d int, s []uint32, i int) (int, int) {
	sp := unsafe.Pointer(unsafe.SliceData(s))
	for ; i+2 <= len(s); i += 2 {
		a := *(*uint32)(unsafe.Add(sp, 4*i))
		b := *(*uint32)(unsafe.Add(sp, 4*i+4))
		q := unsafe.Add(p, d)
		switch {
		case a|b < 0x80:
			store16(q, uint16(a|b<<8))
			d += 2
		case a-0x10000 <= maxAstral && b-0x10000 <= maxAstral:
			put4(q, a)
			put4(unsafe.Add(q, 4), b)
			d += 8
		case a < 0x80 && b-0x10000 <= maxAstral:
			*(*byte)(q) = byte(a)
			put4(unsafe.Add(q, 1), b)
			d += 5
		case b < 0x80 && a-0x10000 <= maxAstral:
			put4(q, a)
			*(*byte)(unsafe.Add(q, 4)) = byte(b)
			d += 5
		default:
			return d, i
		}
	}
	return d, i
}

// putUCS4 writes the code point c at d (p and out are the same memory) and
// returns the new d. A character beyond the BMP (an emoji), the reason the
// str is UCS4, is stored in one move, and BMP text without escapes with
// putBMP; the rest is escapeUnitUCS4's.
func putUCS4(p unsafe.Pointer, out []byte, d int, c uint32, escape bool) int {
	if c-0x10000 <= maxAstral {
		put4(unsafe.Add(p, d), c)
		return d + 4
	}
	if c < 0xd800 && (c >= 0x80 || !escape) {
		return d + putBMP(unsafe.Add(p, d), c)
	}
	return escapeUnitUCS4(p, out, d, c, escape)
}

// escapeUnitUCS4 writes the code point c at d (p and out are the same
// memory) and returns the new d: the exact path, for what putUCS4 does not
// take.
func escapeUnitUCS4(p unsafe.Pointer, out []byte, d int, c uint32, escape bool) int {
	switch {
	case c < 0x80 && escape && escapes[c] != "":
		return d + copy(out[d:], escapes[c])
	case c < 0xd800 || c-0xe000 < 0x10000-0xe000:
		return d + putBMP(unsafe.Add(p, d), c)
	default:
		// Beyond the BMP, or a surrogate or invalid value (U+FFFD).
		return d + utf8.EncodeRune(out[d:], rune(min(c, utf8.MaxRune+1)))
	}
}

// transcodeLatin1 appends the UCS1 text s as UTF-8 without escaping. The
// caller has reserved maxEscapeLen×len(s) bytes.
func transcodeLatin1(dst, s []byte) []byte {
	p := freeSpace(dst, len(s))
	// The SSSE3 kernel (amd64) takes every block of 8 bytes, and the last
	// 1 to 7 when the buffer's free capacity allows.
	i, d := latin1Blocks(p, s, cap(dst)-len(dst))
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		if w&msb == 0 {
			binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(unsafe.Add(p, d)), 8), w)
			d += 8
			continue
		}
		for _, c := range (*[8]byte)(s[i:]) {
			d += putLatin1(unsafe.Add(p, d), uint32(c))
		}
	}
	for _, c := range s[i:] {
		d += putLatin1(unsafe.Add(p, d), uint32(c))
	}
	return dst[:len(dst)+d]
}

// putLatin1 stores the UTF-8 form of the Latin-1 character c at p and
// returns its length; it stores 2 bytes whatever the length.
func putLatin1(p unsafe.Pointer, c uint32) int {
	two := 0 - c>>7 // all ones when c >= 0x80
	store16(p, uint16(c^(c^(0x80c0|c>>6|c&0x3f<<8))&two))
	return int(1 + c>>7)
}
