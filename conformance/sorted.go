package conformance

import (
	"bytes"
	"slices"

	"github.com/isojson/isojson/backend"
)

// sortedCopy returns the document of t (parsed from input) with every
// object's members ordered by key, bytewise on UTF-8 (code point order, as
// OPT_SORT_KEYS), stably; texts are copied into the new tape's arena.
func sortedCopy(t *backend.Tape, input []byte) *backend.Tape {
	out := new(backend.Tape)
	copyValue(out, t, input, 0)
	return out
}

func copyValue(out, t *backend.Tape, input []byte, i int) int {
	switch k := t.Kind(i); k {
	case backend.KindNull, backend.KindFalse, backend.KindTrue:
		out.AppendScalar(k)
	case backend.KindInt, backend.KindUint, backend.KindFloat:
		out.AppendNumber(k, t.Words[i+1])
	case backend.KindArray:
		a := out.OpenContainer(k)
		for j := i + 2; j < t.End(i); {
			j = copyValue(out, t, input, j)
		}
		out.CloseContainer(a, t.Count(i))
	case backend.KindObject:
		var keys []int
		for j := i + 2; j < t.End(i); j = t.Next(t.Next(j)) {
			keys = append(keys, j)
		}
		slices.SortStableFunc(keys, func(a, b int) int { return bytes.Compare(t.Bytes(a, input), t.Bytes(b, input)) })
		o := out.OpenContainer(k)
		for _, key := range keys {
			copyValue(out, t, input, key)
			copyValue(out, t, input, t.Next(key))
		}
		out.CloseContainer(o, len(keys))
	default:
		r := t.Ref(i)
		text := t.Bytes(i, input)
		r.Storage, r.Width, r.Where = backend.StorageArena, backend.WidthUTF8, uint64(len(out.Arena))
		out.Arena = append(out.Arena, text...)
		out.AppendRef(k, r)
	}
	return t.Next(i)
}
