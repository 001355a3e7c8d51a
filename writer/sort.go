package writer

import (
	"bytes"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// sortedMembers writes the members of the object whose first key is at j
// and which ends at end, ordered by key as OPT_SORT_KEYS does: Python's str
// order, which is code point order and so UTF-8 byte order. The sort is
// stable, so members with equal keys keep their tape order.
func (e *encoder) sortedMembers(j, end, depth int) {
	base := len(e.keys)
	for j < end {
		e.keys = append(e.keys, j)
		j = e.t.Next(j + backend.RefWords)
	}
	slices.SortStableFunc(e.keys[base:], e.compareKeys)
	// e.keys may move while members nest; index it afresh each time.
	for n := range len(e.keys) - base {
		e.member(e.keys[base+n], depth, n == 0)
	}
	e.keys = e.keys[:base]
}

// compareKeys orders the keys at tape indices a and b by code point.
func (e *encoder) compareKeys(a, b int) int {
	ha, hb := e.words[a], e.words[b]
	wa := backend.Width(ha >> backend.WidthShift & 3)
	wb := backend.Width(hb >> backend.WidthShift & 3)
	if wa == backend.WidthUTF8 && wb == backend.WidthUTF8 {
		return bytes.Compare(e.keyUTF8(ha, a), e.keyUTF8(hb, b))
	}
	if wa == wb && wa == backend.WidthUCS1 {
		// Latin-1 bytes are code points.
		return bytes.Compare(e.keyUnits(ha, a, 1), e.keyUnits(hb, b, 1))
	}
	return e.compareMixed(ha, a, hb, b)
}

// keyUTF8 returns the UTF-8 key at i with header h; a key that is not a ref
// entry (never produced) sorts as empty.
func (e *encoder) keyUTF8(h uint64, i int) []byte {
	switch backend.Kind(h >> backend.KindShift) {
	case backend.KindString, backend.KindBigInt, backend.KindRaw, backend.KindPlain:
		return e.utf8(h, i, int(h&backend.LenMask))
	}
	return nil
}

// keyUnits returns the raw bytes of the fixed-width key at i (size bytes a
// code unit).
func (e *encoder) keyUnits(h uint64, i, size int) []byte {
	return unsafe.Slice((*byte)(e.t.External(i)), size*int(h&backend.LenMask))
}

// codePoints iterates over the code points of any key layout.
type codePoints struct {
	width backend.Width
	b     []byte // UTF-8 or the raw units
}

func (e *encoder) codePointsOf(h uint64, i int) codePoints {
	w := backend.Width(h >> backend.WidthShift & 3)
	switch w {
	case backend.WidthUTF8:
		return codePoints{w, e.keyUTF8(h, i)}
	case backend.WidthUCS1:
		return codePoints{w, e.keyUnits(h, i, 1)}
	case backend.WidthUCS2:
		return codePoints{w, e.keyUnits(h, i, 2)}
	default:
		return codePoints{w, e.keyUnits(h, i, 4)}
	}
}

// next returns the next code point, or -1 at the end. UCS2 surrogate pairs
// are joined so that astral characters order above the BMP, as in Python.
func (c *codePoints) next() rune {
	if len(c.b) == 0 {
		return -1
	}
	switch c.width {
	case backend.WidthUTF8:
		r, n := utf8.DecodeRune(c.b)
		c.b = c.b[n:]
		return r
	case backend.WidthUCS1:
		r := rune(c.b[0])
		c.b = c.b[1:]
		return r
	case backend.WidthUCS2:
		r := rune(*(*uint16)(unsafe.Pointer(&c.b[0])))
		c.b = c.b[2:]
		if r >= 0xd800 && r < 0xdc00 && len(c.b) >= 2 {
			if lo := rune(*(*uint16)(unsafe.Pointer(&c.b[0]))); lo >= 0xdc00 && lo <= 0xdfff {
				c.b = c.b[2:]
				r = 0x10000 + (r-0xd800)<<10 + lo - 0xdc00
			}
		}
		return r
	default:
		r := rune(*(*uint32)(unsafe.Pointer(&c.b[0])))
		c.b = c.b[4:]
		return r
	}
}

// compareMixed compares two keys of different layouts code point by code
// point.
func (e *encoder) compareMixed(ha uint64, a int, hb uint64, b int) int {
	ca, cb := e.codePointsOf(ha, a), e.codePointsOf(hb, b)
	for {
		ra, rb := ca.next(), cb.next()
		if ra != rb {
			if ra < rb {
				return -1
			}
			return 1
		}
		if ra < 0 {
			return 0
		}
	}
}
