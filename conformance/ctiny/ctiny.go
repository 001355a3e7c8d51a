package ctiny

/*
#cgo CFLAGS: -I${SRCDIR}/../../pyshim -O2
// Through this folder's link (doc.go), not -I: so that the build cache sees it.
#include "loads_tiny.h"

static size_t ctiny_parse(const uint8_t *src, size_t n, uint64_t *w, size_t cap)
{
	return loads_tiny_parse(src, n, w, cap);
}
*/
import "C"

import (
	"unsafe"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

// Max is the longest input the path tries (LOADS_TINY_MAX); Words is the
// tape room it is given (LOADS_TINY_WORDS).
const (
	Max   = int(C.LOADS_TINY_MAX)
	Words = int(C.LOADS_TINY_WORDS)
)

// Tape runs the path on src with the room the extension gives it (Words)
// and returns its tape, or ok false when it gives up. Strings in the tape are
// offsets into src, as backend/scalar's.
func Tape(src []byte) (words []uint64, ok bool) { return TapeRoom(src, Words) }

// TapeRoom runs the path on src with a tape of room words: every input, of
// any length, goes to the C function, which checks the length and the room
// itself.
func TapeRoom(src []byte, room int) (words []uint64, ok bool) {
	var empty [1]byte
	sp := (*C.uint8_t)(unsafe.Pointer(&empty[0]))
	if len(src) > 0 {
		sp = (*C.uint8_t)(unsafe.Pointer(&src[0]))
	}
	w := make([]uint64, max(room, 1))
	n := C.ctiny_parse(sp, C.size_t(len(src)), (*C.uint64_t)(unsafe.Pointer(&w[0])), C.size_t(room))
	if n == 0 {
		return nil, false
	}
	if int(n) > room {
		panic("ctiny: the tiny path wrote past its room")
	}
	return w[:n:n], true
}

// Parser is the path with the extension's fallback: the tiny parse when it
// takes the input, else backend/scalar's. The zero value is ready and safe
// for concurrent use.
type Parser struct{}

// Parse implements backend.Parser.
func (Parser) Parse(src []byte, t *backend.Tape) error {
	if words, ok := Tape(src); ok {
		t.ReserveWords(len(words))
		t.Words = append(t.Words, words...)
		return nil
	}
	return scalar.Parser{}.Parse(src, t)
}
