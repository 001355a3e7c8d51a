package writer

import (
	"encoding/binary"
	"math"
	"strings"
	"sync"
	"unsafe"

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
	o.write(e, t, input, flags)
	encoderPool.Put(e)
}

// Scratch is the state a Write keeps between calls (its stacks), for a
// caller that has per-call state of its own to keep it in, such as the
// engine's pooled call headers: WriteWith uses it where Write takes one
// from the package's pool, a sync.Pool Get and Put that cost about 110
// instructions of a short call. The zero Scratch is ready to use; it
// serves one Write at a time.
type Scratch struct{ e encoder }

// WriteWith is Write with the scratch s.
func (o *Output) WriteWith(s *Scratch, t *backend.Tape, input []byte, flags Flags) {
	if len(t.Words) == 0 {
		return
	}
	o.write(&s.e, t, input, flags)
}

func (o *Output) write(e *encoder, t *backend.Tape, input []byte, flags Flags) {
	e.out, e.buf, e.alloc, e.t, e.words, e.input = o, o.Buf, o.Alloc, t, t.Words, input
	e.bigFloat = flags&BigIntAsFloat != 0
	// Emptied: a Write that panicked (a malformed tape) leaves entries in
	// a caller's Scratch, which the walk would work above, but which
	// would pile up.
	e.keys, e.stack = e.keys[:0], e.stack[:0]
	if flags&SortKeys == 0 {
		if e.stack == nil {
			e.stack = e.stackBuf[:0]
		}
		if flags&Indent2 == 0 {
			e.buf, _ = e.compact(e.buf, 0)
		} else {
			e.buf, _ = e.indented(e.buf, 0)
		}
	} else {
		// Sorted here only for Go callers: the extension sorts in C
		// (pyshim/dumps/dumps_sort.c) and clears SortKeys.
		e.indent = flags&Indent2 != 0
		e.sort = flags&SortKeys != 0
		e.general(0, 0)
	}
	if flags&AppendNewline != 0 {
		e.grow(1)
		e.buf = append(e.buf, '\n')
	}
	o.Buf = e.buf
	*e = encoder{keys: e.keys[:0], stack: e.stack[:0]}
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
	// stack holds the open containers of the compact walk, in stackBuf
	// up to its size, so that a new encoder (the pool may drop one) needs
	// no allocation for it.
	stack    []int
	stackBuf [32]int
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

// shortKeyRoom is what the compact walk's copy of short text stores: up to
// shortText bytes with quotes and a key's colon.
const shortKeyRoom = shortText + 3

// valueRoom is what the compact walk has at each value: a scalar, a
// container's two brackets, or a clean string of up to midText bytes
// with its quotes.
const valueRoom = max(scalarRoom, midText+2)

// midText is the longest clean text that the compact walk copies with
// word moves, with no room check of its own: URLs, hashes, dates.
const midText = 128

// memberRoom is reserved once per object member on the compact path: the
// comma, a short key, and a value's room.
const memberRoom = 1 + shortKeyRoom + valueRoom

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
	// Nearly every String that is not a plain copy: escaped UTF-8 or
	// CPython's fixed-width text, External, not empty (an empty str is
	// clean UTF-8, and p may be its allocation's end), under escapeChunk.
	if h := e.words[i]; h&externalTextMask == externalText && h&backend.LenMask != 0 &&
		h&(backend.CleanBit|3<<backend.WidthShift) != backend.CleanBit {
		p := *(*unsafe.Pointer)(unsafe.Pointer(&e.words[i+1]))
		n := int(h & backend.LenMask)
		if h&(3<<backend.WidthShift) == 0 { // escaped UTF-8
			buf = e.room(buf, maxEscapeLen*n+2+escapeSlack)
			if useSSSE3 {
				// quotedEscapeUTF8's kernel call, here: one Go call
				// less a str.
				l := len(buf)
				read, written := escapeUTF8SSSE3((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), l)),
					(*byte)(p), n, &escapeWords, true)
				if read == n {
					return buf[:l+written]
				}
			}
			return quotedEscapeUTF8(buf, unsafe.Slice((*byte)(p), n))
		}
		width := backend.Width(h >> backend.WidthShift & 3)
		if useSSSE3 && h&backend.CleanBit != 0 && width <= backend.WidthUCS2 {
			// Clean Latin-1 or UCS2 (the text rows' strs): the SSSE3
			// kernel at once, the quotes through the pointer, and the
			// kernel's 32 bytes of tail room reserved, so that a short
			// str is one block; the general code only for what it
			// leaves (a block mixing 2- and 3-byte characters, a tail
			// whose load would cross a page).
			buf = e.room(buf, maxEscapeLen*n+2+32)
			l := len(buf)
			q := unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), l)
			*(*byte)(q) = '"'
			var read, written int
			if width == backend.WidthUCS1 {
				read, written = latin1Kernel(unsafe.Add(q, 1), p, n, cap(buf)-l-1)
			} else {
				read, written = ucs2Kernel(unsafe.Add(q, 1), p, n, cap(buf)-l-1)
			}
			if read == n {
				*(*byte)(unsafe.Add(q, 1+written)) = '"'
				return buf[:l+2+written]
			}
			buf = buf[:l+1+written]
			if width == backend.WidthUCS1 {
				buf = transcodeLatin1(buf, unsafe.Slice((*byte)(unsafe.Add(p, read)), n-read))
			} else {
				buf = escapeUCS2(buf, unsafe.Slice((*uint16)(unsafe.Add(p, 2*read)), n-read), false)
			}
			return append(buf, '"')
		}
		if width == backend.WidthUCS4 && h&backend.CleanBit != 0 {
			return e.quotedUCS4(buf, p, n)
		}
		return e.quotedExternal(buf, p, n, width, h&backend.CleanBit != 0)
	}
	e.buf = buf
	e.text(k, i)
	return e.buf
}

