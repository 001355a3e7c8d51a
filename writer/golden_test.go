package writer

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// The golden vectors in testdata/golden are orjson 3.13's own output
// (scripts/gen_golden.py); every one must be reproduced byte for byte.

var goldenDir = filepath.Join("..", "testdata", "golden")

func openGolden(t testing.TB, name string) io.Reader {
	t.Helper()
	f, err := os.Open(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if filepath.Ext(name) != ".gz" {
		return f
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func eachLine(t testing.TB, name string, fn func(line []byte)) int {
	t.Helper()
	sc := bufio.NewScanner(openGolden(t, name))
	sc.Buffer(nil, 1<<26)
	n := 0
	for sc.Scan() {
		fn(sc.Bytes())
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestGoldenFloats(t *testing.T) { eachFloatPath(t, testGoldenFloats) }

func testGoldenFloats(t *testing.T) {
	var tp backend.Tape
	var buf []byte
	n := eachLine(t, "floats.txt.gz", func(line []byte) {
		f, err := strconv.ParseFloat(string(line), 64)
		if err != nil {
			t.Fatalf("golden float %q: %v", line, err)
		}
		tp.Reset()
		tp.AppendNumber(backend.KindFloat, math.Float64bits(f))
		buf = Append(buf[:0], &tp, nil, 0)
		if string(buf) != string(line) {
			t.Fatalf("float %#016x: got %s, orjson %s", math.Float64bits(f), buf, line)
		}
	})
	if n < 250_000 {
		t.Fatalf("only %d golden floats", n)
	}
}

// stringLayouts builds one tape per way the string s can be stored: UTF-8 in
// the arena (clean when it is), UTF-8 marked dirty, and each CPython layout
// wide enough for it in external memory. keep holds the external buffers.
func stringLayouts(s string) (tapes []*backend.Tape, names []string, keep [][]byte) {
	clean := true
	maxRune := rune(0)
	for i := 0; i < len(s); i++ {
		if escapes[s[i]] != "" {
			clean = false
		}
	}
	for _, r := range s {
		maxRune = max(maxRune, r)
	}
	chars := utf8.RuneCountInString(s)
	for _, c := range []bool{clean, false} {
		tp := &backend.Tape{Arena: []byte(s)}
		tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Clean: c, Len: len(s), Chars: chars})
		tapes, names = append(tapes, tp), append(names, "utf8 clean="+strconv.FormatBool(c))
	}
	for w := backend.WidthUCS1; w <= backend.WidthUCS4; w++ {
		size := 1 << (w - 1)
		if maxRune >= 1<<(8*size) && size < 4 {
			continue
		}
		units := make([]byte, size*chars+4)
		i := 0
		for _, r := range s {
			switch size {
			case 1:
				units[i] = byte(r)
			case 2:
				*(*uint16)(unsafe.Pointer(&units[i])) = uint16(r)
			default:
				*(*uint32)(unsafe.Pointer(&units[i])) = uint32(r)
			}
			i += size
		}
		keep = append(keep, units)
		for _, c := range []bool{clean, false} {
			tp := &backend.Tape{}
			tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageExternal, Width: w, Clean: c,
				Len: chars, Where: uint64(uintptr(unsafe.Pointer(&units[0]))), Chars: chars})
			tapes = append(tapes, tp)
			names = append(names, "ucs"+strconv.Itoa(size)+" clean="+strconv.FormatBool(c))
		}
	}
	return tapes, names, keep
}

func TestGoldenStrings(t *testing.T) {
	var buf []byte
	eachLine(t, "strings.jsonl.gz", func(line []byte) {
		var v struct{ S, Out string }
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		tapes, names, keep := stringLayouts(v.S)
		for k, tp := range tapes {
			buf = Append(buf[:0], tp, nil, 0)
			if string(buf) != v.Out {
				t.Errorf("%s %+q:\n got %+q\nwant %+q", names[k], v.S, buf, v.Out)
			}
		}
		runtime.KeepAlive(keep)
	})
}

func goldenDocTape(t testing.TB, doc string) *backend.Tape {
	t.Helper()
	special := map[string]float64{"nan": math.NaN(), "inf": math.Inf(1), "-inf": math.Inf(-1)}
	if f, ok := special[doc]; ok {
		tp := &backend.Tape{}
		tp.AppendNumber(backend.KindFloat, math.Float64bits(f))
		return tp
	}
	tp, err := tapeOf([]byte(doc))
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	return tp
}

func testGoldenDocs(t *testing.T, name string) {
	var buf []byte
	n := eachLine(t, name, func(line []byte) {
		var v struct {
			Doc string
			Opt Flags
			Out string
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		buf = Append(buf[:0], goldenDocTape(t, v.Doc), nil, v.Opt)
		if string(buf) != v.Out {
			t.Errorf("option %d, %s:\n got %q\nwant %q", v.Opt, v.Doc, buf, v.Out)
		}
	})
	t.Logf("%d vectors", n)
}

func TestGoldenDocs(t *testing.T)     { testGoldenDocs(t, "docs.jsonl.gz") }
func TestGoldenSpecials(t *testing.T) { testGoldenDocs(t, "specials.jsonl") }
