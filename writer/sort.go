package writer

import (
	"bytes"
	"encoding/binary"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// sortKey is a member being sorted: the first eight bytes of its key's
// UTF-8 text (big-endian, zero-padded), which decide most comparisons with
// one integer compare, and the key's tape index.
type sortKey struct {
	prefix uint64
	index  int
}

// sortedMembers writes the members of the object whose first key is at j
// and which ends at end, ordered by key as OPT_SORT_KEYS does: Python's str
// order, which is code point order and so UTF-8 byte order. The sort is
// stable, so members with equal keys keep their tape order.
func (e *encoder) sortedMembers(j, end, depth int) {
	base := len(e.keys)
	for j < end {
		e.keys = append(e.keys, sortKey{e.keyPrefix(j), j})
		j = e.t.Next(j + backend.RefWords)
	}
	keys := e.keys[base:]
	if len(keys) <= 32 {
		// Insertion sort: stable, and the fastest for the usual object.
		for k := 1; k < len(keys); k++ {
			for m := k; m > 0 && e.lessKey(keys[m], keys[m-1]); m-- {
				keys[m], keys[m-1] = keys[m-1], keys[m]
			}
		}
	} else {
		slices.SortStableFunc(keys, e.compareSortKeys)
	}
	// e.keys may move while members nest; index it afresh each time.
	for n := range len(e.keys) - base {
		e.member(e.keys[base+n].index, depth, n == 0)
	}
	e.keys = e.keys[:base]
}

func (e *encoder) lessKey(a, b sortKey) bool {
	if a.prefix != b.prefix {
		return a.prefix < b.prefix
	}
	return e.compareKeys(a.index, b.index) < 0
}

func (e *encoder) compareSortKeys(a, b sortKey) int {
	if a.prefix != b.prefix {
		if a.prefix < b.prefix {
			return -1
		}
		return 1
	}
	return e.compareKeys(a.index, b.index)
}

// keyPrefix returns the first eight bytes of the UTF-8 text of the key at
// i as a big-endian number, zero-padded: prefixes order like the keys, and
// equal prefixes need a full comparison.
func (e *encoder) keyPrefix(i int) uint64 {
	h := e.words[i]
	if backend.Width(h>>backend.WidthShift&3) == backend.WidthUTF8 {
		k := e.keyUTF8(h, i)
		if len(k) >= 8 {
			return binary.BigEndian.Uint64(k)
		}
		var b [8]byte
		copy(b[:], k)
		return binary.BigEndian.Uint64(b[:])
	}
	var b [12]byte // room for the last character's overflow
	n := 0
	for c := e.codePointsOf(h, i); n < 8; {
		r := c.next()
		if r < 0 {
			break
		}
		if r < 0x80 {
			b[n] = byte(r)
			n++
		} else {
			n += utf8.EncodeRune(b[n:], r)
		}
	}
	return binary.BigEndian.Uint64(b[:8])
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
	case backend.KindString, backend.KindBigInt, backend.KindRaw:
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
