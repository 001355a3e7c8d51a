package conformance

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

// RunWriter checks writer w against everything a writer must do. Call it
// from the writer's own tests: conformance.RunWriter(t, mywriter.Writer{}).
//
// Expected bytes come from orjson 3.13 (the golden vectors of
// testdata/golden, scripts/gen_golden.py) or are written out by hand in
// writer_kinds.go, never from another writer; documents without golden output
// (the corpus, seeded random ones) must parse back to the document written
// and be written again identically.
func RunWriter(t *testing.T, w backend.Writer) {
	t.Run("GoldenFloats", func(t *testing.T) { runGoldenFloats(t, w) })
	t.Run("GoldenStrings", func(t *testing.T) { runGoldenStrings(t, w) })
	t.Run("GoldenDocs", func(t *testing.T) { runGoldenDocs(t, w, "docs.jsonl.gz", 3000) })
	t.Run("GoldenSpecials", func(t *testing.T) { runGoldenDocs(t, w, "specials.jsonl", 50) })
	t.Run("Kinds", func(t *testing.T) { runKinds(t, w) })
	t.Run("Depth", func(t *testing.T) { runWriteDepth(t, w) })
	t.Run("Corpus", func(t *testing.T) { runWriteCorpus(t, w) })
	t.Run("Random", func(t *testing.T) { runWriteRandom(t, w) })
	t.Run("Output", func(t *testing.T) { runOutput(t, w) })
	t.Run("Concurrent", func(t *testing.T) { runWriteConcurrent(t, w) })
}

// WriteFlagSets are the eight combinations of the options writers act on.
var WriteFlagSets = func() (all []backend.WriteFlags) {
	for _, a := range []backend.WriteFlags{0, backend.WriteIndent2} {
		for _, b := range []backend.WriteFlags{0, backend.WriteSortKeys} {
			for _, c := range []backend.WriteFlags{0, backend.WriteAppendNewline} {
				all = append(all, a|b|c)
			}
		}
	}
	return all
}()

// ignoredBits are orjson's options that change what dumps puts on the tape,
// not how the tape is written: a writer must ignore them.
const ignoredBits backend.WriteFlags = 1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<6 | 1<<7 | 1<<8 | 1<<9 | 1<<11

// Write runs w on t into a fresh Go buffer, turning a panic into an error.
func Write(w backend.Writer, t *backend.Tape, input []byte, flags backend.WriteFlags) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("writer panicked (flags %d): %v", flags, r)
		}
	}()
	o := backend.Output{}
	w.Write(&o, t, input, flags)
	return o.Buf, nil
}

// expectWrite fails the test unless w writes want for t under flags.
func expectWrite(t *testing.T, w backend.Writer, what string, tape *backend.Tape, input []byte, flags backend.WriteFlags, want string) bool {
	t.Helper()
	got, err := Write(w, tape, input, flags)
	if err != nil || string(got) != want {
		t.Errorf("%s, flags %d:\n got %q (%v)\nwant %q", what, flags, got, err, want)
		return false
	}
	return true
}

