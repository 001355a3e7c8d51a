package backend

import "unsafe"

// Units returns the text of the ref entry at i as its code units' bytes,
// wherever it is stored: UTF-8, or 1, 2 or 4 bytes a character in native
// byte order (the entry's Width; Len counts code units, so the slice holds
// Len times the unit's size). input is the document StorageInput refs point
// into. External text is memory the tape's producer owns; the slice is valid
// while that memory is.
//
// It serves readers that must not use unsafe themselves (the reference
// writer): the one conversion of an External address is here.
func (t *Tape) Units(i int, input []byte) []byte {
	h := t.Words[i]
	n := int(h & LenMask)
	if w := Width(h >> WidthShift & 3); w != WidthUTF8 {
		n <<= w - 1 // 1, 2 or 4 bytes a unit
	}
	off := t.Words[i+1]
	switch Storage(h >> StorageShift & 0xf) {
	case StorageInput:
		return input[off : off+uint64(n) : off+uint64(n)]
	case StorageArena:
		return t.Arena[off : off+uint64(n) : off+uint64(n)]
	default:
		if n == 0 {
			return nil
		}
		return unsafe.Slice((*byte)(t.External(i)), n)
	}
}
