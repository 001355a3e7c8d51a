package api

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/isojson/isojson/backend"
)

// allOptions are the eight combinations of the options the writer acts on.
var allOptions = func() (o []Option) {
	for _, a := range []Option{0, OptIndent2} {
		for _, b := range []Option{0, OptSortKeys} {
			for _, c := range []Option{0, OptAppendNewline} {
				o = append(o, a|b|c)
			}
		}
	}
	return o
}()

func addSeeds(f *testing.F) {
	for _, pattern := range []string{
		"../testdata/JSONTestSuite/test_parsing/*.json",
		"../testdata/roundtrip/*.json",
		"../testdata/transform/*.json",
	} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil && len(b) < 4096 {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"a":1,"b":[],"a":{"c":{}}}`))
	f.Add([]byte(`[123456789012345678901234567890,1e400,-0.0,1E-7,"\u2028\ud83d\ude00"]`))
}

// FuzzReformat: whatever the parser accepts is written, under every option
// combination, as JSON that encoding/json accepts, that parses back to the
// same document, and that Reformat leaves unchanged. What the parser
// rejects, Reformat rejects with a *DecodeError.
func FuzzReformat(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var in backend.Tape
		if err := Parse(src, &in); err != nil {
			if _, err := Reformat(src, 0); err == nil {
				t.Fatalf("Parse rejects %q but Reformat accepts it", src)
			}
			return
		}
		// Repeated keys and integers beyond 64 bits change the document the
		// way orjson.loads changes it; compare values only without them.
		exact := !hasLoadsChanges(&in, src)
		for _, opt := range allOptions {
			out, err := Reformat(src, opt)
			if err != nil {
				t.Fatalf("Reformat(%q, %d): %v", src, opt, err)
			}
			if !json.Valid(out) {
				t.Fatalf("Reformat(%q, %d) = %q: not valid JSON for encoding/json", src, opt, out)
			}
			var back backend.Tape
			if err := Parse(out, &back); err != nil {
				t.Fatalf("Reformat(%q, %d) = %q: does not parse back: %v", src, opt, out, err)
			}
			if exact && !sameValue(&in, src, 0, &back, out, 0, opt&OptSortKeys == 0) {
				t.Fatalf("Reformat(%q, %d) = %q: parses back to a different document", src, opt, out)
			}
			again, err := Reformat(out, opt)
			if err != nil || !bytes.Equal(again, out) {
				t.Fatalf("Reformat not idempotent for %q, option %d:\n%q\n%q (%v)", src, opt, out, again, err)
			}
		}
	})
}

func hasLoadsChanges(t *backend.Tape, src []byte) bool {
	for i := 0; i < len(t.Words); {
		switch t.Kind(i) {
		case backend.KindBigInt:
			return true
		case backend.KindArray, backend.KindObject:
			i += backend.ContainerWords
		default:
			i = t.Next(i)
		}
	}
	return newDeduper(t, src).any()
}

// sameValue compares the value at i of a (text from as) with the value at
// j of b. Objects must hold the same keys with the same values, in the same
// order when ordered.
func sameValue(a *backend.Tape, as []byte, i int, b *backend.Tape, bs []byte, j int, ordered bool) bool {
	ka, kb := a.Kind(i), b.Kind(j)
	if ka != kb {
		return false
	}
	switch ka {
	case backend.KindInt, backend.KindUint, backend.KindFloat:
		return a.Words[i+1] == b.Words[j+1]
	case backend.KindString, backend.KindBigInt, backend.KindRaw:
		return bytes.Equal(a.Bytes(i, as), b.Bytes(j, bs))
	case backend.KindArray:
		if a.Count(i) != b.Count(j) {
			return false
		}
		for x, y := i+2, j+2; x < a.End(i); x, y = a.Next(x), b.Next(y) {
			if !sameValue(a, as, x, b, bs, y, ordered) {
				return false
			}
		}
		return true
	case backend.KindObject:
		if a.Count(i) != b.Count(j) {
			return false
		}
		y := j + 2
		for x := i + 2; x < a.End(i); x = a.Next(x + 3) {
			if !ordered {
				// Find the key anywhere in b's object.
				for y = j + 2; y < b.End(j) && !bytes.Equal(a.Bytes(x, as), b.Bytes(y, bs)); y = b.Next(y + 3) {
				}
				if y >= b.End(j) {
					return false
				}
			}
			if !bytes.Equal(a.Bytes(x, as), b.Bytes(y, bs)) || !sameValue(a, as, x+3, b, bs, y+3, ordered) {
				return false
			}
			y = b.Next(y + 3)
		}
		return true
	}
	return true
}
