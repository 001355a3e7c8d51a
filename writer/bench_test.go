package writer

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

// corpusTape parses testdata/corpus/<name>.json with the scalar parser, so
// that strings are where a parser leaves them (clean ones in the input,
// unescaped ones in the arena).
func corpusTape(b *testing.B, name string) (*backend.Tape, []byte) {
	b.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", name+".json"))
	if err != nil {
		b.Fatal(err)
	}
	tp := &backend.Tape{}
	if err := (scalar.Parser{}).Parse(src, tp); err != nil {
		b.Fatal(err)
	}
	return tp, src
}

func benchWrite(b *testing.B, name string, flags Flags) {
	tp, src := corpusTape(b, name)
	out := Append(nil, tp, src, flags)
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	loopCPU(b, int64(len(out)), func() { out = Append(out[:0], tp, src, flags) })
}

// loopCPU runs body in b.Loop and also reports the CPU time of the thread
// per op (and the rate it gives for size bytes per op, when size > 0): the
// machine is shared, and thread CPU time is far steadier than wall time.
func loopCPU(b *testing.B, size int64, body func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	cpu := threadCPU()
	for b.Loop() {
		body()
	}
	ns := float64(threadCPU()-cpu) / float64(b.N)
	b.ReportMetric(ns, "cpu-ns/op")
	if size > 0 {
		b.ReportMetric(float64(size)/ns*1e3, "cpu-MB/s")
	}
}

// threadCPU returns the CPU time of the calling thread in nanoseconds
// (the benchmark locks its goroutine to the thread).
func threadCPU() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

func BenchmarkWrite(b *testing.B) {
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
		b.Run(name, func(b *testing.B) { benchWrite(b, name, 0) })
	}
}

func BenchmarkWriteIndentSorted(b *testing.B) {
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
		b.Run(name, func(b *testing.B) { benchWrite(b, name, Indent2|SortKeys) })
	}
}

// BenchmarkWriteUCS2 writes text that CPython stores as UCS2 (mostly ASCII
// with a few CJK characters), as dumps hands it over.
func BenchmarkWriteUCS2(b *testing.B) {
	text := []rune(strings.Repeat("Hello, 世界! A tweet with some ASCII text and 日本語. ", 20))
	units := make([]uint16, len(text))
	for i, r := range text {
		units[i] = uint16(r)
	}
	tp := &backend.Tape{}
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageExternal, Width: backend.WidthUCS2,
		Class: backend.ClassBMP, Len: len(units), Where: uint64(uintptr(unsafe.Pointer(&units[0]))), Chars: len(units)})
	out := Append(nil, tp, nil, 0)
	b.SetBytes(int64(len(out)))
	loopCPU(b, int64(len(out)), func() { out = Append(out[:0], tp, nil, 0) })
	runtime.KeepAlive(units)
}

// pythonTape rewrites the String entries of a corpus tape the way the
// extension's dumps hands them over (pyshim/dumps/dumps_str.c): every string
// points into memory the tape does not own; ASCII text as UTF-8, other text
// in CPython's own 1-, 2- or 4-byte layout (a str that orjson.loads made
// has no cached UTF-8), or, when cachedUTF8, as UTF-8 (a str that
// orjson.dumps has already seen). Clean is set when no character needs
// escaping. The memory is pinned until the benchmark ends.
func pythonTape(b *testing.B, name string, cachedUTF8 bool) *backend.Tape {
	tp, src := corpusTape(b, name)
	externalRefs(b, tp, src, cachedUTF8)
	return tp
}

// externalRefs rewrites the String entries of tp (parsed from src) in place
// as External refs, as pythonTape describes; each string's copy is an
// allocation of its exact size, pinned until the test or benchmark ends.
func externalRefs(tb testing.TB, tp *backend.Tape, src []byte, cachedUTF8 bool) {
	var pin runtime.Pinner
	tb.Cleanup(pin.Unpin)
	for i := 0; i < len(tp.Words); {
		if tp.Kind(i) != backend.KindString {
			if k := tp.Kind(i); k == backend.KindArray || k == backend.KindObject {
				i += backend.ContainerWords
			} else {
				i = tp.Next(i)
			}
			continue
		}
		s := tp.Bytes(i, src)
		r := backend.Ref{Storage: backend.StorageExternal, Len: len(s), Chars: utf8.RuneCount(s),
			Clean: cleanPrefixUTF8(s) == len(s)}
		text := []rune(string(s))
		widest := rune(0)
		for _, c := range text {
			widest = max(widest, c)
		}
		var data unsafe.Pointer
		switch {
		case widest < 0x80 || cachedUTF8:
			p := append([]byte(nil), s...)
			data = unsafe.Pointer(unsafe.SliceData(p))
			r.Class = map[bool]backend.Class{true: backend.ClassASCII, false: backend.ClassBMP}[widest < 0x80]
		case widest < 0x100:
			p := make([]byte, len(text))
			for j, c := range text {
				p[j] = byte(c)
			}
			data, r.Class, r.Width, r.Len = unsafe.Pointer(&p[0]), backend.ClassLatin1, backend.WidthUCS1, len(p)
		case widest < 0x10000:
			p := make([]uint16, len(text))
			for j, c := range text {
				p[j] = uint16(c)
			}
			data, r.Class, r.Width, r.Len = unsafe.Pointer(&p[0]), backend.ClassBMP, backend.WidthUCS2, len(p)
		default:
			p := make([]uint32, len(text))
			for j, c := range text {
				p[j] = uint32(c)
			}
			data, r.Class, r.Width, r.Len = unsafe.Pointer(&p[0]), backend.ClassAstral, backend.WidthUCS4, len(p)
		}
		if r.Len == 0 {
			data = unsafe.Pointer(&zeroText)
		}
		pin.Pin(data)
		r.Where = uint64(uintptr(data))
		tp.Words[i] = backend.RefHeader(backend.KindString, r.Storage, r.Class, r.Width, r.Clean, r.Len)
		tp.Words[i+1], tp.Words[i+2] = r.Where, uint64(r.Chars)
		i += backend.RefWords
	}
}

