package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

func benchCorpus(b *testing.B, fn func(b *testing.B, src []byte)) {
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", name+".json"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) { fn(b, src) })
	}
}

// BenchmarkReformat is parse + write (compact), the rate in input bytes.
func BenchmarkReformat(b *testing.B) {
	benchCorpus(b, func(b *testing.B, src []byte) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		loopCPU(b, int64(len(src)), func() {
			if _, err := Reformat(src, 0); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkMarshal writes the document decoded by encoding/json (keys
// sorted, as Marshal always writes maps).
func BenchmarkMarshal(b *testing.B) {
	benchCorpus(b, func(b *testing.B, src []byte) {
		var v any
		if err := json.Unmarshal(src, &v); err != nil {
			b.Fatal(err)
		}
		out, _ := Marshal(v, 0)
		b.SetBytes(int64(len(out)))
		b.ReportAllocs()
		loopCPU(b, int64(len(out)), func() {
			if _, err := Marshal(v, 0); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// loopCPU runs body in b.Loop and also reports the calling thread's CPU
// time per op and the rate it gives: the machine is shared, and thread CPU
// time is far steadier than wall time.
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
	b.ReportMetric(float64(size)/ns*1e3, "cpu-MB/s")
}

func threadCPU() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}
