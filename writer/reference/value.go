package reference

import (
	"fmt"
	"strconv"

	"github.com/isojson/isojson/backend"
)

// walk is one Write: the tape, its input, the options and the output.
type walk struct {
	t     *backend.Tape
	input []byte
	flags backend.WriteFlags
	out   sink
}

func (w *walk) indented() bool { return w.flags&backend.WriteIndent2 != 0 }

// value writes the value at tape index i, nested depth containers deep, and
// returns the index of the entry after it.
func (w *walk) value(i, depth int) int {
	t := w.t
	switch k := t.Kind(i); k {
	case backend.KindNull:
		w.out.string("null")
	case backend.KindFalse:
		w.out.string("false")
	case backend.KindTrue:
		w.out.string("true")
	case backend.KindInt:
		w.out.string(strconv.FormatInt(t.Int(i), 10))
	case backend.KindUint:
		w.out.string(strconv.FormatUint(t.Uint(i), 10))
	case backend.KindFloat:
		w.out.string(formatFloat(t.Float(i)))
	case backend.KindArray:
		w.array(i, depth)
	case backend.KindObject:
		w.object(i, depth)
	case backend.KindString, backend.KindBigInt, backend.KindRaw:
		w.text(i)
	default:
		panic(fmt.Sprintf("reference writer: tape word %d has no valid kind (%#x)", i, t.Words[i]))
	}
	return t.Next(i)
}

// array writes the Array at i: "[]" when empty, else its elements between
// brackets, separated by commas, each on its own line when indented.
func (w *walk) array(i, depth int) {
	end := w.t.End(i)
	first := i + backend.ContainerWords
	if first >= end {
		w.out.string("[]")
		return
	}
	w.out.byte('[')
	for j := first; j < end; {
		if j != first {
			w.out.byte(',')
		}
		w.newline(depth + 1)
		j = w.value(j, depth+1)
	}
	w.newline(depth)
	w.out.byte(']')
}

// object writes the Object at i: "{}" when empty, else its members, in tape
// order or sorted by key.
func (w *walk) object(i, depth int) {
	end := w.t.End(i)
	if i+backend.ContainerWords >= end {
		w.out.string("{}")
		return
	}
	keys := w.memberKeys(i)
	if w.flags&backend.WriteSortKeys != 0 {
		w.sortKeys(keys)
	}
	w.out.byte('{')
	for n, key := range keys {
		if n > 0 {
			w.out.byte(',')
		}
		w.newline(depth + 1)
		w.key(key)
		w.out.byte(':')
		if w.indented() {
			w.out.byte(' ')
		}
		w.value(w.t.Next(key), depth+1)
	}
	w.newline(depth)
	w.out.byte('}')
}

// memberKeys returns the tape indexes of the keys of the Object at i, in tape
// order; each member's value follows its key.
func (w *walk) memberKeys(i int) []int {
	var keys []int
	for j, end := i+backend.ContainerWords, w.t.End(i); j < end; j = w.t.Next(w.t.Next(j)) {
		keys = append(keys, j)
	}
	return keys
}

// newline starts a new line indented by depth levels of two spaces, when the
// output is indented; compact output has no whitespace at all.
func (w *walk) newline(depth int) {
	if !w.indented() {
		return
	}
	w.out.byte('\n')
	for range depth {
		w.out.string("  ")
	}
}