// eachGoldenLine calls fn with every line of testdata/golden/name
// (decompressed when it ends in .gz) and returns their number.
func eachGoldenLine(t *testing.T, name string, fn func(line []byte)) int {
	t.Helper()
	f, err := os.Open(filepath.Join(testdataDir(), "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if filepath.Ext(name) == ".gz" {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = z
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<26)
	n := 0
	for sc.Scan() {
		fn(sc.Bytes())
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// runGoldenFloats: every float of floats.txt.gz (orjson's output, which reads
// back as the float written), as a root value, and every 97th also inside an
// indented array.
func runGoldenFloats(t *testing.T, w backend.Writer) {
	var tape backend.Tape
	failures := 0
	n := eachGoldenLine(t, "floats.txt.gz", func(line []byte) {
		if failures > 20 {
			return
		}
		f, err := strconv.ParseFloat(string(line), 64)
		if err != nil {
			t.Fatalf("golden float %q: %v", line, err)
		}
		tape.Reset()
		tape.AppendNumber(backend.KindFloat, math.Float64bits(f))
		if !expectWrite(t, w, fmt.Sprintf("float %#016x", math.Float64bits(f)), &tape, nil, 0, string(line)) {
			failures++
		}
		if math.Float64bits(f)%97 == 0 {
			tape.Reset()
			a := tape.OpenContainer(backend.KindArray)
			tape.AppendNumber(backend.KindFloat, math.Float64bits(f))
			tape.CloseContainer(a, 1)
			expectWrite(t, w, "float in an array", &tape, nil, backend.WriteIndent2, "[\n  "+string(line)+"\n]")
		}
	})
	if n < 250_000 {
		t.Fatalf("only %d golden floats", n)
	}
}

// runGoldenStrings: every string of strings.jsonl.gz in every layout
// (Layouts), as a root value and as an object key, compact, indented and
// sorted.
func runGoldenStrings(t *testing.T, w backend.Writer) {
	failures := 0
	n := eachGoldenLine(t, "strings.jsonl.gz", func(line []byte) {
		var v struct{ S, Out string }
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		for _, l := range Layouts(v.S) {
			if failures > 20 {
				return
			}
			var st TextStore
			value := new(backend.Tape)
			st.AppendText(value, backend.KindString, v.S, l)
			if !expectWrite(t, w, fmt.Sprintf("%s %+q", l.Name, v.S), value, st.Input, 0, v.Out) {
				failures++
			}
			key := new(backend.Tape)
			o := key.OpenContainer(backend.KindObject)
			st.AppendText(key, backend.KindString, v.S, l)
			key.AppendScalar(backend.KindNull)
			key.CloseContainer(o, 1)
			for _, flags := range []backend.WriteFlags{0, backend.WriteSortKeys, backend.WriteIndent2 | backend.WriteSortKeys} {
				want := "{" + v.Out + ":null}"
				if flags&backend.WriteIndent2 != 0 {
					want = "{\n  " + v.Out + ": null\n}"
				}
				if !expectWrite(t, w, fmt.Sprintf("key %s %+q", l.Name, v.S), key, st.Input, flags, want) {
					failures++
				}
			}
			runtime.KeepAlive(&st)
		}
	})
	if n < 1000 {
		t.Fatalf("only %d golden strings", n)
	}
}

// goldenDocTape parses a golden document (json.dumps text; nan, inf and -inf
// stand for the floats orjson writes as null).
func goldenDocTape(t *testing.T, doc string) *backend.Tape {
	t.Helper()
	special := map[string]float64{"nan": math.NaN(), "inf": math.Inf(1), "-inf": math.Inf(-1)}
	tape := new(backend.Tape)
	if f, ok := special[doc]; ok {
		tape.AppendNumber(backend.KindFloat, math.Float64bits(f))
		return tape
	}
	if err := (scalar.Parser{}).Parse([]byte(doc), tape); err != nil {
		t.Fatalf("golden document %s: %v", doc, err)
	}
	return tape
}

// runGoldenDocs: every (document, option, orjson output) vector; the same
// output with the option bits writers ignore set too, and with
// WriteBigIntAsFloat (the documents hold no integer beyond 64 bits).
func runGoldenDocs(t *testing.T, w backend.Writer, name string, least int) {
	failures := 0
	opts := map[backend.WriteFlags]bool{}
	n := eachGoldenLine(t, name, func(line []byte) {
		var v struct {
			Doc string
			Opt backend.WriteFlags
			Out string
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		if failures > 20 {
			return
		}
		opts[v.Opt] = true
		tape := goldenDocTape(t, v.Doc)
		src := []byte(v.Doc)
		for _, flags := range []backend.WriteFlags{v.Opt, v.Opt | ignoredBits, v.Opt | backend.WriteBigIntAsFloat} {
			if !expectWrite(t, w, v.Doc, tape, src, flags, v.Out) {
				failures++
				break
			}
		}
	})
	if n < least || len(opts) != len(WriteFlagSets) {
		t.Fatalf("%s: %d vectors under %d option sets", name, n, len(opts))
	}
}

// runWriteDepth: containers nested beyond MaxDepth (possible in a hand-built
// tape), indented, against text built level by level.
func runWriteDepth(t *testing.T, w backend.Writer) {
	for _, depth := range []int{1, 2, backend.MaxDepth, backend.MaxDepth + 1, 3000} {
		tape := new(backend.Tape)
		open := make([]int, depth)
		for d := range depth {
			if d%2 == 0 {
				open[d] = tape.OpenContainer(backend.KindArray)
			} else {
				open[d] = tape.OpenContainer(backend.KindObject)
				tape.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Clean: true, Len: 1, Where: 0, Chars: 1})
			}
		}
		tape.Arena = []byte("k")
		tape.AppendNumber(backend.KindInt, 7)
		for d := depth - 1; d >= 0; d-- {
			tape.CloseContainer(open[d], 1)
		}
		var compact, indented bytes.Buffer
		pad := func(d int) string { return "\n" + string(bytes.Repeat([]byte("  "), d)) }
		for d := range depth {
			if d%2 == 0 {
				compact.WriteString("[")
				indented.WriteString("[" + pad(d+1))
			} else {
				compact.WriteString(`{"k":`)
				indented.WriteString(`{` + pad(d+1) + `"k": `)
			}
		}
		compact.WriteString("7")
		indented.WriteString("7")
		for d := depth - 1; d >= 0; d-- {
			closer := "]"
			if d%2 == 1 {
				closer = "}"
			}
			compact.WriteString(closer)
			indented.WriteString(pad(d) + closer)
		}
		expectWrite(t, w, fmt.Sprintf("depth %d", depth), tape, nil, 0, compact.String())
		expectWrite(t, w, fmt.Sprintf("depth %d", depth), tape, nil, backend.WriteIndent2|backend.WriteSortKeys, indented.String())
	}
}

// roundTrip checks what w writes for the document src (its tape) under every
// option set: valid JSON that parses back to the same document (members in
// the same order unless sorted), and that is written again identically.
func roundTrip(t *testing.T, w backend.Writer, name string, tape *backend.Tape, src []byte) {
	t.Helper()
	for _, flags := range WriteFlagSets {
		out, err := Write(w, tape, src, flags)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		if !json.Valid(out) {
			t.Errorf("%s, flags %d: not valid JSON: %s", name, flags, quote(out))
			return
		}
		back := new(backend.Tape)
		if err := (scalar.Parser{}).Parse(out, back); err != nil {
			t.Errorf("%s, flags %d: the output does not parse: %v", name, flags, err)
			return
		}
		if flags&backend.WriteSortKeys == 0 {
			if err := Equal(tape, src, back, out); err != nil {
				t.Errorf("%s, flags %d: written as a different document: %v", name, flags, err)
				return
			}
		} else if err := equalSorted(tape, src, back, out); err != nil {
			t.Errorf("%s, flags %d: written as a different document: %v", name, flags, err)
			return
		}
		again, err := Write(w, back, out, flags)
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s, flags %d: not written again identically:\n%s\n%s (%v)", name, flags, quote(out), quote(again), err)
			return
		}
	}
}

// equalSorted compares the document of a with the one of b, whose objects
// must hold a's members in key order (stable: equal keys in a's order).
func equalSorted(a *backend.Tape, ai []byte, b *backend.Tape, bi []byte) error {
	sorted := sortedCopy(a, ai)
	return Equal(sorted, nil, b, bi)
}

func runWriteCorpus(t *testing.T, w backend.Writer) {
	for _, name := range []string{"twitter.json", "citm_catalog.json", "canada.json", "github.json"} {
		src, err := readTestdata("corpus", name)
		if err != nil {
			t.Fatal(err)
		}
		tape := new(backend.Tape)
		if err := (scalar.Parser{}).Parse(src, tape); err != nil {
			t.Fatal(err)
		}
		roundTrip(t, w, name, tape, src)
	}
}

func runWriteRandom(t *testing.T, w backend.Writer) {
	r := rand.New(rand.NewPCG(2026, 1202))
	n := 2000
	if testing.Short() {
		n = 200
	}
	for k := range n {
		src := randomDoc(r)
		tape := new(backend.Tape)
		if (scalar.Parser{}).Parse(src, tape) != nil {
			continue // beyond the float range: rejected, nothing to write
		}
		roundTrip(t, w, fmt.Sprintf("random document %d %s", k, quote(src)), tape, src)
		if t.Failed() {
			return
		}
	}
}

// runOutput: text is appended after what the output holds; with an
// Allocator the output grows only through it, and ends in the last buffer
// it returned; an empty tape writes nothing.
func runOutput(t *testing.T, w backend.Writer) {
	src, err := readTestdata("corpus", "citm_catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	tape := new(backend.Tape)
	if err := (scalar.Parser{}).Parse(src, tape); err != nil {
		t.Fatal(err)
	}
	for _, flags := range WriteFlagSets {
		want, err := Write(w, tape, src, flags)
		if err != nil {
			t.Fatal(err)
		}
		out := backend.Output{Buf: []byte("prefix")}
		w.Write(&out, tape, src, flags)
		if string(out.Buf) != "prefix"+string(want) {
			t.Errorf("flags %d: the text is not appended after the output's contents", flags)
		}
		for _, start := range []int{0, 1, 100, len(want) - 1, len(want) + 10} {
			a := &exactAllocator{}
			out := backend.Output{Buf: make([]byte, 0, start), Alloc: a}
			a.last = out.Buf
			w.Write(&out, tape, src, flags)
			if !bytes.Equal(out.Buf, want) {
				t.Errorf("flags %d, start %d: with an Allocator the text differs", flags, start)
			}
			if cap(a.last) == 0 || cap(out.Buf) != cap(a.last) || &out.Buf[:1][0] != &a.last[:1][0] {
				t.Errorf("flags %d, start %d: the output is not the Allocator's last buffer (grown on the Go heap behind its back)", flags, start)
			}
		}
	}
	for _, flags := range append(WriteFlagSets, backend.WriteIndent2|backend.WriteAppendNewline|ignoredBits) {
		expectWrite(t, w, "an empty tape", new(backend.Tape), nil, flags, "")
	}
}

// exactAllocator gives exactly the capacity asked for, a new array each
// time, and remembers the last one.
type exactAllocator struct{ last []byte }

func (a *exactAllocator) GrowBytes(old []byte, need int) []byte {
	b := make([]byte, len(old), need)
	copy(b, old)
	a.last = b
	return b
}

func (a *exactAllocator) GrowWords(old []uint64, need int) []uint64 {
	panic("a writer grew tape words")
}

// runWriteConcurrent writes the corpus from several goroutines at once (run
// with -race): a Writer must be safe for concurrent use.
func runWriteConcurrent(t *testing.T, w backend.Writer) {
	type doc struct {
		src  []byte
		tape *backend.Tape
		want [][]byte
	}
	var docs []doc
	for _, name := range []string{"twitter.json", "canada.json", "github.json"} {
		src, err := readTestdata("corpus", name)
		if err != nil {
			t.Fatal(err)
		}
		d := doc{src: src, tape: new(backend.Tape)}
		if err := (scalar.Parser{}).Parse(src, d.tape); err != nil {
			t.Fatal(err)
		}
		for _, flags := range WriteFlagSets {
			out, _ := Write(w, d.tape, src, flags)
			d.want = append(d.want, out)
		}
		docs = append(docs, d)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Go(func() {
			for k := range 2 * concurrentRounds() { // each goroutine starts at another document
				d := docs[(g+k)%len(docs)]
				for f, flags := range WriteFlagSets {
					out, err := Write(w, d.tape, d.src, flags)
					if err != nil || !bytes.Equal(out, d.want[f]) {
						errs <- fmt.Errorf("goroutine %d: flags %d: a concurrent write differs (%v)", g, flags, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
