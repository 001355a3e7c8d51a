//go:build (amd64 || arm64) && !isojson_nosonic

package sonic

import (
	"bytes"
	"encoding/json"
	"errors"
	"unsafe"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/rescan"
)

// errFallback stops sonic's walk: the document goes to the scalar parser.
var errFallback = errors.New("sonic backend: document needs the scalar parser")

// keepBuf is the largest wrapper buffer a pooled visitor keeps.
const keepBuf = 4 << 20

// frame is an open container of the isojson tape.
type frame struct {
	at     int // index of its header
	values int // entries directly inside: elements, or keys plus values
}

// tapeVisitor implements ast.Visitor, writing the isojson tape for the
// document inside the wrapper (see the package documentation). Offsets are
// in the coordinates of src, the document inside the wrapper.
type tapeVisitor struct {
	t    *backend.Tape
	buf  []byte // the wrapper
	src  []byte // buf[1 : len(buf)-3]: the document
	base uintptr
	open []frame
	// cur is where the next string's opening quote is searched from: just
	// past the previous string (strings are the only values holding quotes,
	// and sonic reports them in input order).
	cur int
	// The wrapper array: begun, ended, the number of its elements and
	// whether the last one is the sentinel.
	begun, ended bool
	outer        int
	sentinel     bool
}

func (v *tapeVisitor) reset(buf []byte, t *backend.Tape) {
	v.t = t
	v.buf = buf
	v.src = buf[1 : len(buf)-3]
	v.base = uintptr(unsafe.Pointer(unsafe.SliceData(buf))) + 1
	v.open = v.open[:0]
	v.cur = 0
	v.begun, v.ended, v.outer, v.sentinel = false, false, 0, false
}

// release drops the references to the caller's tape and, when it is large,
// to the buffer, before the visitor goes back to the pool.
func (v *tapeVisitor) release() {
	v.t, v.src = nil, nil
	if cap(v.buf) > keepBuf {
		v.buf = nil
	}
}

// finished reports whether the walk ended exactly as a valid document does:
// the wrapper closed with the document and the sentinel as its elements.
func (v *tapeVisitor) finished() bool {
	return v.ended && v.sentinel && v.outer == 2 && len(v.open) == 0
}

// offsetOf returns the offset in src of s's text, or -1 when s is not a
// slice of the input (sonic made it: an unescaped string).
func (v *tapeVisitor) offsetOf(s string) int {
	off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - v.base
	if len(s) == 0 || off >= uintptr(len(v.src)) {
		return -1
	}
	return int(off)
}

// value counts one value in the innermost open container, or as an element
// of the wrapper; only one such element (the document) may precede the
// sentinel.
func (v *tapeVisitor) value() error {
	if n := len(v.open); n > 0 {
		v.open[n-1].values++
		return nil
	}
	if v.outer++; v.outer > 1 {
		return errFallback
	}
	return nil
}

func (v *tapeVisitor) OnNull() error {
	if err := v.value(); err != nil {
		return err
	}
	v.t.AppendScalar(backend.KindNull)
	return nil
}

func (v *tapeVisitor) OnBool(b bool) error {
	if err := v.value(); err != nil {
		return err
	}
	k := backend.KindFalse
	if b {
		k = backend.KindTrue
	}
	v.t.AppendScalar(k)
	return nil
}

func (v *tapeVisitor) OnString(s string) error {
	if err := v.value(); err != nil {
		return err
	}
	return v.appendString(s)
}

func (v *tapeVisitor) OnObjectKey(key string) error {
	n := len(v.open)
	if n == 0 || v.t.Kind(v.open[n-1].at) != backend.KindObject {
		return errFallback // sonic never does this; a wrong walk must not panic
	}
	v.open[n-1].values++
	return v.appendString(key)
}

