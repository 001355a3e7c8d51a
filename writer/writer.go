package writer

import (
	"encoding/binary"
	"strings"
	"sync"

	"github.com/isojson/isojson/backend"
)

// Flags are orjson's option bits; the writer reads the three below and
// ignores every other bit, so callers pass orjson options straight through.
type Flags uint32

const (
	Indent2       Flags = 1    // OPT_INDENT_2
	SortKeys      Flags = 32   // OPT_SORT_KEYS
	AppendNewline Flags = 1024 // OPT_APPEND_NEWLINE

	// BigIntAsFloat is not an orjson option (orjson rejects this bit, so it
	// never arrives from Python): it writes BigInt entries as the nearest
	// float64, which is what orjson.loads makes of an integer beyond 64
	// bits, so that a reformatted document equals dumps(loads(doc)).
	BigIntAsFloat Flags = 1 << 30
)

// Append appends the JSON text of the tape's root value to dst and returns
// the extended slice. input is the document that StorageInput refs point
// into (nil if there are none). An empty tape writes nothing.
func Append(dst []byte, t *backend.Tape, input []byte, flags Flags) []byte {
	o := Output{Buf: dst}
	o.Write(t, input, flags)
	return o.Buf
}

// Output is a buffer that the writer appends to. When Alloc is non-nil the
// buffer only ever grows through Alloc.GrowBytes (the writer never appends
// past cap(Buf)), so Buf can be C memory.
type Output struct {
	Buf   []byte
	Alloc backend.Allocator
}

// Write appends the JSON text of the tape's root value to o.Buf.
func (o *Output) Write(t *backend.Tape, input []byte, flags Flags) {
	if len(t.Words) == 0 {
		return
	}
	e := encoderPool.Get().(*encoder)
	e.out, e.buf, e.alloc, e.t, e.words, e.input = o, o.Buf, o.Alloc, t, t.Words, input
	e.bigFloat = flags&BigIntAsFloat != 0
	if flags&(Indent2|SortKeys) == 0 {
		e.buf, _ = e.compact(e.buf, 0)
	} else {
		e.indent = flags&Indent2 != 0
		e.sort = flags&SortKeys != 0
		e.general(0, 0)
	}
	if flags&AppendNewline != 0 {
		e.grow(1)
		e.buf = append(e.buf, '\n')
	}
	o.Buf = e.buf
	*e = encoder{keys: e.keys[:0]}
	encoderPool.Put(e)
}

// encoder holds one Write's state; the pool keeps the sort scratch between
// calls so that sorting allocates nothing in the steady state.
type encoder struct {
	out      *Output
	buf      []byte
	alloc    backend.Allocator
	t        *backend.Tape
	words    []uint64
	input    []byte
	indent   bool
	sort     bool
	bigFloat bool
	// keys is a stack of member indices being written in sorted order;
	// each sorted object pushes its members and pops them when done.
	keys []sortKey
}

var encoderPool = sync.Pool{New: func() any { return new(encoder) }}

// grow makes room for n more bytes.
func (e *encoder) grow(n int) {
	if cap(e.buf)-len(e.buf) >= n {
		return
	}
	e.growSlow(n)
}

func (e *encoder) growSlow(n int) {
	need := max(len(e.buf)+n, 2*cap(e.buf), 512)
	if e.alloc != nil {
		e.buf = e.alloc.GrowBytes(e.buf, need)
		// The old buffer may be freed now (realloc): keep o.Buf on the
		// live one, so that a caller that recovers from a panic later in
		// this Write (a malformed tape) neither uses nor frees freed memory.
		e.out.Buf = e.buf
		if cap(e.buf)-len(e.buf) < n {
			// Appending now would move the buffer to the Go heap
			// behind the caller's back.
			panic("writer: Allocator.GrowBytes returned less than asked")
		}
		return
	}
	b := make([]byte, len(e.buf), need)
	copy(b, e.buf)
	e.buf = b
}

// scalarRoom is enough for any non-text scalar (a float is the longest) or
// a container's two brackets.
const scalarRoom = maxFloatLen

// shortKeyRoom is what keyColon's fast path stores: a key of up to 32
// bytes with its quotes and colon.
const shortKeyRoom = 32 + 3

// memberRoom is reserved once per object member on the compact path: the
// comma, a short key, and a scalar value (or a container's bracket).
const memberRoom = 1 + shortKeyRoom + scalarRoom

// room returns buf with room for n more bytes. The compact walk keeps the
// output slice in a local variable (a register) and passes it in and out
// of its helpers: kept in the encoder, every check and append would load
// and store it through memory.
func (e *encoder) room(buf []byte, n int) []byte {
	if cap(buf)-len(buf) >= n {
		return buf
	}
	e.buf = buf
	e.growSlow(n)
	return e.buf
}

