package api

import (
	"bufio"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestGoldenErrors checks Reformat's *DecodeError against orjson's
// JSONDecodeError (msg, pos, lineno, colno) for every JSONTestSuite document
// orjson rejects, also after blank lines and after non-ASCII text
// (testdata/golden/errors.jsonl.gz from scripts/gen_golden.py).
func TestGoldenErrors(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "golden", "errors.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<24)
	n := 0
	for sc.Scan() {
		var c struct {
			Name, Hex, Msg     string
			Pos, Lineno, Colno int
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		src, _ := hex.DecodeString(c.Hex)
		_, err := Reformat(src, 0)
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s %q: got %v, want orjson's %q", c.Name, src, err, c.Msg)
			continue
		}
		if de.Msg != c.Msg || de.Pos != int64(c.Pos) || de.Line != c.Lineno || de.Column != c.Colno {
			t.Errorf("%s %q:\n got %q pos %d line %d column %d\nwant %q pos %d line %d column %d",
				c.Name, src, de.Msg, de.Pos, de.Line, de.Column, c.Msg, c.Pos, c.Lineno, c.Colno)
		}
		n++
	}
	if n < 600 {
		t.Fatalf("only %d error vectors", n)
	}
}
