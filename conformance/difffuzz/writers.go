package difffuzz

import (
	"bytes"
	"fmt"
	"runtime"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/conformance"
	"github.com/isojson/isojson/writer/reference"
)

// ReferenceWriter is the writer every other is compared with.
const ReferenceWriter = reference.Name

// CompareWriters writes the tape t (whose StorageInput refs point into
// input) with the reference writer and with every other supported writer,
// under every option set, and returns an error describing the first
// disagreement in the bytes.
func CompareWriters(t *backend.Tape, input []byte) error {
	ref := reference.Writer{}
	for _, flags := range append(conformance.WriteFlagSets, backend.WriteBigIntAsFloat, backend.WriteIndent2|backend.WriteSortKeys|backend.WriteBigIntAsFloat) {
		want, err := conformance.Write(ref, t, input, flags)
		if err != nil {
			return fmt.Errorf("%s: %w", ReferenceWriter, err)
		}
		for _, name := range backend.SupportedWriters() {
			if name == ReferenceWriter {
				continue
			}
			w, _ := backend.LookupWriter(name)
			got, err := conformance.Write(w.Writer, t, input, flags)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if !bytes.Equal(got, want) {
				at := 0
				for at < min(len(got), len(want)) && got[at] == want[at] {
					at++
				}
				return fmt.Errorf("writer %s disagrees with %s, flags %d, at byte %d:\n got %q\nwant %q",
					name, ReferenceWriter, flags, at, clip(got[at:]), clip(want[at:]))
			}
		}
	}
	return nil
}

// CompareWritersOn parses src with the reference parser and, when it is a
// document, compares the writers on its tape and on a variant of it whose
// texts are stored in every other layout a producer uses (seed picks which
// where), as dumps stores Python's strings: External UTF-8 and CPython's
// 1-, 2- and 4-byte layouts, clean or not, and with some integers as Raw (a
// Fragment).
func CompareWritersOn(src []byte, seed uint8) error {
	ref, err := backend.Lookup(Reference)
	if err != nil {
		return err
	}
	var t backend.Tape
	if ref.Parser.Parse(src, &t) != nil {
		return nil
	}
	if err := CompareWriters(&t, src); err != nil {
		return fmt.Errorf("on %q: %w", clip(src), err)
	}
	var st conformance.TextStore
	v := restore(&t, src, &st, seed)
	err = CompareWriters(v, st.Input)
	runtime.KeepAlive(&st)
	if err != nil {
		return fmt.Errorf("on %q stored with seed %d: %w", clip(src), seed, err)
	}
	return nil
}

// restore copies the document of t into a new tape whose texts are in the
// layouts seed chooses.
func restore(t *backend.Tape, src []byte, st *conformance.TextStore, seed uint8) *backend.Tape {
	out := new(backend.Tape)
	n := int(seed)
	var walk func(i int) int
	walk = func(i int) int {
		n++
		switch k := t.Kind(i); k {
		case backend.KindArray, backend.KindObject:
			at := out.OpenContainer(k)
			for j := i + 2; j < t.End(i); {
				j = walk(j)
			}
			out.CloseContainer(at, t.Count(i))
		case backend.KindString, backend.KindBigInt:
			text := string(t.Bytes(i, src))
			layouts := conformance.Layouts(text)
			if k == backend.KindBigInt {
				layouts = layouts[:0]
				for _, l := range conformance.Layouts(text) {
					if l.Width == backend.WidthUTF8 {
						layouts = append(layouts, l)
					}
				}
			}
			st.AppendText(out, k, text, layouts[n%len(layouts)])
		case backend.KindInt:
			if n%5 == 0 {
				st.AppendText(out, backend.KindRaw, fmt.Sprint(t.Int(i)), conformance.Layouts("0")[n%3])
			} else {
				out.AppendNumber(k, t.Words[i+1])
			}
		default:
			out.Words = append(out.Words, t.Words[i:t.Next(i)]...)
		}
		return t.Next(i)
	}
	walk(0)
	return out
}
