//go:build amd64 && !isojson_nosimdjson

package simdjson

import (
	"os"
	"path/filepath"
	"testing"

	simd "github.com/minio/simdjson-go"

	"github.com/isojson/isojson/backend"
)

var corpus = []string{"twitter", "citm_catalog", "canada", "github"}

func readCorpus(b *testing.B, name string) []byte {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", name+".json"))
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkParse measures the backend: simdjson-go plus the conversion to
// the isojson tape, on a warm, reused tape.
func BenchmarkParse(b *testing.B) {
	needCPU(b)
	for _, name := range corpus {
		src := readCorpus(b, name)
		b.Run(name, func(b *testing.B) {
			var t backend.Tape
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				t.Reset()
				if err := (Parser{}).Parse(src, &t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLibrary measures simdjson-go alone, for the conversion's share.
func BenchmarkLibrary(b *testing.B) {
	needCPU(b)
	for _, name := range corpus {
		src := readCorpus(b, name)
		b.Run(name, func(b *testing.B) {
			pj := new(simd.ParsedJson)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				var err error
				if pj, err = simd.Parse(src, pj, simd.WithCopyStrings(false)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
