package scalar_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

var corpus = []string{"twitter", "citm_catalog", "canada", "github"}

func readCorpus(tb testing.TB, name string) []byte {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	return src
}

// BenchmarkParse parses each corpus document into a reused tape; the MB/s
// figure is the goal (twitter >= 1000, canada >= 500 on the dev box).
func BenchmarkParse(b *testing.B) {
	for _, name := range corpus {
		src := readCorpus(b, name)
		b.Run(name, func(b *testing.B) {
			var t backend.Tape
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				t.Reset()
				if err := (scalar.Parser{}).Parse(src, &t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
