package conformance

import (
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/writer"
)

// Run checks parser p against everything in this package. Call it from the
// backend's own tests: conformance.Run(t, mybackend.Parser{}).
func Run(t *testing.T, p backend.Parser) {
	t.Run("JSONTestSuite", func(t *testing.T) { runSuite(t, p) })
	t.Run("Transform", func(t *testing.T) { runTransform(t, p) })
	t.Run("Roundtrip", func(t *testing.T) { runRoundtrip(t, p) })
	t.Run("Corpus", func(t *testing.T) { runCorpus(t, p) })
	t.Run("Numbers", func(t *testing.T) { runNumbers(t, p) })
	t.Run("ShortIntegers", func(t *testing.T) { runShortIntegers(t, p) })
	t.Run("Strings", func(t *testing.T) { runStrings(t, p) })
	t.Run("InvalidUTF8", func(t *testing.T) { runInvalidUTF8(t, p) })
	t.Run("Depth", func(t *testing.T) { runDepth(t, p) })
	t.Run("OrjsonErrors", func(t *testing.T) { runOrjsonErrors(t, p) })
	t.Run("Random", func(t *testing.T) { runRandom(t, p) })
	t.Run("Concurrent", func(t *testing.T) { runConcurrent(t, p) })
}

// parse runs p on a fresh tape, turning a panic into a test failure.
func parse(t *testing.T, p backend.Parser, src []byte) (tape *backend.Tape, err error) {
	t.Helper()
	tape = new(backend.Tape)
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("parser panicked on %s: %v", quote(src), r)
		}
	}()
	return tape, p.Parse(src, tape)
}

// accept parses src, which must be accepted with a well-formed tape.
func accept(t *testing.T, p backend.Parser, src []byte) *backend.Tape {
	t.Helper()
	tape, err := parse(t, p, src)
	if err != nil {
		t.Errorf("%s rejected: %v", quote(src), err)
		return nil
	}
	if err := Check(tape, src); err != nil {
		t.Errorf("%s: malformed tape: %v", quote(src), err)
		return nil
	}
	return tape
}

// reject parses src, which must be rejected with a *backend.SyntaxError.
func reject(t *testing.T, p backend.Parser, src []byte) *backend.SyntaxError {
	t.Helper()
	tape, err := parse(t, p, src)
	if err == nil {
		t.Errorf("%s accepted as %s", quote(src), Format(tape, src))
		return nil
	}
	var se *backend.SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("%s: error %T %v is not a *backend.SyntaxError", quote(src), err, err)
		return nil
	}
	return se
}

// rejectWith checks orjson's message and offset too.
func rejectWith(t *testing.T, p backend.Parser, src []byte, msg string, off int64) {
	t.Helper()
	if se := reject(t, p, src); se != nil && (se.Msg != msg || se.Offset != off) {
		t.Errorf("%s: got %q at %d, want %q at %d", quote(src), se.Msg, se.Offset, msg, off)
	}
}

// quote shows an input in messages: text (invalid UTF-8 replaced) and the
// first bytes in hex, cut to a readable length.
func quote(src []byte) string {
	const max = 80
	b := src[:min(len(src), max)]
	s := "`" + strings.ToValidUTF8(string(b), "\uFFFD") + "` (" + hex.EncodeToString(b[:min(len(b), 24)]) + ")"
	if len(src) > max {
		s += "…" + strconv.Itoa(len(src)) + " bytes"
	}
	return s
}

