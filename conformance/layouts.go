package conformance

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// Layout is one way a tape can hold a text: where it is stored, in which
// code unit, and whether the producer marked it clean.
type Layout struct {
	Name    string
	Storage backend.Storage
	Width   backend.Width
	Clean   bool
}

// Layouts lists every way the text s can be stored in a tape: UTF-8 in the
// input, in the arena and in external memory, each clean (when s needs no
// escaping) and dirty, and each of CPython's fixed-width layouts wide enough
// for s (what dumps hands over), clean and dirty.
func Layouts(s string) []Layout {
	clean := !needsEscape(s)
	var out []Layout
	for _, st := range []struct {
		name string
		s    backend.Storage
	}{{"input", backend.StorageInput}, {"arena", backend.StorageArena}, {"external", backend.StorageExternal}} {
		if clean {
			out = append(out, Layout{"utf8 " + st.name + " clean", st.s, backend.WidthUTF8, true})
		}
		out = append(out, Layout{"utf8 " + st.name, st.s, backend.WidthUTF8, false})
	}
	widest := rune(0)
	for _, r := range s {
		widest = max(widest, r)
	}
	for _, w := range []struct {
		name string
		w    backend.Width
		max  rune
	}{{"ucs1", backend.WidthUCS1, 0xff}, {"ucs2", backend.WidthUCS2, 0xffff}, {"ucs4", backend.WidthUCS4, utf8.MaxRune}} {
		if widest > w.max {
			continue
		}
		if clean {
			out = append(out, Layout{w.name + " clean", backend.StorageExternal, w.w, true})
		}
		out = append(out, Layout{w.name, backend.StorageExternal, w.w, false})
	}
	return out
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// TextStore holds the input and the external memory that tapes built by
// AppendText point into; keep it alive (runtime.KeepAlive) while they are
// read. Go's collector does not move heap objects, so an address taken here
// stays valid as long as the store is reachable.
type TextStore struct {
	Input    []byte
	external [][]byte
}

// AppendText appends to t a ref entry of kind k holding s in layout l.
func (st *TextStore) AppendText(t *backend.Tape, k backend.Kind, s string, l Layout) {
	class, chars := classOf(s)
	ref := backend.Ref{Storage: l.Storage, Class: class, Width: l.Width, Clean: l.Clean, Chars: chars}
	if k != backend.KindString {
		ref.Chars = 0
	}
	units := encodeUnits(s, l.Width)
	ref.Len = len(s)
	if l.Width != backend.WidthUTF8 {
		ref.Len = chars
	}
	switch l.Storage {
	case backend.StorageInput:
		ref.Where = uint64(len(st.Input))
		st.Input = append(st.Input, units...)
	case backend.StorageArena:
		ref.Where = uint64(len(t.Arena))
		t.Arena = append(t.Arena, units...)
	default:
		// Its own allocation, with nothing after the text (as a Python
		// str's data may have), so that a writer that reads past the text
		// is caught by the race detector's or the allocator's checks no
		// sooner than it reads another string's bytes.
		mem := make([]byte, max(len(units), 1))
		copy(mem, units)
		st.external = append(st.external, mem)
		ref.Where = uint64(uintptr(unsafe.Pointer(&mem[0])))
	}
	t.AppendRef(k, ref)
}

// encodeUnits returns s in the code unit of width w, native byte order.
func encodeUnits(s string, w backend.Width) []byte {
	if w == backend.WidthUTF8 {
		return []byte(s)
	}
	size := 1 << (w - 1)
	out := make([]byte, 0, size*len(s))
	for _, r := range s {
		switch size {
		case 1:
			out = append(out, byte(r))
		case 2:
			out = binary.NativeEndian.AppendUint16(out, uint16(r))
		default:
			out = binary.NativeEndian.AppendUint32(out, uint32(r))
		}
	}
	return out
}

func classOf(s string) (backend.Class, int) {
	c, n := backend.ClassASCII, 0
	for _, r := range s {
		n++
		switch {
		case r >= 0x10000:
			c = max(c, backend.ClassAstral)
		case r >= 0x100:
			c = max(c, backend.ClassBMP)
		case r >= 0x80:
			c = max(c, backend.ClassLatin1)
		}
	}
	return c, n
}
