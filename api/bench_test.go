package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
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
		for b.Loop() {
			if _, err := Reformat(src, 0); err != nil {
				b.Fatal(err)
			}
		}
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
		for b.Loop() {
			if _, err := Marshal(v, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
