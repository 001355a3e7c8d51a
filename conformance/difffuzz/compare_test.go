package difffuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
)

// testFiles lists every JSON document of the repository's test data.
func testFiles(t testing.TB) []string {
	var files []string
	root := filepath.Join("..", "..", "testdata")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no test data under %s: %v", root, err)
	}
	return files
}

func TestBackendsCompiledIn(t *testing.T) {
	t.Logf("compiled in: %v; supported here: %v", backend.Names(), backend.Supported())
	if len(backend.Supported()) < 2 {
		t.Skip("only the reference backend runs here: nothing to compare")
	}
}

func TestDifferentialTestData(t *testing.T) {
	for _, f := range testFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := Compare(src); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestWritersCompiledIn(t *testing.T) {
	t.Logf("compiled in: %v; supported here: %v", backend.WriterNames(), backend.SupportedWriters())
	for _, name := range backend.SupportedWriters() {
		if name != ReferenceWriter {
			return
		}
	}
	t.Fatal("the reference writer has nothing to be compared with")
}

func TestDifferentialWritersTestData(t *testing.T) {
	for _, f := range testFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint8(3) {
			if err := CompareWritersOn(src, seed*50); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
}
