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
// through a pointer within the room it measured once, each leaf with the
// comma after it: a literal as one word, an int below 100 or an empty
// container as 4 bytes, other ints below 10^8 as their digit word; a larger
// int leaves it for the outer loop, which calls appendInt. Any other kind,
// or the array's end, ends the run before its comma (the last leaf's is
// taken back), which the walk then writes.
func (e *encoder) leafRun(buf []byte, i, top int) ([]byte, int) {
	words := e.words
	end := min(top>>1, len(words))
	// The tape is read through w0 at byte offsets: at below endOff, and the
	// entry at at is a leaf of the run (end is within words; the empty
	// container's second word is within its entry). Each leaf is written
	// with the comma that would follow it, and the run's last comma is
	// taken back when it ends: one store for a literal and its comma.
	w0 := unsafe.Pointer(unsafe.SliceData(words))
	at, endOff := uintptr(i)*8, uintptr(end)*8
	// An entry of two words at last or beyond would end past the tape (a
	// malformed one): indexed then, so that it panics as a bounds check.
	last := uintptr(len(words)-1) * 8
	for {
		if cap(buf)-len(buf) < leafRoom {
			buf = e.room(buf, leafRunRoom)
		}
		// The inner loop: d is the output length, within lim while a
		// leaf (and its comma) fits.
		base := unsafe.Pointer(unsafe.SliceData(buf))
		d, lim := uintptr(len(buf)), uintptr(cap(buf)-leafRoom)
		for d <= lim {
			h := *(*uint64)(unsafe.Add(w0, at))
			k := h >> backend.KindShift
			if k-uint64(backend.KindNull) < 3 { // null, false, true
				lit := literalsComma[k-uint64(backend.KindNull)]
				store64(unsafe.Add(base, d), lit)
				d += uintptr(lit >> 56)
				at += 8
			} else if k-uint64(backend.KindInt) < 2 { // Int, Uint
				if at >= last {
					_ = words[at/8+1]
				}
				v := *(*uint64)(unsafe.Add(w0, at+8))
				if v < uint64(len(smallIntsComma)) { // from the table: no digit arithmetic
					s := smallIntsComma[v]
					store32(unsafe.Add(base, d), s)
					d += uintptr(s >> 24)
				} else if v < 1e8 {
					w, n := digitString(v)
					store64(unsafe.Add(base, d), w)
					*(*byte)(unsafe.Add(base, d+uintptr(n))) = ','
					d += uintptr(n) + 1
				} else { // a negative Int too
					goto call
				}
				at += 8 * backend.NumberWords
			} else if k-uint64(backend.KindArray) < 2 && at < last &&
				*(*uint64)(unsafe.Add(w0, at+8)) <= uint64(at/8+backend.ContainerWords) {
				// An empty array or object ('[' + 2 is ']', '{' + 2 is '}').
				open := uint32('[' + 0x20*(k-uint64(backend.KindArray)))
				store32(unsafe.Add(base, d), open|(open+2)<<8|','<<16)
				d += 3
				at += 8 * backend.ContainerWords
			} else { // no leaf: the run ends before it
				return buf[:d-1], int(at / 8)
			}
			if at >= endOff {
				return buf[:d-1], int(at / 8)
			}
		}
		buf = buf[:d]
		continue
	call:
		// An int of 9 digits or more, or negative (the room is there).
		buf = buf[:d]
		if k := backend.Kind(*(*uint64)(unsafe.Add(w0, at)) >> backend.KindShift); k == backend.KindInt {
			buf = appendInt(buf, int64(*(*uint64)(unsafe.Add(w0, at+8))))
		} else {
			buf = appendUint(buf, *(*uint64)(unsafe.Add(w0, at+8)))
		}
		buf = append(buf, ',')
		at += 8 * backend.NumberWords
		if at >= endOff {
			return buf[:len(buf)-1], int(at / 8)
		}
	}
}

// literalsComma are null, false and true (in Kind order) each with a
// comma after it, as little-endian words, their length in the top byte
// (written too, past the comma, within leafRoom).
var literalsComma = func() (t [3]uint64) {
	for k, lit := range literals {
		t[k] = lit.word | uint64(',')<<(8*lit.len) | uint64(lit.len+1)<<56
	}
	return t
}()

// smallIntsComma[v] is v's digits for v < 100 and a comma, little-endian in
// the low 3 bytes, their count in the top byte. The commonest ints of all
// (counts, flags, small ids) then cost a load and a 4-byte store.
var smallIntsComma = func() (t [100]uint32) {
	for v := range t {
		w, n := digitString(uint64(v))
		t[v] = uint32(w&0xffff) | uint32(',')<<(8*n) | uint32(n+1)<<24
	}
	return t
}()
