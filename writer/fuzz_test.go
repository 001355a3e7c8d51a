package writer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/isojson/isojson/backend"
)

// FuzzWrite checks the writer alone (tapes from encoding/json's tokenizer,
// duplicate keys kept): under every flag combination the output is valid
// JSON, reads back to the same document (same member order unless
// sorted; sorted keys in code point order) and is written again unchanged.
func FuzzWrite(f *testing.F) {
	for _, pattern := range []string{"../testdata/JSONTestSuite/test_parsing/y_*.json", "../testdata/roundtrip/*.json"} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"b":1,"a":[],"a":{"é":"\u0000\u2028","😀":1e16,"\uffff":-0.0}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		in, err := tapeOf(src)
		if err != nil {
			return
		}
		for _, flags := range []Flags{0, Indent2, SortKeys, AppendNewline, Indent2 | SortKeys, Indent2 | SortKeys | AppendNewline} {
			out := Append(nil, in, nil, flags)
			if !json.Valid(out) {
				t.Fatalf("flags %d: %q gives invalid JSON %q", flags, src, out)
			}
			back, err := tapeOf(out)
			if err != nil {
				t.Fatalf("flags %d: %q: output %q does not read back: %v", flags, src, out, err)
			}
			if !sameDoc(in, 0, back, 0, flags&SortKeys != 0) {
				t.Fatalf("flags %d: %q reads back as a different document: %q", flags, src, out)
			}
			if again := Append(nil, back, nil, flags); !bytes.Equal(again, out) {
				t.Fatalf("flags %d: not stable for %q:\n%q\n%q", flags, src, out, again)
			}
		}
	})
}

// sameDoc compares two tapes value by value. With sorted, b's objects must
// hold a's members stably sorted by key.
func sameDoc(a *backend.Tape, i int, b *backend.Tape, j int, sorted bool) bool {
	if a.Kind(i) != b.Kind(j) {
		return false
	}
	switch a.Kind(i) {
	case backend.KindInt, backend.KindUint, backend.KindFloat:
		return a.Words[i+1] == b.Words[j+1]
	case backend.KindString, backend.KindBigInt:
		return bytes.Equal(a.Bytes(i, nil), b.Bytes(j, nil))
	case backend.KindArray:
		if a.Count(i) != b.Count(j) {
			return false
		}
		for x, y := i+2, j+2; x < a.End(i); x, y = a.Next(x), b.Next(y) {
			if !sameDoc(a, x, b, y, sorted) {
				return false
			}
		}
		return true
	case backend.KindObject:
		if a.Count(i) != b.Count(j) {
			return false
		}
		var members []int
		for x := i + 2; x < a.End(i); x = a.Next(x + 3) {
			members = append(members, x)
		}
		if sorted {
			e := &encoder{t: a, words: a.Words}
			stableSort(members, e.compareKeys)
		}
		y := j + 2
		for _, x := range members {
			if !bytes.Equal(a.Bytes(x, nil), b.Bytes(y, nil)) || !sameDoc(a, x+3, b, y+3, sorted) {
				return false
			}
			y = b.Next(y + 3)
		}
		return true
	}
	return true
}

// stableSort is an insertion sort, independent of the writer's sort.
func stableSort(s []int, cmp func(a, b int) int) {
	for k := 1; k < len(s); k++ {
		for m := k; m > 0 && cmp(s[m-1], s[m]) > 0; m-- {
			s[m-1], s[m] = s[m], s[m-1]
		}
	}
}
