package backend

import (
	"math"
	"unsafe"
)

// The tape is the one representation of one JSON document that every part of
// isojson shares: parsers produce it, the writer consumes it, and the CPython
// extension reads it (loads) and builds it (dumps). It is a flat array of
// 64-bit words plus a byte arena, so that C can read it after the Go call
// returns when both live in C memory (see Allocator).
//
// Every entry starts with a header word. Its top 8 bits are the Kind, the low
// 56 bits a payload:
//
//	Kind      words  header payload                 following words
//	Null      1      0                              -
//	False     1      0                              -
//	True      1      0                              -
//	Int       2      0                              int64 value
//	Uint      2      0                              uint64 value (> math.MaxInt64)
//	Float     2      0                              float64 bits
//	Array     2      element count                  index just past the last element
//	Object    2      member count                   index just past the last member
//	String    3      ref (see below)                where, code points
//	BigInt    3      ref                            where, 0
//	Raw       3      ref                            where, 0
//
// An Object's members follow it as key, value pairs; every key is a String
// entry. Array and Object store where they end so that readers create
// containers at their exact size and writers skip or reorder whole members.
//
// The three "ref" kinds point at text stored elsewhere. Their payload is
//
//	bits 55..52  Storage: where word 1 points (offset into the input, offset
//	             into the arena, or an absolute address of external memory)
//	bits 51..50  Class: the widest code point (ASCII, Latin-1, BMP, astral)
//	bits 49..48  Width: the code unit (UTF-8, or 1, 2, 4 bytes a character:
//	             CPython's own string layouts, External storage only)
//	bit  47      Clean: the text needs no escaping when written as JSON
//	bits 46..0   length in code units (bytes for UTF-8)
//
// A String's third word is its length in code points, so that a Python str
// can be allocated at its final size and width without a second scan.
// BigInt holds the decimal digits (with a leading '-' when negative) of an
// integer beyond 64 bits. Raw is JSON text written verbatim (orjson's
// Fragment, a pre-formatted number). Text that needs no escaping (a
// formatted datetime or UUID) is a String with the Clean bit. Raw and
// External strings are only produced by the Python side when writing.
//
// The root value is the entry at index 0.
//
// The C extension reads and writes tapes through a mirror of these
// constants, pyshim/engine/isojson_engine.h; pyshim/engine/abi_check.go
// holds the mirror against this file when the engine is built, so a change
// here that C misses fails that build.
type Tape struct {
	// Words holds the entries; len(Words) is the number of words in use.
	Words []uint64
	// Arena holds string bytes that are not a plain slice of the input
	// (strings with escapes); ref entries with StorageArena index it.
	Arena []byte
	// Alloc grows Words and Arena; nil means the Go heap.
	Alloc Allocator
}

// Allocator lets a Tape or an output buffer live in memory that the Go
// garbage collector does not own: the engine library passes C memory so that
// the CPython extension can read the result after the Go call returns,
// within cgo's pointer rules.
type Allocator interface {
	// GrowWords returns a slice with the contents of old and a capacity of at
	// least need words.
	GrowWords(old []uint64, need int) []uint64
	// GrowBytes returns a slice with the contents of old and a capacity of at
	// least need bytes.
	GrowBytes(old []byte, need int) []byte
}

// Kind is the type of a tape entry, stored in the top 8 bits of its header.
type Kind uint8

const (
	KindNull Kind = iota + 1
	KindFalse
	KindTrue
	KindInt
	KindUint
	KindFloat
	KindArray
	KindObject
	KindString
	KindBigInt
	KindRaw
	kindsEnd // one past the highest kind; not a kind
)

// KindMax is the highest kind. The C mirror of the kinds
// (pyshim/engine/isojson_engine.h) is checked against it when the engine is
// built, so a kind added here fails that build until C has it too.
const KindMax = kindsEnd - 1

