package writer

import (
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// leafRoom is what one leaf of leafRun takes at most: a comma and an Int
// with its sign (appendInt stores 25 bytes).
const leafRoom = 1 + 25

// leafRunRoom is the room leafRun asks for when it has less than a leaf's:
// enough for a few hundred small leaves between two checks.
const leafRunRoom = 4096

// leafRun writes the leaf at i (null, false, true, an Int, a Uint or an
// empty array or object) and the leaves that directly follow it in the same
// array, comma-separated, and returns buf and the index after the last: the
// compact walk's case for those kinds in an array. top is the walk's
// innermost container (end<<1 | isObject), an array. A list of small ints,
// of bools and nulls or of empty lists then costs a turn of the inner loop
// below an item instead of a turn of the walk (its kind switch,
// container-end test, room check and comma). That loop makes no call, so
// that nothing it keeps in registers is spilled around one, and stores
// through a pointer within the room it measured once: literals and empty
// containers as one word, ints below 10^8 as their digit word; a larger
// int leaves it for the outer loop, which calls appendInt. Any other kind,
// or the array's end, ends the run before its comma, which the walk then
// writes.
func (e *encoder) leafRun(buf []byte, i, top int) ([]byte, int) {
	words := e.words
	end := min(top>>1, len(words))
	k := backend.Kind(words[i] >> backend.KindShift) // the leaf at i's kind
	for {
		if cap(buf)-len(buf) < leafRoom {
			buf = e.room(buf, leafRunRoom)
		}
		// The inner loop: d is the output length, within lim while a
		// leaf fits; i < end and the entry at i is a leaf.
		base := unsafe.Pointer(unsafe.SliceData(buf))
		d, lim := len(buf), cap(buf)-leafRoom
		for d <= lim {
			switch {
			case uint(k-backend.KindNull) < 3: // null, false, true
				lit := &literals[k-backend.KindNull]
				store64(unsafe.Add(base, d), lit.word)
				d += lit.len
				i++
			case k <= backend.KindUint: // Int, Uint
				v := words[i+1]
				if v < uint64(len(smallInts)) { // from the table: no digit arithmetic
					s := smallInts[v]
					store16(unsafe.Add(base, d), uint16(s))
					d += int(s >> 16)
					i += backend.NumberWords
					break
				}
				if v >= 1e8 { // a negative Int too
					goto call
				}
				w, n := digitString(v)
				store64(unsafe.Add(base, d), w)
				d += n
				i += backend.NumberWords
			default: // an empty array or object ('[' + 2 is ']', '{' + 2 is '}')
				open := uint16('[' + 0x20*(k-backend.KindArray))
				store16(unsafe.Add(base, d), open|(open+2)<<8)
				d += 2
				i += backend.ContainerWords
			}
			if i >= end {
				return buf[:d], i
			}
			if k = backend.Kind(words[i] >> backend.KindShift); !isLeaf(k, words, i) {
				return buf[:d], i
			}
			*(*byte)(unsafe.Add(base, d)) = ','
			d++
		}
		buf = buf[:d]
		continue
	call:
		// An int of 9 digits or more, or negative (the room is there).
		buf = buf[:d]
		if k == backend.KindInt {
			buf = appendInt(buf, int64(words[i+1]))
		} else {
			buf = appendUint(buf, words[i+1])
		}
		i += backend.NumberWords
		if i >= end {
			return buf, i
		}
		if k = backend.Kind(words[i] >> backend.KindShift); !isLeaf(k, words, i) {
			return buf, i
		}
		buf = append(buf, ',')
	}
}

// smallInts[v] is digitString(v) for v < 100: the digits' little-endian
// word in the low 16 bits, their count above. The commonest ints of all
// (counts, flags, small ids) then cost a load and a 2-byte store.
var smallInts = func() (t [100]uint32) {
	for v := range t {
		w, n := digitString(uint64(v))
		t[v] = uint32(w&0xffff) | uint32(n)<<16
	}
	return t
}()

// isLeaf reports whether the entry at i, of kind k, is one that leafRun
// writes. (Array and Object are adjacent kinds: one unsigned compare.)
func isLeaf(k backend.Kind, words []uint64, i int) bool {
	if uint(k-backend.KindNull) <= uint(backend.KindUint-backend.KindNull) {
		return true
	}
	return uint(k-backend.KindArray) <= 1 && int(words[i+1]) <= i+backend.ContainerWords
}
