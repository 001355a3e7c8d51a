//go:build amd64 && !isojson_nosimdjson

package simdjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	simd "github.com/minio/simdjson-go"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

func needCPU(t testing.TB) {
	if !simd.SupportedCPU() {
		t.Skip("simdjson-go needs AVX2 and CLMUL")
	}
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

// fastPath reports whether src is converted from simdjson-go's tape rather
// than handed to the scalar parser.
func fastPath(src []byte) bool {
	var t backend.Tape
	return (&state{pj: new(simd.ParsedJson)}).parse(src, &t)
}

func clip(src []byte) []byte {
	if len(src) > 100 {
		return src[:100]
	}
	return src
}

func TestCorpusTakesTheFastPath(t *testing.T) {
	needCPU(t)
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

// TestLibraryLooseness lists what simdjson-go gets wrong on its own and
// proves that the backend still answers exactly as the scalar parser.
func TestLibraryLooseness(t *testing.T) {
	needCPU(t)
	for _, tc := range []struct {
		name string
		src  string
	}{
		{"vertical tab as whitespace", "\v[1]"},
		{"form feed as whitespace", "[1]\f"},
		{"NUL after a literal", "[true\x00]"},
		{"minus leading zero float", "[-01.5]"},
		{"invalid UTF-8 in a string", "[\"\xff\"]"},
		{"raw surrogate in a string", "[\"\xed\xa0\x80\"]"},
		{"overlong in a key", "{\"\xc0\x80\":1}"},
		{"integer beyond 64 bits", "[123456789012345678901234567890]"},
		{"deeper than MaxDepth", strings.Repeat("[", backend.MaxDepth+1) + strings.Repeat("]", backend.MaxDepth+1)},
		{"negative integer beyond 64 bits", "[-9223372036854775809]"},
		// simdjson-go trims Unicode white space (unicode.IsSpace) off the
		// end of its input: none of it is JSON white space.
		{"U+2028 after the document", "[]\u2028"},
		{"U+2029 and a space after the document", "[1,2]\u2029 "},
		{"U+0085 after the document", "{}\u0085"},
		{"no-break space after the document", "[]\u00a0"},
		{"ideographic space after the document", "{\"a\":1}\u3000\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			// The library alone accepts the input ...
			if _, err := simd.Parse(src, nil, simd.WithCopyStrings(false)); err != nil {
				t.Logf("simdjson-go now rejects %q by itself: %v", src, err)
			}
			// ... the backend notices and answers as the scalar parser.
			if fastPath(src) {
				t.Errorf("%q was not sent to the scalar parser", src)
			}
			sameAsScalar(t, src)
		})
	}
}

// TestDeepInputSkipsTheLibrary: ten million '[' must not reach simdjson-go,
// which would build a tape for all of them before the depth check.
func TestDeepInputSkipsTheLibrary(t *testing.T) {
	needCPU(t)
	for _, src := range [][]byte{
		[]byte(strings.Repeat("[", 10_000_000)),
		[]byte(strings.Repeat("[       ", 1_000_000)),
		[]byte(strings.Repeat(`{"a":`, 1_000_000)),
	} {
		var c converter
		if c.suitable(src) {
			t.Errorf("%q... (%d bytes) goes to simdjson-go", src[:16], len(src))
		}
		sameAsScalar(t, src)
	}
}

// TestFallbacks covers what simdjson-go refuses although orjson accepts it.
func TestFallbacks(t *testing.T) {
	needCPU(t)
	deep := make([]byte, 0, 2*backend.MaxDepth)
	for range backend.MaxDepth {
		deep = append(deep, '[')
	}
	for range backend.MaxDepth {
		deep = append(deep, ']')
	}
	for _, src := range []string{
		"1", `"a"`, "true", " null ", "-0", "1e-400",
		string(deep),
		`["-01 in a string is fine", "2012-03-06", {"-05": "\u00e9-09"}]`,
		`{"a":"\ud83d\ude00","b":"\u00e9\n","":""}`,
		`[""]`, `{"":[]}`,
		"", " ", "[1,]", "[1] x", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\x01\"]", "[1e400]", "\xef\xbb\xbf[1]",
		string(deep[:len(deep)/2]) + "[" + string(deep[len(deep)/2:]) + "]",
	} {
		sameAsScalar(t, []byte(src))
	}
}

func TestConcurrentUse(t *testing.T) {
	needCPU(t)
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
