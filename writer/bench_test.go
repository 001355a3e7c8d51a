package writer

import (
	"os"
	"path/filepath"
	"testing"
)

// corpusTape loads testdata/corpus/<name>.json into a tape (tapeOf: strings
// in the arena, marked clean when they need no escaping, as parsers do).
func corpusTape(b *testing.B, name string) []byte {
	b.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", name+".json"))
	if err != nil {
		b.Fatal(err)
	}
	return src
}

func benchWrite(b *testing.B, name string, flags Flags) {
	tp, err := tapeOf(corpusTape(b, name))
	if err != nil {
		b.Fatal(err)
	}
	out := Append(nil, tp, nil, flags)
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out = Append(out[:0], tp, nil, flags)
	}
}

func BenchmarkWrite(b *testing.B) {
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
		b.Run(name, func(b *testing.B) { benchWrite(b, name, 0) })
	}
}

func BenchmarkWriteIndentSorted(b *testing.B) {
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
		b.Run(name, func(b *testing.B) { benchWrite(b, name, Indent2|SortKeys) })
	}
}