// Header bits that decide whether a String is written by a plain copy:
// clean UTF-8 text. External storage (what dumps hands over for nearly
// every string) has the text's address as its second word.
const (
	copyMask    = 0xff<<backend.KindShift | backend.CleanBit | 3<<backend.WidthShift
	cleanUTF8   = uint64(backend.KindString)<<backend.KindShift | backend.CleanBit
	storageMask = 0xf << backend.StorageShift

	// shortExternalMask picks the bits that make a String clean UTF-8
	// External text of under 32 (shortText) bytes: kind, storage, clean,
	// width and the length's bits from 32 up.
	shortExternalMask = copyMask | storageMask | backend.LenMask&^(shortText-1)
	shortExternal     = cleanUTF8 | uint64(backend.StorageExternal)<<backend.StorageShift
)

// compact writes the value at i to buf with no whitespace and keys in tape
// order (the default options, the hot path), and returns buf and the index
// after the value.
//
// It is one loop over the tape with an explicit stack of the open
// containers, not a call per container, member and key: on documents of
// many small objects (what dumps mostly writes) the calls' prologues and
// the passing of buf in and out cost more than the writing. The output
// slice, the index and the innermost container stay in registers (Go saves
// no register across a call, so every value live in the loop is spilled
// around each call: the tape and the stack are read through e instead);
// room is checked once per member (comma, a short key, a scalar or a
// string value of up to midText bytes), and clean UTF-8 keys of up to 32
// bytes and values of up to midText bytes are copied with a few
// overlapping word moves instead of a memmove call.
func (e *encoder) compact(buf []byte, i int) ([]byte, int) {
	// top is the innermost open container as end<<1 | isObject; the
	// outer ones are on e.stack, which changes only when a container
	// opens or closes. Pushes and pops pair up, so a nested compact (for
	// a key that is not text, in a malformed tape) works above this one's
	// containers and leaves them as they were. atRoot means no container;
	// its end is never reached.
	const atRoot = math.MaxInt
	top := atRoot
	buf = e.room(buf, memberRoom)
	for {
		// The value at i; there is room for a scalar or a short string.
		var p unsafe.Pointer // the text that short copies
		h := e.words[i]
		switch k := backend.Kind(h >> backend.KindShift); k {
		case backend.KindString:
			if h&shortExternalMask == shortExternal {
				p = *(*unsafe.Pointer)(unsafe.Pointer(&e.words[i+1]))
				goto short
			}
			if n := int(h & backend.LenMask); h&copyMask == cleanUTF8 {
				if n <= shortText {
					p = e.textAddr(h, i, n)
					goto short
				}
				p := e.textAddr(h, i, n)
				if n <= midText {
					// URLs, hashes, dates, titles: 32-byte blocks, the
					// last ones overlapping, no memmove call, in the
					// value's room.
					l := len(buf)
					out := buf[l : l+midText+2]
					d := unsafe.Pointer(&out[1])
					copy16p(d, p)
					copy16p(unsafe.Add(d, 16), unsafe.Add(p, 16))
					if n > 64 {
						copy16p(unsafe.Add(d, 32), unsafe.Add(p, 32))
						copy16p(unsafe.Add(d, 48), unsafe.Add(p, 48))
						copy16p(unsafe.Add(d, n-64), unsafe.Add(p, n-64))
						copy16p(unsafe.Add(d, n-48), unsafe.Add(p, n-48))
					}
					copy16p(unsafe.Add(d, n-32), unsafe.Add(p, n-32))
					copy16p(unsafe.Add(d, n-16), unsafe.Add(p, n-16))
					out[0] = '"'
					*(*byte)(unsafe.Add(d, n)) = '"'
					buf = buf[:l+n+2]
				} else {
					// The address was taken before the room check: h
					// is then dead across the possible call, and is not
					// spilled for every value at the loop's top.
					buf = e.room(buf, n+2)
					l := len(buf)
					buf = buf[:l+n+2]
					buf[l] = '"'
					copy(buf[l+1:l+1+n], unsafe.Slice((*byte)(p), n))
					buf[l+n+1] = '"'
				}
			} else {
				buf = e.textTo(buf, k, i)
			}
			i += backend.RefWords
		case backend.KindInt:
			if top&1 == 0 { // in an array: the run of leaves from here (leafRun)
				buf, i = e.leafRun(buf, i, top)
				break
			}
			if v := int64(e.words[i+1]); v >= 0 {
				buf = appendUint(buf, uint64(v)) // one call, not two
			} else {
				buf = appendInt(buf, v)
			}
			i += backend.NumberWords
		case backend.KindFloat:
			buf, i = e.floatRun(buf, i, top)
		case backend.KindUint:
			if top&1 == 0 { // in an array: the run of leaves from here (leafRun)
				buf, i = e.leafRun(buf, i, top)
				break
			}
			buf = appendUint(buf, e.words[i+1])
			i += backend.NumberWords
		case backend.KindNull, backend.KindTrue, backend.KindFalse:
			if top&1 == 0 { // in an array: the run of leaves from here (leafRun)
				buf, i = e.leafRun(buf, i, top)
				break
			}
			// Stored as one word (the room is there).
			l := len(buf)
			lit := &literals[k-backend.KindNull]
			binary.LittleEndian.PutUint64(buf[l:l+8], lit.word)
			buf = buf[:l+lit.len]
			i++
		case backend.KindArray, backend.KindObject:
			inner := int(e.words[i+1])
			i += backend.ContainerWords
			l := len(buf)
			isObj := int(k - backend.KindArray) // 1 for an object
			open := byte('[' + 0x20*isObj)      // '{' is '[' + 0x20
			if inner <= i {
				if top&1 == 0 { // in an array: the run of leaves from here
					buf, i = e.leafRun(buf, i-backend.ContainerWords, top)
					break
				}
				// Empty ('[' + 2 is ']', '{' + 2 is '}').
				buf = buf[:l+2]
				buf[l], buf[l+1] = open, open+2
				break
			}
			// Stored through the pointer, in the value's room: no bounds
			// check of l against the length. After the reslice, which
			// checks the capacity, so that a room short of the invariant
			// panics before anything is written.
			buf = buf[:l+1]
			*(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), l)) = open
			e.stack = append(e.stack, top)
			top = inner<<1 | isObj
			buf = e.room(buf, memberRoom)
			if isObj == 0 {
				continue
			}
			goto key
		case backend.KindRaw:
			// Verbatim UTF-8 (a Fragment, a numpy float32 row): one copy
			// here, not the general text path's call chain.
			if n := int(h & backend.LenMask); backend.Width(h>>backend.WidthShift&3) == backend.WidthUTF8 {
				p := e.textAddr(h, i, n)
				buf = e.room(buf, n)
				l := len(buf)
				buf = buf[:l+n]
				copy(buf[l:], unsafe.Slice((*byte)(p), n))
			} else {
				buf = e.textTo(buf, k, i)
			}
			i += backend.RefWords
		case backend.KindBigInt:
			buf = e.textTo(buf, k, i)
			i += backend.RefWords
		default:
			panic("writer: invalid tape entry " + k.String())
		}
	next:
		// Close the containers that end here: i >= end, that is
		// 2i+1 >= end<<1 | isObject.
		for i<<1|1 >= top {
			buf = e.room(buf, 1)
			l := len(buf)
			buf = buf[:l+1]
			*(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), l)) = byte(']' + 0x20*(top&1))
			top = e.stack[len(e.stack)-1]
			e.stack = e.stack[:len(e.stack)-1]
		}
		if top == atRoot {
			return buf, i
		}
		// The next member: one check covers the comma, a short key and
		// a scalar or short string.
		buf = e.room(buf, memberRoom)
		buf = buf[:len(buf)+1]
		buf[len(buf)-1] = ','
		if top&1 == 0 {
			continue
		}
	key:
		// The key at i and its colon. dumps hands over nearly every key
		// as External clean UTF-8 of under 32 bytes: one mask test for
		// all of that, and the text's address is the entry's next word.
		h = e.words[i]
		if h&shortExternalMask == shortExternal {
			p = *(*unsafe.Pointer)(unsafe.Pointer(&e.words[i+1]))
		} else if h&copyMask == cleanUTF8 && h&backend.LenMask <= shortText {
			p = e.textAddr(h, i, int(h&backend.LenMask))
		} else {
			e.buf = buf
			i = e.key(i)
			e.grow(1 + valueRoom)
			buf = append(e.buf, ':')
			continue
		}
		{
			n := int(h & backend.LenMask)
			l := len(buf)
			out := buf[l : l+shortText+3]
			d := unsafe.Pointer(&out[1])
			// Overlapping 16-, 8- or 4-byte words that read nothing
			// outside the text (External text from Python has no room
			// after it). The same copy is in the value case below:
			// as a function it is too big to inline, and a call costs
			// more than the copy.
			switch {
			case n >= 16:
				a, b := load64(p), load64(unsafe.Add(p, 8))
				c, f := load64(unsafe.Add(p, n-16)), load64(unsafe.Add(p, n-8))
				store64(d, a)
				store64(unsafe.Add(d, 8), b)
				store64(unsafe.Add(d, n-16), c)
				store64(unsafe.Add(d, n-8), f)
			case n >= 8:
				a, b := load64(p), load64(unsafe.Add(p, n-8))
				store64(d, a)
				store64(unsafe.Add(d, n-8), b)
			case n >= 4:
				a, b := load32(p), load32(unsafe.Add(p, n-4))
				store32(d, a)
				store32(unsafe.Add(d, n-4), b)
			case n > 0:
				a, b, c := *(*byte)(p), *(*byte)(unsafe.Add(p, n/2)), *(*byte)(unsafe.Add(p, n-1))
				*(*byte)(d), *(*byte)(unsafe.Add(d, n/2)), *(*byte)(unsafe.Add(d, n-1)) = a, b, c
			}
			out[0] = '"'
			// The closing quote and the colon in one store.
			store16(unsafe.Add(d, n), '"'|':'<<8)
			buf = buf[:l+n+3]
			i += backend.RefWords
		}
		continue
	short:
		// Clean UTF-8 text of up to shortText bytes at p, a value,
		// between quotes, copied as the key case above copies.
		{
			n := int(h & backend.LenMask)
			l := len(buf)
			out := buf[l : l+shortText+3]
			d := unsafe.Pointer(&out[1])
			switch {
			case n >= 16:
				a, b := load64(p), load64(unsafe.Add(p, 8))
				c, f := load64(unsafe.Add(p, n-16)), load64(unsafe.Add(p, n-8))
				store64(d, a)
				store64(unsafe.Add(d, 8), b)
				store64(unsafe.Add(d, n-16), c)
				store64(unsafe.Add(d, n-8), f)
			case n >= 8:
				a, b := load64(p), load64(unsafe.Add(p, n-8))
				store64(d, a)
				store64(unsafe.Add(d, n-8), b)
			case n >= 4:
				a, b := load32(p), load32(unsafe.Add(p, n-4))
				store32(d, a)
				store32(unsafe.Add(d, n-4), b)
			case n > 0:
				a, b, c := *(*byte)(p), *(*byte)(unsafe.Add(p, n/2)), *(*byte)(unsafe.Add(p, n-1))
				*(*byte)(d), *(*byte)(unsafe.Add(d, n/2)), *(*byte)(unsafe.Add(d, n-1)) = a, b, c
			}
			out[0] = '"'
			*(*byte)(unsafe.Add(d, n)) = '"'
			buf = buf[:l+n+2]
			i += backend.RefWords
		}
		goto next
	}
}

