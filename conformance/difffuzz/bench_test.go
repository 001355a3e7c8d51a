package difffuzz

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/isojson/isojson/backend"
)

// BenchmarkParse measures every supported backend on the four corpus
// documents under the same conditions, tape production included (a warm,
// reused tape, as the engine uses it). Its GB/s decide the backends' ranks.
func BenchmarkParse(b *testing.B) {
	for _, name := range backend.Supported() {
		be, _ := backend.Lookup(name)
		for _, doc := range []string{"twitter", "citm_catalog", "canada", "github"} {
			src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", doc+".json"))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/"+doc, func(b *testing.B) {
				var t backend.Tape
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
	}
}