func runSuite(t *testing.T, p backend.Parser) {
	dir := filepath.Join(testdataDir(), "JSONTestSuite", "test_parsing")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 318 || len(Decisions) != 318 {
		t.Fatalf("%d files, %d decisions; want 318 of each", len(entries), len(Decisions))
	}
	for _, e := range entries {
		name := e.Name()
		d, ok := Decisions[name]
		if !ok {
			t.Errorf("%s: no decision", name)
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !d.Accept {
			reject(t, p, src)
			continue
		}
		if tape := accept(t, p, src); tape != nil {
			if err := compareReference(tape, src); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// transforms are the documents whose value parsers disagree on, with the
// tape isojson produces ("reject: msg" for a rejection).
var transforms = map[string]string{
	"number_1.0.json":                          "[float:1]",
	"number_1.000000000000000005.json":         "[float:1]",
	"number_1000000000000000.json":             "[int:1000000000000000]",
	"number_10000000000000000999.json":         "[uint:10000000000000000999]",
	"number_1e-999.json":                       "[float:0]",
	"number_1e6.json":                          "[float:1e+06]",
	"object_key_nfc_nfd.json":                  "{\"\u00e9\":\"NFC\",\"e\u0301\":\"NFD\"}", // keys are not normalized
	"object_key_nfd_nfc.json":                  "{\"e\u0301\":\"NFD\",\"\u00e9\":\"NFC\"}",
	"object_same_key_different_values.json":    "{\"a\":int:1,\"a\":int:2}",
	"object_same_key_same_value.json":          "{\"a\":int:1,\"a\":int:1}",
	"object_same_key_unclear_values.json":      "{\"a\":int:0,\"a\":int:0}",
	"string_1_escaped_invalid_codepoint.json":  "reject: " + backend.MsgNoLowSurrogate,
	"string_1_invalid_codepoint.json":          "reject: " + backend.MsgInvalidUTF8,
	"string_2_escaped_invalid_codepoints.json": "reject: " + backend.MsgBadLowSurrogate,
	"string_2_invalid_codepoints.json":         "reject: " + backend.MsgInvalidUTF8,
	"string_3_escaped_invalid_codepoints.json": "reject: " + backend.MsgBadLowSurrogate,
	"string_3_invalid_codepoints.json":         "reject: " + backend.MsgInvalidUTF8,
	"string_with_escaped_NULL.json":            "[\"A\\x00B\"]",
}

func runTransform(t *testing.T, p backend.Parser) {
	entries, err := os.ReadDir(filepath.Join(testdataDir(), "transform"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		want, ok := transforms[e.Name()]
		if !ok {
			t.Errorf("%s: no expectation", e.Name())
			continue
		}
		src, err := readTestdata("transform", e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if msg, ok := strings.CutPrefix(want, "reject: "); ok {
			if se := reject(t, p, src); se != nil && se.Msg != msg {
				t.Errorf("%s: %q, want %q", e.Name(), se.Msg, msg)
			}
			continue
		}
		if tape := accept(t, p, src); tape != nil {
			if got := Format(tape, src); got != want {
				t.Errorf("%s: %s, want %s", e.Name(), got, want)
			}
		}
	}
}

// rewrite writes the tape with package writer and parses the output again,
// which must give the same document.
func rewrite(t *testing.T, p backend.Parser, tape *backend.Tape, src []byte) {
	t.Helper()
	for _, flags := range []writer.Flags{0, writer.Indent2} {
		out, err := write(tape, src, flags)
		if err != nil {
			t.Errorf("%s: %v", quote(src), err)
			return
		}
		again := accept(t, p, out)
		if again == nil {
			continue
		}
		if err := Equal(tape, src, again, out); err != nil {
			t.Errorf("%s written as %s (flags %d) parses differently: %v", quote(src), quote(out), flags, err)
		}
	}
}

// write runs package writer, reporting a panic as an error so that a writer
// bug fails the test that found it instead of the whole run.
func write(tape *backend.Tape, src []byte, flags writer.Flags) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("writer panicked (flags %d): %v", flags, r)
		}
	}()
	return writer.Append(nil, tape, src, flags), nil
}

func runRoundtrip(t *testing.T, p backend.Parser) {
	entries, err := os.ReadDir(filepath.Join(testdataDir(), "roundtrip"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src, err := readTestdata("roundtrip", e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if tape := accept(t, p, src); tape != nil {
			if err := compareReference(tape, src); err != nil {
				t.Errorf("%s: %v", e.Name(), err)
			}
			rewrite(t, p, tape, src)
		}
	}
}

func runCorpus(t *testing.T, p backend.Parser) {
	for _, name := range []string{"twitter.json", "citm_catalog.json", "canada.json", "github.json"} {
		src, err := readTestdata("corpus", name)
		if err != nil {
			t.Fatal(err)
		}
		if tape := accept(t, p, src); tape != nil {
			if err := compareReference(tape, src); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			rewrite(t, p, tape, src)
		}
	}
}

func runRandom(t *testing.T, p backend.Parser) {
	r := rand.New(rand.NewPCG(2026, 1129))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for k := 0; k < n; k++ {
		src := randomDoc(r)
		tape := accept(t, p, src)
		if tape == nil {
			continue
		}
		if err := compareReference(tape, src); err != nil {
			t.Errorf("random document %d %s: %v", k, quote(src), err)
		}
		rewrite(t, p, tape, src)
		if t.Failed() {
			return
		}
	}
}

// concurrentRounds is how many times each goroutine of the Concurrent checks
// goes over the corpus: 3, or 1 under the race detector, which reports a race
// from any two unsynchronized accesses that overlap, so that one pass of four
// goroutines shows it and the repetitions only multiply its 5-10x slowdown
// (fastjson's Concurrent took 91 s of go test -race's time with 3).
func concurrentRounds() int {
	if raceBuild {
		return 1
	}
	return 3
}

// runConcurrent parses the corpus from several goroutines at once (run with
// -race): a Parser must be safe for concurrent use.
func runConcurrent(t *testing.T, p backend.Parser) {
	var docs [][]byte
	for _, name := range []string{"twitter.json", "citm_catalog.json", "canada.json", "github.json"} {
		src, err := readTestdata("corpus", name)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, src)
	}
	want := make([]*backend.Tape, len(docs))
	for i, src := range docs {
		want[i], _ = parse(t, p, src)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tape backend.Tape
			for round := 0; round < concurrentRounds(); round++ {
				for i, src := range docs {
					tape.Reset()
					if err := p.Parse(src, &tape); err != nil {
						errs <- err
						return
					}
					if err := Equal(&tape, src, want[i], src); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// orjsonCase is one record of testdata/orjson/errors.json.
type orjsonCase struct {
	Name string `json:"name"`
	Hex  string `json:"hex"`
	Msg  string `json:"msg"`
	Pos  int64  `json:"pos"`
}

// loadGoldenErrors reads testdata/golden/errors.jsonl.gz (scripts/gen_golden.py:
// every JSONTestSuite document orjson rejects, also after blank lines and
// non-ASCII text), when it is there.
func loadGoldenErrors(t *testing.T) []orjsonCase {
	f, err := os.Open(filepath.Join(testdataDir(), "golden", "errors.jsonl.gz"))
	if err != nil {
		return nil
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var cases []orjsonCase
	dec := json.NewDecoder(z)
	for dec.More() {
		var c orjsonCase
		if err := dec.Decode(&c); err != nil {
			t.Fatal(err)
		}
		c.Name = "golden " + c.Name
		cases = append(cases, c)
	}
	return cases
}

func runOrjsonErrors(t *testing.T, p backend.Parser) {
	data, err := readTestdata("orjson", "errors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []orjsonCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 500 {
		t.Fatalf("only %d cases in errors.json", len(file.Cases))
	}
	cases := append(file.Cases, loadGoldenErrors(t)...)
	t.Logf("%d orjson error cases", len(cases))
	for _, c := range cases {
		src, err := hex.DecodeString(c.Hex)
		if err != nil {
			t.Fatal(err)
		}
		msg, off := c.Msg, c.Pos
		if ex, ok := errorExceptions[c.Name]; ok {
			msg, off = ex.Msg, ex.Offset
		}
		se := reject(t, p, src)
		if se == nil {
			continue
		}
		// orjson's pos counts code points, SyntaxError.Offset bytes (the
		// extension converts); an offset is always at a character start.
		if got := int64(utf8.RuneCount(src[:min(max(se.Offset, 0), int64(len(src)))])); se.Msg != msg || got != off {
			t.Errorf("%s %s: got %q at byte %d (character %d), orjson %q at character %d", c.Name, quote(src), se.Msg, se.Offset, got, c.Msg, c.Pos)
		}
	}
}