// appendScalar writes the non-container, non-text entry at i whose kind is k to
// buf, and returns buf and the index after the entry. The caller has
// reserved scalarRoom bytes.
func appendScalar(buf []byte, words []uint64, k backend.Kind, i int) ([]byte, int) {
	switch k {
	case backend.KindNull:
		return append(buf, "null"...), i + 1
	case backend.KindTrue:
		return append(buf, "true"...), i + 1
	case backend.KindFalse:
		return append(buf, "false"...), i + 1
	case backend.KindInt:
		return appendInt(buf, int64(words[i+1])), i + 2
	case backend.KindUint:
		return appendUint(buf, words[i+1]), i + 2
	case backend.KindFloat:
		return appendFloatBits(buf, words[i+1]), i + 2
	}
	panic("writer: invalid tape entry " + k.String())
}

// textTo is text for the compact walk: buf in, buf out.
func (e *encoder) textTo(buf []byte, k backend.Kind, i int) []byte {
	e.buf = buf
	e.text(k, i)
	return e.buf
}

// compact writes the value at i to buf with no whitespace and keys in tape
// order (the default options, the hot path), and returns buf and the index
// after the value.
func (e *encoder) compact(buf []byte, i int) ([]byte, int) {
	words := e.words
	h := words[i]
	switch k := backend.Kind(h >> backend.KindShift); k {
	case backend.KindString, backend.KindBigInt, backend.KindRaw, backend.KindPlain:
		return e.textTo(buf, k, i), i + backend.RefWords
	case backend.KindArray:
		end := int(words[i+1])
		buf = e.room(buf, scalarRoom)
		buf = append(buf, '[')
		j := i + backend.ContainerWords
		for first := true; j < end; first = false {
			buf = e.room(buf, scalarRoom+1)
			if !first {
				buf = append(buf, ',')
			}
			switch backend.Kind(words[j] >> backend.KindShift) {
			case backend.KindFloat:
				// Arrays of floats (coordinates, series) skip a call.
				buf = appendFloatBits(buf, words[j+1])
				j += 2
			case backend.KindArray, backend.KindObject:
				// Nested containers (canada's coordinate pairs) skip
				// compactElem.
				buf, j = e.compact(buf, j)
			default:
				buf, j = e.compactElem(buf, j)
			}
		}
		buf = e.room(buf, 1)
		return append(buf, ']'), end
	case backend.KindObject:
		end := int(words[i+1])
		buf = e.room(buf, scalarRoom)
		buf = append(buf, '{')
		j := i + backend.ContainerWords
		for first := true; j < end; first = false {
			// One check covers the comma, a short key and a scalar.
			buf = e.room(buf, memberRoom)
			if !first {
				buf = append(buf, ',')
			}
			buf, j = e.keyColon(buf, j)
			// The commonest member values skip compactElem's call.
			switch k := backend.Kind(words[j] >> backend.KindShift); k {
			case backend.KindString:
				buf = e.textTo(buf, k, j)
				j += backend.RefWords
			case backend.KindInt:
				buf = appendInt(buf, int64(words[j+1]))
				j += 2
			case backend.KindArray, backend.KindObject:
				buf, j = e.compact(buf, j)
			default:
				buf, j = e.compactElem(buf, j)
			}
		}
		buf = e.room(buf, 1)
		return append(buf, '}'), end
	default:
		buf = e.room(buf, scalarRoom)
		return appendScalar(buf, words, k, i)
	}
}

// compactElem is compact for a container member, with scalarRoom bytes
// already reserved: scalars are written inline without another call.
func (e *encoder) compactElem(buf []byte, i int) ([]byte, int) {
	words := e.words
	switch k := backend.Kind(words[i] >> backend.KindShift); k {
	case backend.KindInt:
		return appendInt(buf, int64(words[i+1])), i + 2
	case backend.KindFloat:
		return appendFloatBits(buf, words[i+1]), i + 2
	case backend.KindString:
		return e.textTo(buf, k, i), i + backend.RefWords
	case backend.KindArray, backend.KindObject, backend.KindBigInt, backend.KindRaw, backend.KindPlain:
		return e.compact(buf, i)
	default:
		return appendScalar(buf, words, k, i)
	}
}

// key writes the object key at i (a String entry; any ref kind works) and
// returns the index of its value.
func (e *encoder) key(i int) int {
	k := backend.Kind(e.words[i] >> backend.KindShift)
	switch k {
	case backend.KindString, backend.KindBigInt, backend.KindRaw, backend.KindPlain:
		e.text(k, i)
		return i + backend.RefWords
	}
	// Not produced by any parser or by the extension; written as a value
	// so that a wrong tape still gives text rather than a crash.
	e.buf, i = e.compact(e.buf, i)
	return i
}

