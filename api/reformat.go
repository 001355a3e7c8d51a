package api

import (
	"bytes"
	"hash/maphash"
	"sync"

	"github.com/isojson/isojson/backend"
)

// writerFlags keeps the option bits the writer acts on.
func writerFlags(opt Option) backend.WriteFlags {
	return backend.WriteFlags(opt & (OptIndent2 | OptSortKeys | OptAppendNewline))
}

// Reformat returns src rewritten as orjson.dumps(orjson.loads(src),
// option=opt) writes it: compact or OPT_INDENT_2, keys in document order or
// OPT_SORT_KEYS, OPT_APPEND_NEWLINE; other option bits are ignored. As
// orjson.loads does, a repeated object key keeps its first position and its
// last value, and an integer beyond 64 bits becomes the nearest float.
// (orjson.dumps refuses nesting deeper than 254 levels; Reformat writes
// every depth the parser accepts, 1024.) Invalid JSON gives a *DecodeError.
func Reformat(src []byte, opt Option) ([]byte, error) {
	t := tapePool.Get().(*backend.Tape)
	defer putTape(t)
	if err := Parse(src, t); err != nil {
		return nil, err
	}
	flags := writerFlags(opt) | backend.WriteBigIntAsFloat
	d := deduperPool.Get().(*deduper)
	defer d.release()
	d.t, d.input = t, src
	if d.any() {
		return appendJSON(nil, d.unique(), src, flags), nil
	}
	return appendJSON(make([]byte, 0, len(src)+len(src)/8+16), t, src, flags), nil
}

// deduper finds and removes repeated object keys, which a Python dict
// cannot hold.
type deduper struct {
	t     *backend.Tape
	input []byte
	keys  [][]byte // scratch: one object's keys
	slots []slot   // scratch: the hash set of a large object's keys
}

type slot struct {
	hash  uint64
	used  int32
	index int32
}

var hashSeed = maphash.MakeSeed()

var deduperPool = sync.Pool{New: func() any { return new(deduper) }}

func newDeduper(t *backend.Tape, input []byte) *deduper {
	return &deduper{t: t, input: input}
}

func (d *deduper) release() {
	clear(d.keys)
	*d = deduper{keys: d.keys[:0]}
	deduperPool.Put(d)
}

// any reports whether some object in the tape repeats a key. The scan is
// linear: it enters every container rather than skipping it.
func (d *deduper) any() bool {
	w := d.t.Words
	for i := 0; i < len(w); {
		switch d.t.Kind(i) {
		case backend.KindObject:
			if d.t.Count(i) > 1 && d.repeats(i) {
				return true
			}
			i += backend.ContainerWords
		case backend.KindArray:
			i += backend.ContainerWords
		default:
			i = d.t.Next(i)
		}
	}
	return false
}

// repeats reports whether the object at i has a key twice.
func (d *deduper) repeats(i int) bool {
	d.keys = d.keys[:0]
	for j, end := i+backend.ContainerWords, d.t.End(i); j < end; j = d.t.Next(j + backend.RefWords) {
		d.keys = append(d.keys, d.t.Bytes(j, d.input))
	}
	if len(d.keys) <= 16 {
		for a := range d.keys {
			for b := a + 1; b < len(d.keys); b++ {
				if bytes.Equal(d.keys[a], d.keys[b]) {
					return true
				}
			}
		}
		return false
	}
	// Larger objects: an open-addressing hash set in reused scratch.
	size := 32
	for size < 2*len(d.keys) {
		size *= 2
	}
	if cap(d.slots) < size {
		d.slots = make([]slot, size)
	}
	d.slots = d.slots[:size]
	clear(d.slots)
	mask := uint64(size - 1)
	for k, key := range d.keys {
		h := maphash.Bytes(hashSeed, key)
		for at := h & mask; ; at = (at + 1) & mask {
			s := &d.slots[at]
			if s.used == 0 {
				*s = slot{hash: h, used: 1, index: int32(k)}
				break
			}
			if s.hash == h && bytes.Equal(d.keys[s.index], key) {
				return true
			}
		}
	}
	return false
}

// unique returns a copy of the tape in which every object keeps each key
// once, at its first position, with its last value. The copy shares the
// arena; its refs point where the original's do.
func (d *deduper) unique() *backend.Tape {
	u := &backend.Tape{Arena: d.t.Arena, Words: make([]uint64, 0, len(d.t.Words))}
	d.copyValue(u, 0)
	return u
}

func (d *deduper) copyValue(u *backend.Tape, i int) {
	t := d.t
	switch t.Kind(i) {
	case backend.KindArray:
		at := u.OpenContainer(backend.KindArray)
		n := 0
		for j, end := i+backend.ContainerWords, t.End(i); j < end; j = t.Next(j) {
			d.copyValue(u, j)
			n++
		}
		u.CloseContainer(at, n)
	case backend.KindObject:
		// Members in first-key order, each with the index of its last value.
		type member struct{ key, value int }
		var members []member
		pos := map[string]int{}
		for j, end := i+backend.ContainerWords, t.End(i); j < end; j = t.Next(j + backend.RefWords) {
			k := string(t.Bytes(j, d.input))
			if p, ok := pos[k]; ok {
				members[p].value = j + backend.RefWords
				continue
			}
			pos[k] = len(members)
			members = append(members, member{j, j + backend.RefWords})
		}
		at := u.OpenContainer(backend.KindObject)
		for _, m := range members {
			u.Words = append(u.Words, t.Words[m.key:m.key+backend.RefWords]...)
			d.copyValue(u, m.value)
		}
		u.CloseContainer(at, len(members))
	default:
		u.Words = append(u.Words, t.Words[i:t.Next(i)]...)
	}
}
