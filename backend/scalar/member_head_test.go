package scalar_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
	"github.com/isojson/isojson/conformance"
)

// TestMemberHeads covers the fast path for `"key":value` and `"key": value`
// (parse.go, state key) and its fallbacks: every doc is compared with the
// same doc with one more space before the colon, which the fast path never
// takes: the same document, or the same error one byte further on. Keys of
// every length around the word size, with escapes and non-ASCII; the doc
// cut at every length (the load near the end of the input).
func TestMemberHeads(t *testing.T) {
	keys := []string{"", "é", `\n`, `a\"b`}
	for n := 1; n <= 18; n++ {
		keys = append(keys, strings.Repeat("k", n))
	}
	befores := []string{"", " ", "\n  "}
	afters := []string{"", " ", "  ", "\n", " \n  ", "\t", " \t", "\r"}
	values := []string{"1", "-2", `"v"`, `""`, "[]", "{}", `{"x": 1}`, "true", "null", "1.5",
		"}", ",", ":", "]", "\x01", "\xff", "é", `"`, ""}
	for _, key := range keys {
		for _, before := range befores {
			for _, after := range afters {
				for _, value := range values {
					head := `{"` + key + `"` + before
					src := head + ":" + after + value + "}"
					sameParse(t, src, head+" "+src[len(head):], len(head))
					for cut := 1; cut < len(src); cut++ {
						ref := src[:cut]
						if cut >= len(head) {
							ref = head + " " + src[len(head):cut]
						}
						sameParse(t, src[:cut], ref, len(head))
					}
				}
			}
		}
	}
}

// sameParse checks that src parses as ref, which may have one more byte at
// ins: the same document, or the same error, one byte further on in ref
// when it is past ins.
func sameParse(t *testing.T, src, ref string, ins int) {
	t.Helper()
	var got, want backend.Tape
	gotErr := (scalar.Parser{}).Parse([]byte(src), &got)
	wantErr := (scalar.Parser{}).Parse([]byte(ref), &want)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%q: error %v, but %q: %v", src, gotErr, ref, wantErr)
	}
	if gotErr != nil {
		var g, w *backend.SyntaxError
		if !errors.As(gotErr, &g) || !errors.As(wantErr, &w) {
			t.Fatalf("%q: %v, %q: %v", src, gotErr, ref, wantErr)
		}
		wantOffset := w.Offset
		if len(ref) > len(src) && w.Offset > int64(ins) {
			wantOffset--
		}
		if g.Msg != w.Msg || g.Offset != wantOffset {
			t.Fatalf("%q: %q at %d, want %q at %d (%q: %v)", src, g.Msg, g.Offset, w.Msg, wantOffset, ref, wantErr)
		}
		return
	}
	if err := conformance.Check(&got, []byte(src)); err != nil {
		t.Fatalf("%q: malformed tape: %v", src, err)
	}
	if err := conformance.Equal(&want, []byte(ref), &got, []byte(src)); err != nil {
		t.Fatalf("%q differs from %q: %v", src, ref, err)
	}
}

// TestMemberSeparators covers the fast path for ", " between members
// (parse.go, state next: one space then the next key's quote, from one
// two-byte load) and its fallbacks: every doc is compared with the same doc
// with one more space after the comma, which the fast path never takes,
// also cut at every length (the load at the end of the input).
func TestMemberSeparators(t *testing.T) {
	values := []string{"1", `"v"`, "[]", "{}", "true", `"\n"`}
	afters := []string{` "b":2}`, ` "b": [3]}`, ` "b\"c":2}`, ` "é":2}`, "  \"b\":2}", ` }`, ` "`, ` 1}`, ` ,`, ` "b"}`,
		"\n\"b\":2}", " \n \"b\":2}", "\t\"b\":2}", `"b":2}`, ` `, ``}
	for _, value := range values {
		for _, after := range afters {
			head := `{"a":` + value + ","
			src := head + after
			sameParse(t, src, head+" "+after, len(head))
			for cut := 1; cut < len(src); cut++ {
				ref := src[:cut]
				if cut >= len(head) {
					ref = head + " " + src[len(head):cut]
				}
				sameParse(t, src[:cut], ref, len(head))
			}
		}
	}
}
