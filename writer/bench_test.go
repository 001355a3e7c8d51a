package writer

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
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
