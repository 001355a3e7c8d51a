//go:build cgo

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/writer"
)

func corpus(t testing.TB) map[string][]byte {
	docs := map[string][]byte{}
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		docs[name] = b
	}
	return docs
}

func TestBackendsCatalog(t *testing.T) {
	names := backend.Names()
	if got := engineBackends(); got != strings.Join(names, ",") {
		t.Fatalf("isojson_engine_backends = %q, registry has %q", got, names)
	}
	for i, n := range names {
		if backendName(i) != n {
			t.Errorf("backend_name(%d) = %q, want %q", i, backendName(i), n)
		}
	}
	if backendName(len(names)) != "" || backendName(-1) != "" {
		t.Error("backend_name out of range is not NULL")
	}
	def, msg := backendIndex("")
	if def < 0 || backendName(def) != backend.Default().Name {
		t.Errorf("default backend = %d (%s), want %s", def, msg, backend.Default().Name)
	}
	i, msg := backendIndex("no-such-backend")
	if i != -1 || !strings.Contains(msg, "no-such-backend") || !strings.Contains(msg, names[0]) {
		t.Errorf("unknown backend: %d %q: want -1 and a message naming the choices", i, msg)
	}
}

// Every backend, through the C ABI, produces the tape it produces in Go, and
// the write call produces writer.Append's bytes for every flag combination.
func TestParseAndWriteThroughABI(t *testing.T) {
	c := newCCall()
	defer c.free()
	for _, name := range backend.Supported() {
		idx, _ := backendIndex(name)
		b, _ := backend.Lookup(name)
		for doc, src := range corpus(t) {
			c.setInput(src)
			for round := 0; round < 2; round++ { // the second reuses grown memory
				if rc, msg, _ := c.parse(idx); rc != 0 {
					t.Fatalf("%s/%s: rc %d: %s", name, doc, rc, msg)
				}
				var want backend.Tape
				if err := b.Parser.Parse(src, &want); err != nil {
					t.Fatal(err)
				}
				got := c.goTape()
				if len(got.Words) != len(want.Words) || string(got.Arena) != string(want.Arena) {
					t.Fatalf("%s/%s: tape through the ABI differs", name, doc)
				}
				for i := range got.Words {
					if got.Words[i] != want.Words[i] {
						t.Fatalf("%s/%s: word %d differs", name, doc, i)
					}
				}
				if round > 0 {
					continue
				}
				for _, flags := range []uint32{0, 1 | 32 | 1024} {
					rc := c.write(flags)
					out := c.output()
					if rc != 0 {
						t.Fatalf("write rc %d", rc)
					}
					if exp := writer.Append(nil, &want, src, writer.Flags(flags)); string(out) != string(exp) {
						t.Fatalf("%s/%s flags %d: write through the ABI differs from writer.Append", name, doc, flags)
					}
				}
			}
		}
	}
}

