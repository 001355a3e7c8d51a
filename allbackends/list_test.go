//go:build !isojson_nosimdjson && !isojson_nosonic && !isojson_nofastjson && !isojson_noreference

// The lists checked here are those of a default build.

package allbackends

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
)

// The Go registry is the one list of backends. The places that name them
// for users (README.md, docs/internals.md) and for the Python tests are
// checked against it here, so that a backend added, removed or re-ranked in
// Go and not there fails this test.

func repoFile(t *testing.T, parts ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{".."}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pythonTuple returns the strings of the tuple assigned to name in a Python
// file: NAME = ("a", "b").
func pythonTuple(t *testing.T, src, name string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + name + ` = \(([^)]*)\)`).FindStringSubmatch(src)
	if m == nil {
		t.Fatalf("no %s = (...) line", name)
	}
	var out []string
	for _, q := range regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(m[1], -1) {
		out = append(out, q[1])
	}
	return out
}

// section returns the section of a Markdown text under the heading title,
// up to the next heading of the same level.
func section(t *testing.T, readme, title string) string {
	t.Helper()
	i := strings.Index(readme, "\n## "+title+"\n")
	if i < 0 {
		t.Fatalf("no section %q", title)
	}
	rest := readme[i+1:]
	if j := strings.Index(rest[3:], "\n## "); j >= 0 {
		rest = rest[:j+3]
	}
	return rest
}

func TestPythonTestsListTheRegistry(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("tests/test_backends.py lists the parsers of x86-64")
	}
	got := pythonTuple(t, repoFile(t, "tests", "test_backends.py"), "X86_64_BACKENDS")
	if want := backend.Names(); !slices.Equal(got, want) {
		t.Errorf("tests/test_backends.py X86_64_BACKENDS = %q, the registry has %q (rank order)", got, want)
	}
	got = pythonTuple(t, repoFile(t, "tests", "test_writers.py"), "EXPECTED_WRITERS")
	if want := backend.WriterNames(); !slices.Equal(got, want) {
		t.Errorf("tests/test_writers.py EXPECTED_WRITERS = %q, the registry has %q (rank order)", got, want)
	}
}

// docs/internals.md's Backends section is where the backends are described.
func TestDocsNameTheRegistry(t *testing.T) {
	s := section(t, repoFile(t, "docs", "internals.md"), "Backends")
	readme := repoFile(t, "README.md")
	for _, name := range backend.Names() {
		if !strings.Contains(s, "`"+name+"`") {
			t.Errorf("docs/internals.md's Backends section does not name the parser `%s`", name)
		}
		if !strings.Contains(readme, "`"+name+"`") {
			t.Errorf("README.md does not name the parser `%s`", name)
		}
		if name != "scalar" && !strings.Contains(s, "`isojson_no"+name+"`") {
			t.Errorf("docs/internals.md's Backends section does not name the build tag `isojson_no%s`", name)
		}
	}
	for _, name := range backend.WriterNames() {
		if !strings.Contains(s, "`"+name+"`") {
			t.Errorf("docs/internals.md's Backends section does not name the writer `%s`", name)
		}
		if !strings.Contains(readme, "`"+name+"`") {
			t.Errorf("README.md does not name the writer `%s`", name)
		}
	}
	// The ranks as the section states them, "`name` (rank)", in rank order.
	var parsers, writers []string
	for _, q := range regexp.MustCompile("`([a-z]+)`\\s+\\((\\d+)\\)").FindAllStringSubmatch(s, -1) {
		if b, err := backend.Lookup(q[1]); err == nil {
			parsers = append(parsers, q[1])
			if strconv.Itoa(b.Rank) != q[2] {
				t.Errorf("docs/internals.md gives `%s` rank %s, its registration %d", q[1], q[2], b.Rank)
			}
		} else if w, err := backend.LookupWriter(q[1]); err == nil {
			writers = append(writers, q[1])
			if strconv.Itoa(w.Rank) != q[2] {
				t.Errorf("docs/internals.md gives the writer `%s` rank %s, its registration %d", q[1], q[2], w.Rank)
			}
		}
	}
	if runtime.GOARCH == "amd64" && !slices.Equal(parsers, backend.Names()) {
		t.Errorf("docs/internals.md states the parsers' ranks in the order %q, the registry has %q", parsers, backend.Names())
	}
	if !slices.Equal(writers, backend.WriterNames()) {
		t.Errorf("docs/internals.md states the writers' ranks in the order %q, the registry has %q", writers, backend.WriterNames())
	}
}

// Every package under backend/ that registers a parser, and every package
// that registers a writer, is imported by all.go.
func TestAllImportsEveryBackend(t *testing.T) {
	all := repoFile(t, "allbackends", "all.go")
	for _, dir := range []string{"backend", "writer"} {
		err := filepath.WalkDir(filepath.Join("..", dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if !regexp.MustCompile(`backend\.Register(Writer)?\(&`).Match(src) {
				return nil
			}
			rel, _ := filepath.Rel("..", filepath.Dir(p))
			if imp := `"github.com/isojson/isojson/` + filepath.ToSlash(rel) + `"`; !strings.Contains(all, imp) {
				t.Errorf("%s registers a backend but allbackends does not import %s", p, imp)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
