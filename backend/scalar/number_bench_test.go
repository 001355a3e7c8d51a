package scalar

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/isojson/isojson/backend"
)

func readCorpusFile(tb testing.TB, name string) []byte {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	return src
}

// numberOffsets finds where each number of a corpus document starts, in
// document order (so that branch history is the parse's).
func numberOffsets(tb testing.TB, src []byte) []int {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var starts []int
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if num, ok := tok.(json.Number); ok {
			starts = append(starts, int(dec.InputOffset())-len(num))
		}
	}
	return starts
}

// BenchmarkScanNumber times scanNumber alone over every number of a corpus
// document in place (ns/op is per number): the cost the whole-document
// benchmarks spread over everything else.
func BenchmarkScanNumber(b *testing.B) {
	for _, name := range []string{"citm_catalog", "canada", "twitter", "github"} {
		src := readCorpusFile(b, name)
		starts := numberOffsets(b, src)
		b.Run(name, func(b *testing.B) {
			var t backend.Tape
			t.Words = make([]uint64, 0, 3*len(starts))
			for b.Loop() {
				t.Words = t.Words[:0]
				for _, s := range starts {
					if _, err := scanNumber(src, s, &t); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(starts)), "ns/number")
		})
	}
}