// write_into gives writer.Append's bytes whatever room it starts with,
// grows only through the callback and only when the room runs out, and
// turns a refused or short growth into an error instead of writing on.
func TestWriteIntoThroughABI(t *testing.T) {
	c := newCCall()
	defer c.free()
	idx, _ := backendIndex("")
	b := backend.Default()
	for doc, src := range corpus(t) {
		c.setInput(src)
		if rc, msg, _ := c.parse(idx); rc != 0 {
			t.Fatalf("%s: rc %d: %s", doc, rc, msg)
		}
		var tape backend.Tape
		if err := b.Parser.Parse(src, &tape); err != nil {
			t.Fatal(err)
		}
		for _, flags := range []uint32{0, 1 | 32 | 1024} {
			want := writer.Append(nil, &tape, src, writer.Flags(flags))
			for _, start := range []int{0, 1, 100, len(want) / 3, len(want), 2 * len(want)} {
				rc, msg, grows := c.writeInto(flags, start, 0)
				if rc != 0 {
					t.Fatalf("%s flags %d start %d: rc %d %s", doc, flags, start, rc, msg)
				}
				if got := c.output(); string(got) != string(want) {
					t.Fatalf("%s flags %d start %d: write_into differs from writer.Append", doc, flags, start)
				}
				if start < len(want) && grows == 0 || start == 2*len(want) && grows != 0 {
					t.Errorf("%s flags %d start %d: %d grow calls for %d bytes", doc, flags, start, grows, len(want))
				}
			}
			if rc, msg, grows := c.writeInto(flags, 100, 1); rc != 2 || grows != 1 || msg != "out of memory" {
				t.Errorf("%s: refused growth: rc %d %q after %d calls, want ISOJSON_NOMEM after 1", doc, rc, msg, grows)
			}
			if rc, msg, grows := c.writeInto(flags, 100, 2); rc != 3 || grows != 1 || !strings.Contains(msg, "less than asked") {
				t.Errorf("%s: short growth: rc %d %q after %d calls, want ISOJSON_FAIL after 1", doc, rc, msg, grows)
			}
		}
	}
	if rc, msg := c.writeIntoNoGrow(); rc != 3 || !strings.Contains(msg, "no grow function") {
		t.Errorf("NULL grow: rc %d %q, want ISOJSON_FAIL", rc, msg)
	}
}

// A writer panic after the output grew (here: a malformed entry late in a
// hand-built tape) leaves out->data on the buffer the callback returned last,
// so that the caller frees that one and not a stale one (the next writeInto
// frees it: glibc aborts on a double or invalid free).
func TestWriteIntoPanicAfterGrowth(t *testing.T) {
	c := newCCall()
	defer c.free()
	const n = 500
	words := []uint64{uint64(backend.KindArray)<<backend.KindShift | n + 1, 0}
	for i := 0; i < n; i++ {
		words = append(words, uint64(backend.KindInt)<<backend.KindShift, uint64(i)*1e15)
	}
	words = append(words, 0) // kind 0: no such entry
	words[1] = uint64(len(words))
	c.setTape(words)
	rc, msg, grows := c.writeInto(0, 16, 0)
	if rc != 3 || !strings.Contains(msg, "internal error") || grows == 0 {
		t.Fatalf("rc %d %q after %d grow calls: want ISOJSON_FAIL after growing", rc, msg, grows)
	}
	if c.outCap() <= 16 {
		t.Fatalf("out->cap %d: not the grown buffer", c.outCap())
	}
	if rc, _, _ := c.writeInto(0, 16, 0); rc != 3 {
		t.Fatalf("second call: rc %d", rc)
	}
}

func TestSyntaxErrorThroughABI(t *testing.T) {
	c := newCCall()
	defer c.free()
	for _, name := range backend.Supported() {
		idx, _ := backendIndex(name)
		b, _ := backend.Lookup(name)
		for _, src := range []string{"", "[1,", `{"a" 1}`, "[1e400]", strings.Repeat("[", 1025), "\xff"} {
			c.setInput([]byte(src))
			rc, msg, off := c.parse(idx)
			var want backend.Tape
			err := b.Parser.Parse([]byte(src), &want)
			var se *backend.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%s %q: Go parse gave %v", name, src, err)
			}
			if rc != 1 || msg != se.Msg || off != se.Offset {
				t.Errorf("%s %q: ABI gave rc %d %q@%d, Go gave %q@%d", name, src, rc, msg, off, se.Msg, se.Offset)
			}
		}
	}
}

func TestInvalidBackendIndex(t *testing.T) {
	c := newCCall()
	defer c.free()
	c.setInput([]byte("1"))
	for _, idx := range []int{-1, len(backend.Names())} {
		if rc, msg, _ := c.parse(idx); rc != 3 || msg == "" {
			t.Errorf("index %d: rc %d %q, want ISOJSON_FAIL with a message", idx, rc, msg)
		}
	}
}