var kindNames = [...]string{"invalid", "null", "false", "true", "int", "uint", "float", "array", "object", "string", "bigint", "raw"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Storage says where a ref entry's second word points.
type Storage uint8

const (
	StorageInput    Storage = 0 // offset into the parsed input
	StorageArena    Storage = 1 // offset into Tape.Arena
	StorageExternal Storage = 2 // absolute address of memory the tape does not own
)

// Class is the widest code point of a string, which decides CPython's
// storage width for it.
type Class uint8

const (
	ClassASCII  Class = 0 // all < 0x80
	ClassLatin1 Class = 1 // all < 0x100
	ClassBMP    Class = 2 // all < 0x10000
	ClassAstral Class = 3 // some >= 0x10000
)

// Width is the code unit of a ref entry's text.
type Width uint8

const (
	WidthUTF8 Width = 0 // UTF-8 bytes
	WidthUCS1 Width = 1 // one byte a character (Latin-1)
	WidthUCS2 Width = 2 // two bytes a character, native byte order
	WidthUCS4 Width = 3 // four bytes a character, native byte order
)

// Header bit layout.
const (
	KindShift    = 56
	StorageShift = 52
	ClassShift   = 50
	WidthShift   = 48
	CleanBit     = uint64(1) << 47
	LenMask      = CleanBit - 1
	PayloadMask  = uint64(1)<<KindShift - 1
	// MaxLen is the longest text a ref entry can describe.
	MaxLen = int(LenMask)
)

// Entry sizes in words.
const (
	ScalarWords    = 1
	NumberWords    = 2
	ContainerWords = 2
	RefWords       = 3
)

// Ref describes the text of a ref entry (String, BigInt, Raw).
type Ref struct {
	Storage Storage
	Class   Class
	Width   Width
	Clean   bool
	Len     int    // code units
	Where   uint64 // offset or address, per Storage
	Chars   int    // code points (String only; equals Len for ASCII)
}

// Header builds a header word.
func Header(k Kind, payload uint64) uint64 { return uint64(k)<<KindShift | payload&PayloadMask }

// RefHeader builds the header word of a ref entry.
func RefHeader(k Kind, s Storage, c Class, w Width, clean bool, n int) uint64 {
	h := uint64(k)<<KindShift | uint64(s)<<StorageShift | uint64(c)<<ClassShift | uint64(w)<<WidthShift | uint64(n)&LenMask
	if clean {
		h |= CleanBit
	}
	return h
}

// KindOf returns the kind of the entry whose header is h.
func KindOf(h uint64) Kind { return Kind(h >> KindShift) }

// Payload returns the low 56 bits of a header.
func Payload(h uint64) uint64 { return h & PayloadMask }

// Len returns the number of words in use.
func (t *Tape) Len() int { return len(t.Words) }

// Reset empties the tape, keeping its memory.
func (t *Tape) Reset() {
	t.Words = t.Words[:0]
	t.Arena = t.Arena[:0]
}

// Kind returns the kind of the entry at i.
func (t *Tape) Kind(i int) Kind { return Kind(t.Words[i] >> KindShift) }

// Next returns the index of the entry after the whole value at i (past the
// end of a container).
func (t *Tape) Next(i int) int {
	switch Kind(t.Words[i] >> KindShift) {
	case KindNull, KindFalse, KindTrue:
		return i + 1
	case KindInt, KindUint, KindFloat:
		return i + 2
	case KindArray, KindObject:
		return int(t.Words[i+1])
	default:
		return i + 3
	}
}

// Count returns the number of elements (Array) or members (Object) at i.
func (t *Tape) Count(i int) int { return int(t.Words[i] & PayloadMask) }

// End returns the index just past the container at i.
func (t *Tape) End(i int) int { return int(t.Words[i+1]) }

// Int returns the value of the Int entry at i.
func (t *Tape) Int(i int) int64 { return int64(t.Words[i+1]) }

// Uint returns the value of the Uint entry at i.
func (t *Tape) Uint(i int) uint64 { return t.Words[i+1] }

// Float returns the value of the Float entry at i.
func (t *Tape) Float(i int) float64 { return math.Float64frombits(t.Words[i+1]) }

// Ref returns the text description of the ref entry at i.
func (t *Tape) Ref(i int) Ref {
	h := t.Words[i]
	return Ref{
		Storage: Storage(h >> StorageShift & 0xf),
		Class:   Class(h >> ClassShift & 3),
		Width:   Width(h >> WidthShift & 3),
		Clean:   h&CleanBit != 0,
		Len:     int(h & LenMask),
		Where:   t.Words[i+1],
		Chars:   int(t.Words[i+2]),
	}
}

// Bytes returns the UTF-8 text of a ref entry whose storage is the input or
// the arena. input is the document the tape was parsed from.
func (t *Tape) Bytes(i int, input []byte) []byte {
	h := t.Words[i]
	n := int(h & LenMask)
	off := int(t.Words[i+1])
	switch Storage(h >> StorageShift & 0xf) {
	case StorageInput:
		return input[off : off+n : off+n]
	case StorageArena:
		return t.Arena[off : off+n : off+n]
	default:
		if Width(h>>WidthShift&3) != WidthUTF8 {
			panic("backend: Tape.Bytes of a non-UTF-8 external string")
		}
		return unsafe.Slice((*byte)(t.External(i)), n)
	}
}

// External returns the address of an External ref entry's text. The word is
// read as a pointer in place so that no uintptr-to-pointer conversion is made;
// the memory belongs to the tape's producer (C), not to Go.
func (t *Tape) External(i int) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&t.Words[i+1]))
}

