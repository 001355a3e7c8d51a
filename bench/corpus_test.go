package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// corpus lists the benchmark documents in the order the tables use. They
// are the documents simdjson, orjson and most JSON benchmarks use, so the
// figures compare with published ones: twitter (text-heavy, non-ASCII),
// citm_catalog (many small integers and keys), canada (floats), github
// (small, nested).
var corpus = []string{"twitter", "citm_catalog", "canada", "github"}

// loadCorpus reads testdata/corpus/<name>.json, failing the benchmark if it
// is missing rather than measuring nothing.
func loadCorpus(b *testing.B, name string) []byte {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", name+".json"))
	if err != nil {
		b.Fatalf("corpus document %s: %v", name, err)
	}
	return data
}