// keyColon writes the object key at i and the colon after it to buf, and
// returns buf and the index of its value; the caller has reserved
// shortKeyRoom+scalarRoom bytes, and the same room is left for the value.
// A clean UTF-8 key (nearly every key) of up to 32 bytes is written within
// that reservation with overlapping 16/8/4-byte moves that read nothing
// past its end (External text from Python has no room there, so the copy16
// of text does not apply), instead of a memmove call.
func (e *encoder) keyColon(buf []byte, i int) ([]byte, int) {
	h := e.words[i]
	if n := int(h & backend.LenMask); n <= 32 && h&(0xff<<backend.KindShift|backend.CleanBit|3<<backend.WidthShift) ==
		uint64(backend.KindString)<<backend.KindShift|backend.CleanBit {
		s := e.utf8(h, i, n)
		l := len(buf)
		out := buf[l : l+shortKeyRoom]
		out[0] = '"'
		switch d := out[1:]; {
		case n >= 16:
			copy16(d, s)
			copy16(d[n-16:], s[n-16:])
		case n >= 8:
			binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(s))
			binary.LittleEndian.PutUint64(d[n-8:], binary.LittleEndian.Uint64(s[n-8:]))
		case n >= 4:
			binary.LittleEndian.PutUint32(d, binary.LittleEndian.Uint32(s))
			binary.LittleEndian.PutUint32(d[n-4:], binary.LittleEndian.Uint32(s[n-4:]))
		case n > 0:
			d[0], d[n/2], d[n-1] = s[0], s[n/2], s[n-1]
		}
		out[n+1] = '"'
		out[n+2] = ':'
		return buf[:l+n+3], i + backend.RefWords
	}
	e.buf = buf
	i = e.key(i)
	e.grow(1 + scalarRoom)
	return append(e.buf, ':'), i
}

// indentText is a newline and enough spaces for MaxDepth levels; deeper
// levels (possible only in hand-built tapes) are written in pieces.
var indentText = "\n" + strings.Repeat(" ", 2*(backend.MaxDepth+1))

// newline writes a newline and the indentation of depth levels.
func (e *encoder) newline(depth int) {
	n := 1 + 2*depth
	e.grow(n)
	if n <= len(indentText) {
		e.buf = append(e.buf, indentText[:n]...)
		return
	}
	e.buf = append(e.buf, indentText...)
	for n -= len(indentText); n > 0; n -= len(indentText) - 1 {
		e.buf = append(e.buf, indentText[1:1+min(n, len(indentText)-1)]...)
	}
}

// general writes the value at i at nesting depth with the indent and sort
// options in e, and returns the index after it.
func (e *encoder) general(i, depth int) int {
	h := e.words[i]
	k := backend.Kind(h >> backend.KindShift)
	switch k {
	case backend.KindString, backend.KindBigInt, backend.KindRaw, backend.KindPlain:
		e.text(k, i)
		return i + backend.RefWords
	case backend.KindArray:
		end := int(e.words[i+1])
		e.grow(scalarRoom)
		j := i + backend.ContainerWords
		if j == end {
			e.buf = append(e.buf, "[]"...)
			return end
		}
		e.buf = append(e.buf, '[')
		for first := true; j < end; first = false {
			if !first {
				e.grow(1)
				e.buf = append(e.buf, ',')
			}
			if e.indent {
				e.newline(depth + 1)
			}
			j = e.general(j, depth+1)
		}
		if e.indent {
			e.newline(depth)
		}
		e.grow(1)
		e.buf = append(e.buf, ']')
		return end
	case backend.KindObject:
		end := int(e.words[i+1])
		e.grow(scalarRoom)
		j := i + backend.ContainerWords
		if j == end {
			e.buf = append(e.buf, "{}"...)
			return end
		}
		e.buf = append(e.buf, '{')
		if e.sort {
			e.sortedMembers(j, end, depth)
		} else {
			for first := true; j < end; first = false {
				j = e.member(j, depth, first)
			}
		}
		if e.indent {
			e.newline(depth)
		}
		e.grow(1)
		e.buf = append(e.buf, '}')
		return end
	default:
		e.grow(scalarRoom)
		e.buf, i = appendScalar(e.buf, e.words, k, i)
		return i
	}
}

// member writes the object member whose key is at j (preceded by a comma
// unless first) and returns the index after its value.
func (e *encoder) member(j, depth int, first bool) int {
	if !first {
		e.grow(1)
		e.buf = append(e.buf, ',')
	}
	if e.indent {
		e.newline(depth + 1)
	}
	j = e.key(j)
	e.grow(2)
	if e.indent {
		e.buf = append(e.buf, ':', ' ')
	} else {
		e.buf = append(e.buf, ':')
	}
	return e.general(j, depth+1)
}
