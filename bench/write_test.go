package bench

import (
	"encoding/json"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/writer"
)

// BenchmarkWrite measures the writer turning each corpus document's tape
// back into compact JSON (orjson.dumps's bytes), as the engine does for
// dumps. The tape comes from the default backend; the output buffer is
// reused, so steady state allocates nothing. Throughput is bytes of output
// per second, the figure orjson's dumps speed is usually quoted in.
func BenchmarkWrite(b *testing.B) {
	be := backend.Default()
	if be == nil {
		b.Fatal("no supported backend is registered to build the tapes")
	}
	for _, doc := range corpus {
		b.Run(doc, func(b *testing.B) {
			src := loadCorpus(b, doc)
			var t backend.Tape
			if err := be.Parser.Parse(src, &t); err != nil {
				b.Fatalf("%s rejects %s: %v", be.Name, doc, err)
			}
			out := writer.Append(nil, &t, src, 0)
			if !json.Valid(out) {
				b.Fatalf("writer output for %s is not valid JSON", doc)
			}
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				out = writer.Append(out[:0], &t, src, 0)
			}
		})
	}
}