// ReserveWords makes room for n more words and returns the words slice with
// that capacity; producers write with index expressions after reserving.
func (t *Tape) ReserveWords(n int) {
	if cap(t.Words)-len(t.Words) >= n {
		return
	}
	need := len(t.Words) + n
	if t.Alloc != nil {
		t.Words = t.Alloc.GrowWords(t.Words, need)
		return
	}
	c := max(2*cap(t.Words), need, 64)
	w := make([]uint64, len(t.Words), c)
	copy(w, t.Words)
	t.Words = w
}

// ReserveArena makes room for n more arena bytes.
func (t *Tape) ReserveArena(n int) {
	if cap(t.Arena)-len(t.Arena) >= n {
		return
	}
	need := len(t.Arena) + n
	if t.Alloc != nil {
		t.Arena = t.Alloc.GrowBytes(t.Arena, need)
		return
	}
	c := max(2*cap(t.Arena), need, 256)
	a := make([]byte, len(t.Arena), c)
	copy(a, t.Arena)
	t.Arena = a
}

// AppendScalar appends a Null, False or True entry.
func (t *Tape) AppendScalar(k Kind) {
	t.ReserveWords(1)
	t.Words = append(t.Words, uint64(k)<<KindShift)
}

// AppendNumber appends an Int, Uint or Float entry with its raw 64 bits.
func (t *Tape) AppendNumber(k Kind, bits uint64) {
	t.ReserveWords(2)
	t.Words = append(t.Words, uint64(k)<<KindShift, bits)
}

// AppendRef appends a ref entry.
func (t *Tape) AppendRef(k Kind, r Ref) {
	t.ReserveWords(3)
	t.Words = append(t.Words, RefHeader(k, r.Storage, r.Class, r.Width, r.Clean, r.Len), r.Where, uint64(r.Chars))
}

// OpenContainer appends an Array or Object header whose count and end are
// filled in by CloseContainer, and returns its index.
func (t *Tape) OpenContainer(k Kind) int {
	t.ReserveWords(2)
	i := len(t.Words)
	t.Words = append(t.Words, uint64(k)<<KindShift, 0)
	return i
}

// CloseContainer records the count and end of the container opened at i.
func (t *Tape) CloseContainer(i, count int) {
	t.Words[i] = t.Words[i]&^PayloadMask | uint64(count)
	t.Words[i+1] = uint64(len(t.Words))
}
