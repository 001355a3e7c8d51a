package bench

import (
	"testing"

	"github.com/isojson/isojson/backend"
)

// BenchmarkParse measures each compiled-in backend producing the tape of
// each corpus document, as the engine does for loads: the Tape is reused
// across iterations (Reset keeps its memory), so a backend that allocates
// per value shows it in allocs/op. Throughput is bytes of input per second.
//
// Backends that cannot run on this CPU (Supported() false) are skipped with
// a note instead of reporting a fallback's speed under their name.
func BenchmarkParse(b *testing.B) {
	names := backend.Names()
	if len(names) == 0 {
		b.Fatal("no backend is registered: the backends_*_test.go imports are missing")
	}
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			be, err := backend.Lookup(name)
			if err != nil {
				b.Skip(err)
			}
			for _, doc := range corpus {
				b.Run(doc, func(b *testing.B) {
					src := loadCorpus(b, doc)
					var t backend.Tape
					// One parse outside the timer checks the document is
					// accepted and sizes the tape, as a warm engine is.
					if err := be.Parser.Parse(src, &t); err != nil {
						b.Fatalf("%s rejects %s: %v", name, doc, err)
					}
					b.SetBytes(int64(len(src)))
					b.ReportAllocs()
					for b.Loop() {
						t.Reset()
						if err := be.Parser.Parse(src, &t); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