// A warm call allocates nothing in Go.
func TestParseAllocatesNothing(t *testing.T) {
	c := newCCall()
	defer c.free()
	c.setInput(corpus(t)["github"])
	idx, _ := backendIndex("")
	c.parse(idx)
	if n := testing.AllocsPerRun(50, func() { c.parse(idx) }); n != 0 {
		t.Errorf("parse allocates %v times per call", n)
	}
	c.write(0)
	if n := testing.AllocsPerRun(50, func() { c.write(0) }); n != 0 {
		t.Errorf("write allocates %v times per call", n)
	}
	// write_into, growing from nothing through the callback.
	if n := testing.AllocsPerRun(50, func() { c.writeInto(0, 0, 0) }); n != 0 {
		t.Errorf("write_into allocates %v times per call", n)
	}
}

// BenchmarkParseABI measures parse calls as the extension makes them, on the
// corpus or on the files listed in ISOJSON_BENCH_FILES (colon separated), with
// the backend ISOJSON_BACKEND names (default: the engine's default).
func BenchmarkParseABI(b *testing.B) {
	c := newCCall()
	defer c.free()
	idx, msg := backendIndex(os.Getenv("ISOJSON_BACKEND"))
	if idx < 0 {
		b.Fatal(msg)
	}
	docs := corpus(b)
	if files := os.Getenv("ISOJSON_BENCH_FILES"); files != "" {
		docs = map[string][]byte{}
		for _, f := range strings.Split(files, ":") {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			docs[filepath.Base(f)] = src
		}
	}
	for name, src := range docs {
		b.Run(name, func(b *testing.B) {
			c.setInput(src)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				c.parse(idx)
			}
		})
	}
}

// BenchmarkWriteABI measures the engine's fixed cost per write call (the
// cgo crossing aside: Go calls the export directly) on a tiny tape, and
// write_into on the corpus.
func BenchmarkWriteABI(b *testing.B) {
	c := newCCall()
	defer c.free()
	idx, _ := backendIndex("")
	b.Run("tiny/write", func(b *testing.B) {
		c.setInput([]byte("[1]"))
		c.parse(idx)
		for b.Loop() {
			c.write(0)
		}
	})
	b.Run("tiny/write_into", func(b *testing.B) {
		c.setInput([]byte("[1]"))
		c.parse(idx)
		c.writeInto(0, 64, 0)
		for b.Loop() {
			c.out.len = 0
			isojsonWriteIntoAgain(c)
		}
	})
}

// Calls that overlap share neither a tape header nor memory: one takes the
// spare header (parse.go), the others the pool's, and each hands its own C
// memory back. Goroutines locked to threads parse different documents (and
// a syntax error now and then) at once and check every tape.
func TestParseConcurrent(t *testing.T) {
	idx, _ := backendIndex("")
	b := backend.Default()
	docs := corpus(t)
	docs["bad"] = []byte(`[1, 2,`)
	want := map[string]*backend.Tape{}
	for name, src := range docs {
		var tape backend.Tape
		if err := b.Parser.Parse(src, &tape); err != nil {
			continue // the syntax error: checked by its code below
		}
		want[name] = &tape
	}
	const workers, rounds = 4, 30
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c := newCCall()
			defer c.free()
			names := []string{"github", "bad", "twitter", "citm_catalog", "canada"}
			for r := 0; r < rounds; r++ {
				name := names[(w+r)%len(names)]
				c.setInput(docs[name])
				rc, msg, _ := c.parse(idx)
				if name == "bad" {
					if rc != rcSyntax {
						errs <- fmt.Errorf("bad: rc %d (%s), want a syntax error", rc, msg)
						return
					}
					continue
				}
				if rc != 0 {
					errs <- fmt.Errorf("%s: rc %d: %s", name, rc, msg)
					return
				}
				got, exp := c.goTape(), want[name]
				if !slices.Equal(got.Words, exp.Words) || string(got.Arena) != string(exp.Arena) {
					errs <- fmt.Errorf("worker %d round %d: %s: tape differs", w, r, name)
					return
				}
			}
			errs <- nil
		}(w)
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if spareBusy.Load() != 0 {
		t.Error("the spare tape header was not given back")
	}
}