// zeroText is where an empty string points.
var zeroText [8]byte

// BenchmarkWritePython writes the corpus as isojson.dumps hands it to the
// writer: strings as External refs into CPython's storage.
func BenchmarkWritePython(b *testing.B) {
	for _, cached := range []bool{false, true} {
		for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
			sub := name
			if cached {
				sub += "/cachedUTF8"
			}
			b.Run(sub, func(b *testing.B) {
				tp := pythonTape(b, name, cached)
				parsed, src := corpusTape(b, name)
				want := Append(nil, parsed, src, 0)
				out := Append(nil, tp, nil, 0)
				if !bytes.Equal(out, want) {
					b.Fatal("the External tape writes other text than the parsed one")
				}
				b.SetBytes(int64(len(out)))
				b.ReportAllocs()
				loopCPU(b, int64(len(out)), func() { out = Append(out[:0], tp, nil, 0) })
			})
		}
	}
}

// BenchmarkWriteItems writes lists of 20,000 items of one kind, as dumps
// hands them over: the writer's cost per item, apart from the corpus.
func BenchmarkWriteItems(b *testing.B) {
	items := map[string]func(i int) string{
		"ints":     func(i int) string { return strconv.Itoa(i) },
		"bigints":  func(i int) string { return strconv.Itoa(i*7919*104729*1299709 - 1e15) },
		"bools":    func(i int) string { return [2]string{"true", "null"}[i&1] },
		"empty":    func(i int) string { return "[]" },
		"floats":   func(i int) string { return strconv.FormatFloat(float64(i)*0.37, 'g', -1, 64) },
		"records":  func(i int) string { return `{"id":` + strconv.Itoa(i) + `,"ok":true,"tags":[],"n":null}` },
		"intlists": func(i int) string { return "[" + strconv.Itoa(i) + "," + strconv.Itoa(i+1) + "]" },
	}
	for _, name := range []string{"ints", "bigints", "bools", "empty", "floats", "records", "intlists"} {
		parts := make([]string, 20000)
		for i := range parts {
			parts[i] = items[name](i)
		}
		src := []byte("[" + strings.Join(parts, ",") + "]")
		tp := &backend.Tape{}
		if err := (scalar.Parser{}).Parse(src, tp); err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			out := Append(nil, tp, src, 0)
			if !bytes.Equal(out, src) {
				b.Fatalf("wrote %.80q..., want %.80q...", out, src)
			}
			b.SetBytes(int64(len(out)))
			loopCPU(b, int64(len(out)), func() { out = Append(out[:0], tp, src, 0) })
		})
	}
}

// BenchmarkWriteLongString writes one long ASCII string (1 MiB) held
// External, as dumps hands over a str: clean (a copy), or with one escape at
// its end (the escape kernel's scan of the whole text), and, as the floor,
// a plain copy of the same bytes. The output buffer is kept between calls,
// so the figures leave out the first touch of new memory.
func BenchmarkWriteLongString(b *testing.B) {
	const n = 1 << 20
	text := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog "), n/44+1)[:n]
	escaped := append(append([]byte{}, text[:n-1]...), '\n')
	for _, tc := range []struct {
		name  string
		text  []byte
		clean bool
	}{{"clean", text, true}, {"escaped", escaped, false}} {
		tp := &backend.Tape{}
		tp.Words = append(tp.Words,
			backend.RefHeader(backend.KindString, backend.StorageExternal, backend.ClassASCII, backend.WidthUTF8, tc.clean, n),
			uint64(uintptr(unsafe.Pointer(unsafe.SliceData(tc.text)))), n)
		b.Run(tc.name, func(b *testing.B) {
			out := Append(nil, tp, nil, 0)
			b.SetBytes(int64(len(out)))
			loopCPU(b, int64(len(out)), func() { out = Append(out[:0], tp, nil, 0) })
			runtime.KeepAlive(tc.text)
		})
	}
	b.Run("copy", func(b *testing.B) {
		out := make([]byte, n+2)
		b.SetBytes(n)
		loopCPU(b, n, func() { copy(out[1:], text) })
	})
}