// appendString appends the string sonic reported as s: its text in the
// input when it has no escapes, else decoded again from the original.
func (v *tapeVisitor) appendString(s string) error {
	t := v.t
	if off := v.offsetOf(s); off >= 0 {
		c, chars, ok := rescan.InputString(v.src[off : off+len(s)])
		if !ok {
			return errFallback
		}
		t.AppendRef(backend.KindString, backend.Ref{
			Storage: backend.StorageInput, Class: c, Clean: true, Len: len(s), Where: uint64(off), Chars: chars,
		})
		v.cur = off + len(s) + 1
		return nil
	}
	q := bytes.IndexByte(v.src[v.cur:], '"')
	if q < 0 {
		return errFallback
	}
	openAt := v.cur + q
	closeAt := rescan.StringEnd(v.src, openAt)
	if closeAt < 0 {
		return errFallback
	}
	v.cur = closeAt + 1
	if closeAt == openAt+1 {
		t.AppendRef(backend.KindString, backend.Ref{
			Storage: backend.StorageInput, Clean: true, Where: uint64(openAt + 1),
		})
		return nil
	}
	// Decoding never lengthens the text, so the reserved arena suffices and
	// Unescape's appends stay in the tape's own memory.
	start := len(t.Arena)
	t.ReserveArena(closeAt - openAt)
	arena, c, chars, clean, ok := rescan.Unescape(t.Arena, v.src[openAt+1:closeAt])
	t.Arena = arena
	// The text must decode to what sonic decoded: a cheap proof that the
	// quote search found this very string.
	if !ok || string(arena[start:]) != s {
		return errFallback
	}
	t.AppendRef(backend.KindString, backend.Ref{
		Storage: backend.StorageArena, Class: c, Clean: clean, Len: len(arena) - start, Where: uint64(start), Chars: chars,
	})
	return nil
}

// number appends the number whose text sonic reported as n, re-parsed from
// the input; the wrapper's sentinel is recognised by its place.
func (v *tapeVisitor) number(n json.Number) error {
	off := v.offsetOf(string(n))
	if off < 0 {
		if len(v.open) == 0 && v.outer == 1 && len(n) == 1 &&
			uintptr(unsafe.Pointer(unsafe.StringData(string(n))))-v.base == uintptr(len(v.src)+1) {
			v.sentinel = true
			v.outer++
			return nil
		}
		return errFallback
	}
	if err := v.value(); err != nil {
		return err
	}
	if !rescan.AppendNumber(v.t, v.src, off, off+len(n)) {
		return errFallback
	}
	return nil
}

func (v *tapeVisitor) OnInt64(_ int64, n json.Number) error     { return v.number(n) }
func (v *tapeVisitor) OnFloat64(_ float64, n json.Number) error { return v.number(n) }

func (v *tapeVisitor) begin(k backend.Kind) error {
	if !v.begun {
		v.begun = true // the wrapper
		return nil
	}
	if len(v.open) >= backend.MaxDepth {
		return errFallback
	}
	if err := v.value(); err != nil {
		return err
	}
	v.open = append(v.open, frame{at: v.t.OpenContainer(k)})
	return nil
}

func (v *tapeVisitor) end(members bool) error {
	n := len(v.open)
	if n == 0 {
		if v.ended || members {
			return errFallback
		}
		v.ended = true // the wrapper
		return nil
	}
	f := v.open[n-1]
	v.open = v.open[:n-1]
	if members {
		if v.t.Kind(f.at) != backend.KindObject || f.values%2 != 0 {
			return errFallback
		}
		f.values /= 2
	} else if v.t.Kind(f.at) != backend.KindArray {
		return errFallback
	}
	v.t.CloseContainer(f.at, f.values)
	return nil
}

func (v *tapeVisitor) OnArrayBegin(int) error  { return v.begin(backend.KindArray) }
func (v *tapeVisitor) OnObjectBegin(int) error { return v.begin(backend.KindObject) }
func (v *tapeVisitor) OnArrayEnd() error       { return v.end(false) }
func (v *tapeVisitor) OnObjectEnd() error      { return v.end(true) }
