//go:build !isojson_nofastjson

package fastjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/valyala/fastjson"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

func clip(src []byte) []byte {
	if len(src) > 100 {
		return src[:100]
	}
	return src
}

// sameAsScalar parses src with both parsers and fails unless the tapes (or
// the errors) are identical.
func sameAsScalar(t *testing.T, src []byte) {
	t.Helper()
	var want, got backend.Tape
	wantErr := scalar.Parser{}.Parse(src, &want)
	gotErr := Parser{}.Parse(src, &got)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("%q: error %v, want %v", clip(src), gotErr, wantErr)
	}
	if wantErr != nil {
		return
	}
	if len(want.Words) != len(got.Words) || string(want.Arena) != string(got.Arena) {
		t.Fatalf("%q: tape %x %q, want %x %q", clip(src), got.Words, got.Arena, want.Words, want.Arena)
	}
	for i := range want.Words {
		if want.Words[i] != got.Words[i] {
			t.Fatalf("%q: tape word %d is %x, want %x", clip(src), i, got.Words[i], want.Words[i])
		}
	}
}

// fastPath reports whether src is parsed from fastjson's tree rather than
// handed to the scalar parser.
func fastPath(src []byte) bool {
	var p fastjson.Parser
	v, err := p.ParseBytes(src)
	var t backend.Tape
	return err == nil && convert(v, src, &t)
}

func TestCorpusTakesTheFastPath(t *testing.T) {
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !fastPath(src) {
			t.Errorf("%s.json falls back to the scalar parser", name)
		}
		sameAsScalar(t, src)
	}
}

// TestLibraryLooseness lists what fastjson accepts although orjson does not
// (each is checked to be still accepted by fastjson, so that the list stays
// true) and proves that the backend answers exactly as the scalar parser.
func TestLibraryLooseness(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"leading zero", "[01]"},
		{"minus minus", "[--1]"},
		{"fraction without digits", "[1.]"},
		{"exponent without digits", "[1e]"},
		{"plus sign", "[+1]"},
		{"NaN", "[NaN]"},
		{"nan", "[nan]"},
		{"inf", "[inf]"},
		{"-Inf", "[-Inf]"},
		{"number overflowing to infinity", "[1e400]"},
		{"raw control character in a string", "[\"\x01\"]"},
		{"invalid UTF-8 in a string", "[\"\xff\"]"},
		{"invalid UTF-8 in a key", "{\"\xff\":1}"},
		{"lone high surrogate escape", `["\ud800"]`},
		{"lone low surrogate escape", `["\udc00"]`},
		{"unknown escape", `["\x"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			var p fastjson.Parser
			if _, err := p.ParseBytes(src); err != nil {
				t.Logf("fastjson now rejects %q by itself: %v", clip(src), err)
			}
			if fastPath(src) {
				t.Errorf("%q was not sent to the scalar parser", clip(src))
			}
			sameAsScalar(t, src)
		})
	}
}

// TestDepth: fastjson stops at 300 levels; the backend takes every depth up
// to backend.MaxDepth from the scalar parser beyond that, and rejects one
// more as orjson does.
func TestDepth(t *testing.T) {
	for _, depth := range []int{fastjson.MaxDepth - 1, fastjson.MaxDepth, fastjson.MaxDepth + 1, backend.MaxDepth, backend.MaxDepth + 1} {
		sameAsScalar(t, []byte(strings.Repeat("[", depth)+strings.Repeat("]", depth)))
		sameAsScalar(t, []byte(strings.Repeat(`{"a":`, depth-1)+"{}"+strings.Repeat("}", depth-1)))
	}
	if !fastPath([]byte(strings.Repeat("[", fastjson.MaxDepth) + strings.Repeat("]", fastjson.MaxDepth))) {
		t.Error("nesting within fastjson's limit falls back")
	}
}

func TestStringsNumbersAndErrors(t *testing.T) {
	for _, src := range []string{
		`""`, `[""]`, `{"":""}`, `"\n"`, `{"a":"\ud83d\ude00","b":"\u00e9\n","":"","\"":"\\"}`,
		`["a\"b", "", "c\\", "\u0022x"]`, `  {"k" : [ 1 , "v" , null , true , false ] }  `,
		`{"a":1,"a":2}`, "[123456789012345678901234567890]", "[-9223372036854775809]", "[18446744073709551615]",
		"[-0]", "[-0.0]", "[1e-400]", "[1E+2, 1e2, 1.5e-3, -1.5E3]", "123", "-0", "1e5", "true", "null",
		"", " ", "[1,]", "[1", "nul", "\xef\xbb\xbf[1]", "[1] x", "[1]]", "[1],2", "[1]\v", "\v[1]", "1\x00",
		"[true false]", `{"a" 1}`, `{"a":1,}`, `{1:1}`,
	} {
		sameAsScalar(t, []byte(src))
	}
}

func TestConcurrentUse(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", "citm_catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want backend.Tape
	if err := (Parser{}).Parse(src, &want); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for range 4 {
		go func() {
			var tp backend.Tape
			for range 5 {
				tp.Reset()
				if err := (Parser{}).Parse(src, &tp); err != nil {
					done <- err
					return
				}
				if len(tp.Words) != len(want.Words) || tp.Words[len(tp.Words)-1] != want.Words[len(want.Words)-1] {
					done <- os.ErrInvalid
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
