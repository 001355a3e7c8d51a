//go:build (amd64 || arm64) && !isojson_nosonic

package sonic

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytedance/sonic/ast"

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

// fastPath reports whether src is parsed from sonic's walk rather than
// handed to the scalar parser.
func fastPath(src []byte) bool {
	var t backend.Tape
	return new(tapeVisitor).run(src, &t)
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

// accepts is a visitor that takes everything: what sonic alone accepts.
type accepts struct{}

func (accepts) OnNull() error                        { return nil }
func (accepts) OnBool(bool) error                    { return nil }
func (accepts) OnString(string) error                { return nil }
func (accepts) OnInt64(int64, json.Number) error     { return nil }
func (accepts) OnFloat64(float64, json.Number) error { return nil }
func (accepts) OnObjectBegin(int) error              { return nil }
func (accepts) OnObjectKey(string) error             { return nil }
func (accepts) OnObjectEnd() error                   { return nil }
func (accepts) OnArrayBegin(int) error               { return nil }
func (accepts) OnArrayEnd() error                    { return nil }

// TestLibraryLooseness lists what sonic gets wrong on its own and proves that
// the backend still answers exactly as the scalar parser.
func TestLibraryLooseness(t *testing.T) {
	deep := strings.Repeat("[", backend.MaxDepth+1) + strings.Repeat("]", backend.MaxDepth+1)
	for _, tc := range []struct {
		name string
		src  string
	}{
		{"content after the document", "[1] x"},
		{"a second document", "[1] [2]"},
		{"closing bracket after the document", "[1]]"},
		{"comma after the document", "[1],2"},
		{"vertical tab after the document", "[1]\v"},
		{"NUL after the document", "1\x00"},
		{"raw control character in a string", "[\"\x01\"]"},
		{"invalid UTF-8 in a string", "[\"\xff\"]"},
		{"raw surrogate in a key", "{\"\xed\xa0\x80\":1}"},
		{"lone high surrogate escape", `["\ud800"]`},
		{"lone low surrogate escape", `["\udc00"]`},
		{"high surrogate then non-surrogate", `["\ud800\u0041"]`},
		{"deeper than MaxDepth", deep},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			if err := ast.Preorder(tc.src, accepts{}, nil); err != nil {
				t.Logf("sonic now rejects %q by itself: %v", clip(src), err)
			}
			if fastPath(src) {
				t.Errorf("%q was not sent to the scalar parser", clip(src))
			}
			sameAsScalar(t, src)
		})
	}
}

// TestNumbersFromText covers numbers sonic decodes differently from orjson:
// the backend re-parses the text.
func TestNumbersFromText(t *testing.T) {
	for _, src := range []string{
		"[123456789012345678901234567890]", "[-9223372036854775809]", "[18446744073709551615]",
		"[9223372036854775808]", "[-0]", "[-0.0]", "[1e-400]", "[2.2250738585072011e-308]",
		"[0.1000000000000000055511151231257827021181583404541015625]", "[9007199254740993.0]",
		"[1E+2, 1e2, 1.5e-3, -1.5E3]", "123", "-0", "1e5",
	} {
		if !fastPath([]byte(src)) {
			t.Errorf("%q falls back to the scalar parser", src)
		}
		sameAsScalar(t, []byte(src))
	}
}

func TestStringsAndErrors(t *testing.T) {
	for _, src := range []string{
		`""`, `[""]`, `{"":""}`, `"\n"`, `{"a":"\ud83d\ude00","b":"\u00e9\n","":"","\"":"\\"}`,
		`["a\"b", "", "c\\", "\u0022x"]`, `  {"k" : [ 1 , "v" , null , true , false ] }  `,
		"", " ", "[1,]", "[1", "nul", "01", "\xef\xbb\xbf[1]", `["\x"]`, "[1e400]", "[NaN]",
		strings.Repeat("[", backend.MaxDepth) + strings.Repeat("]", backend.MaxDepth),
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
