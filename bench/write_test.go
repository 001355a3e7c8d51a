package bench

import (
	"encoding/json"
	"testing"

	"github.com/isojson/isojson/backend"
)

// BenchmarkWrite measures each compiled-in writer turning each corpus
// document's tape back into compact JSON (orjson.dumps's bytes), as the
// engine does for dumps. The tape comes from the default backend; the output
// buffer is reused, so steady state allocates nothing (the fast writer).
// Throughput is bytes of output per second, the figure orjson's dumps speed
// is usually quoted in.
func BenchmarkWrite(b *testing.B) {
	be := backend.Default()
	if be == nil {
		b.Fatal("no supported backend is registered to build the tapes")
	}
	names := backend.WriterNames()
	if len(names) == 0 {
		b.Fatal("no writer is registered: the backends_test.go import is missing")
	}
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			w, err := backend.LookupWriter(name)
			if err != nil {
				b.Skip(err)
			}
			for _, doc := range corpus {
				b.Run(doc, func(b *testing.B) {
					src := loadCorpus(b, doc)
					var t backend.Tape
					if err := be.Parser.Parse(src, &t); err != nil {
						b.Fatalf("%s rejects %s: %v", be.Name, doc, err)
					}
					out := backend.Output{}
					w.Writer.Write(&out, &t, src, 0)
					if !json.Valid(out.Buf) {
						b.Fatalf("writer %s output for %s is not valid JSON", name, doc)
					}
					b.SetBytes(int64(len(out.Buf)))
					b.ReportAllocs()
					for b.Loop() {
						out.Buf = out.Buf[:0]
						w.Writer.Write(&out, &t, src, 0)
					}
				})
			}
		})
	}
}
