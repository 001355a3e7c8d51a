package writer

import (
	"strconv"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// text writes the ref entry at i, of kind k: a String quoted and escaped
// (unless Clean), a BigInt or Raw as is.
func (e *encoder) text(k backend.Kind, i int) {
	h := e.words[i]
	n := int(h & backend.LenMask)
	if k == backend.KindString && h&(backend.CleanBit|3<<backend.WidthShift) == backend.CleanBit {
		// The usual string, clean UTF-8: one copy between quotes, a
		// fixed 16-byte move when it is short and the source has the room.
		// Longer text asks for no more room than it fills, so that an
		// output sized exactly for it (pyshim's dumps_write_text) is never
		// grown.
		s := e.utf8(h, i, n)
		if n <= 16 && cap(s) >= 16 {
			e.grow(n + 2 + 16)
			l := len(e.buf)
			out := e.buf[l : l+n+2+16]
			out[0] = '"'
			copy16(out[1:], s[:16])
			out[n+1] = '"'
			e.buf = e.buf[:l+n+2]
			return
		}
		e.grow(n + 2)
		l := len(e.buf)
		out := e.buf[l : l+n+2]
		out[0] = '"'
		copy(out[1:], s)
		out[n+1] = '"'
		e.buf = e.buf[:l+n+2]
		return
	}
	width := backend.Width(h >> backend.WidthShift & 3)
	quoted := k == backend.KindString
	escape := k == backend.KindString && h&backend.CleanBit == 0
	if width == backend.WidthUTF8 {
		s := e.utf8(h, i, n)
		if k == backend.KindBigInt && e.bigFloat {
			e.bigIntFloat(s)
			return
		}
		if !escape {
			e.grow(len(s) + 2)
			if quoted {
				e.buf = append(e.buf, '"')
				e.buf = append(e.buf, s...)
				e.buf = append(e.buf, '"')
			} else {
				e.buf = append(e.buf, s...)
			}
			return
		}
		if quoted && n <= escapeChunk {
			// The usual escaped str: one reservation for the quotes and
			// the text, with the kernel's slack.
			e.grow(maxEscapeLen*n + 2 + escapeSlack)
			e.buf = append(e.buf, '"')
			e.buf = escapeUTF8Wide(e.buf, s)
			e.buf = append(e.buf, '"')
			return
		}
		e.grow(2)
		e.buf = append(e.buf, '"')
		for len(s) > 0 {
			c := s[:min(len(s), escapeChunk)]
			e.grow(maxEscapeLen*len(c) + 1 + escapeSlack)
			e.buf = escapeUTF8Wide(e.buf, c)
			s = s[len(c):]
		}
		e.buf = append(e.buf, '"')
		return
	}
	// CPython's fixed-width layouts live in external (C) memory only.
	p := e.t.External(i)
	if quoted && n <= escapeChunk {
		// The usual str: one reservation for the quotes and the text, no
		// chunks (so no surrogate pair to keep together).
		e.grow(maxEscapeLen*n + 2)
		e.buf = append(e.buf, '"')
		switch {
		case n == 0:
			// p may point at the end of its allocation (an empty str):
			// no *uint16 or *uint32 is made of it (checkptr, go test -race).
		case width == backend.WidthUCS1 && !escape:
			e.buf = transcodeLatin1(e.buf, unsafe.Slice((*byte)(p), n))
		case width == backend.WidthUCS1:
			e.buf = escapeLatin1(e.buf, unsafe.Slice((*byte)(p), n))
		case width == backend.WidthUCS2:
			e.buf = escapeUCS2(e.buf, unsafe.Slice((*uint16)(p), n), escape)
		default:
			e.buf = escapeUCS4(e.buf, unsafe.Slice((*uint32)(p), n), escape)
		}
		e.buf = append(e.buf, '"')
		return
	}
	e.grow(2)
	if quoted {
		e.buf = append(e.buf, '"')
	}
	for done := 0; done < n; {
		c := min(n-done, escapeChunk)
		e.grow(maxEscapeLen*c + 1)
		switch width {
		case backend.WidthUCS1:
			s := unsafe.Slice((*byte)(unsafe.Add(p, done)), c)
			if escape {
				e.buf = escapeLatin1(e.buf, s)
			} else {
				e.buf = transcodeLatin1(e.buf, s)
			}
		case backend.WidthUCS2:
			units := unsafe.Slice((*uint16)(unsafe.Add(p, 2*done)), c)
			if c > 1 && done+c < n && units[c-1]&0xfc00 == 0xd800 {
				// Keep a surrogate pair in one chunk.
				c--
				units = units[:c]
			}
			e.buf = escapeUCS2(e.buf, units, escape)
		default:
			e.buf = escapeUCS4(e.buf, unsafe.Slice((*uint32)(unsafe.Add(p, 4*done)), c), escape)
		}
		done += c
	}
	if quoted {
		e.buf = append(e.buf, '"')
	}
}

// bigIntFloat writes the integer digits s as the nearest float64 (see
// BigIntAsFloat).
func (e *encoder) bigIntFloat(s []byte) {
	// ParseFloat rounds correctly; digits that overflow give ±Inf, which
	// is written as null like every non-finite float.
	f, _ := strconv.ParseFloat(unsafe.String(unsafe.SliceData(s), len(s)), 64)
	e.grow(scalarRoom)
	e.buf = appendFloat(e.buf, f)
}

// utf8 returns the UTF-8 text of the ref entry at i with header h and
// length n, wherever it is stored.
func (e *encoder) utf8(h uint64, i, n int) []byte {
	off := e.words[i+1]
	switch backend.Storage(h >> backend.StorageShift & 0xf) {
	case backend.StorageInput:
		return e.input[off : off+uint64(n)]
	case backend.StorageArena:
		return e.t.Arena[off : off+uint64(n)]
	default:
		return unsafe.Slice((*byte)(e.t.External(i)), n)
	}
}

// Header bits of a String that quotedExternal writes: External text of
// under escapeChunk units that is not a plain copy (escaped UTF-8, or
// UCS1/2/4 to transcode). textTo tests them with one mask.
const (
	externalTextMask = 0xff<<backend.KindShift | storageMask | backend.LenMask&^(escapeChunk-1)
	externalText     = uint64(backend.KindString)<<backend.KindShift | uint64(backend.StorageExternal)<<backend.StorageShift
)

// quotedExternal appends, between quotes, the External String of n
// (1 to escapeChunk-1) units at p of the given width, escaped unless
// clean. It is text's own path for such strs, taken by textTo before
// text's general dispatch: the str's text, one reservation, the buffer
// in a register and no store of e.buf until the end (text/escaped spent
// ~100 instructions a str in text and ~50 in escapeUTF8Wide's checks
// besides the kernel).
func (e *encoder) quotedExternal(buf []byte, p unsafe.Pointer, n int, width backend.Width, clean bool) []byte {
	buf = e.room(buf, maxEscapeLen*n+2+escapeSlack)
	if width == backend.WidthUTF8 {
		return quotedEscapeUTF8(buf, unsafe.Slice((*byte)(p), n))
	}
	buf = append(buf, '"')
	switch {
	case width == backend.WidthUCS1 && clean:
		buf = transcodeLatin1(buf, unsafe.Slice((*byte)(p), n))
	case width == backend.WidthUCS1:
		buf = escapeLatin1(buf, unsafe.Slice((*byte)(p), n))
	case width == backend.WidthUCS2:
		buf = escapeUCS2(buf, unsafe.Slice((*uint16)(p), n), !clean)
	default:
		buf = escapeUCS4(buf, unsafe.Slice((*uint32)(p), n), !clean)
	}
	return append(buf, '"')
}

// quotedUCS4 appends the clean UCS4 External str of n units at p between
// quotes (text with emoji): ucs4Pairs at once, the pair it stops at and the
// rest to escapeUCS4. Apart from textTo, whose other paths would pay for
// its registers.
func (e *encoder) quotedUCS4(buf []byte, p unsafe.Pointer, n int) []byte {
	buf = e.room(buf, maxEscapeLen*n+2)
	l := len(buf)
	q := unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), l)
	*(*byte)(q) = '"'
	s := unsafe.Slice((*uint32)(p), n)
	written, read := ucs4Pairs(unsafe.Add(q, 1), 0, s, 0)
	buf = buf[:l+1+written]
	if read < n {
		buf = escapeUCS4(buf, s[read:], false)
	}
	return append(buf, '"')
}