// copy16p copies 16 bytes from p to d, which do not overlap: two loads,
// then two stores (an array move of unsafe pointers is a memmove call).
func copy16p(d, p unsafe.Pointer) {
	a, b := load64(p), load64(unsafe.Add(p, 8))
	store64(d, a)
	store64(unsafe.Add(d, 8), b)
}

// literals are null, false and true (in Kind order) as little-endian words.
var literals = [3]struct {
	word uint64
	len  int
}{
	{uint64('n') | uint64('u')<<8 | uint64('l')<<16 | uint64('l')<<24, 4},
	{uint64('f') | uint64('a')<<8 | uint64('l')<<16 | uint64('s')<<24 | uint64('e')<<32, 5},
	{uint64('t') | uint64('r')<<8 | uint64('u')<<16 | uint64('e')<<24, 4},
}

// shortText is the longest text that the compact walk copies with word
// moves; memberRoom has room for it.
const shortText = 32

// textAddr returns the address of the n bytes of UTF-8 text of the ref
// entry at i with header h.
func (e *encoder) textAddr(h uint64, i, n int) unsafe.Pointer {
	if h&storageMask == uint64(backend.StorageExternal)<<backend.StorageShift {
		return *(*unsafe.Pointer)(unsafe.Pointer(&e.words[i+1]))
	}
	return unsafe.Pointer(unsafe.SliceData(e.utf8(h, i, n)))
}

// key writes the object key at i (a String entry; any ref kind works) and
// returns the index of its value.
func (e *encoder) key(i int) int {
	k := backend.Kind(e.words[i] >> backend.KindShift)
	switch k {
	case backend.KindString, backend.KindBigInt, backend.KindRaw:
		e.text(k, i)
		return i + backend.RefWords
	}
	// Not produced by any parser or by the extension; written as a value
	// so that a wrong tape still gives text rather than a crash.
	e.buf, i = e.compact(e.buf, i)
	return i
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
	case backend.KindString, backend.KindBigInt, backend.KindRaw:
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
