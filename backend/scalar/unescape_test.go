package scalar_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
	"github.com/isojson/isojson/conformance"
)

// checkDecodes parses doc, one JSON string, and fails unless it decodes as
// encoding/json decodes it, with its count of characters, and passes the
// conformance check.
func checkDecodes(t *testing.T, tape *backend.Tape, doc string) {
	t.Helper()
	tape.Reset()
	if err := (scalar.Parser{}).Parse([]byte(doc), tape); err != nil {
		t.Fatalf("%q: %v", doc, err)
	}
	var want string
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatalf("%q: encoding/json: %v", doc, err)
	}
	if got := string(tape.Bytes(0, []byte(doc))); got != want {
		t.Fatalf("%q: decoded %q, want %q", doc, got, want)
	}
	if r := tape.Ref(0); r.Chars != utf8.RuneCountInString(want) {
		t.Fatalf("%q: %d chars, want %d", doc, r.Chars, utf8.RuneCountInString(want))
	}
	if err := conformance.Check(tape, []byte(doc)); err != nil {
		t.Fatalf("%q: %v", doc, err)
	}
}

// TestUnescapeAdjacent: escapes right after one another, as ensure_ascii
// writes text, skip the copy of the (empty) text between them, and the
// commonest \u escapes are decoded in unescapeString's loop: every pair of
// kinds (one- to three-byte code points in either case of hex, a surrogate
// pair, a short escape), each followed by nothing, text or the closing quote.
func TestUnescapeAdjacent(t *testing.T) {
	var tape backend.Tape
	escapes := []string{`\u0041`, `\u00e9`, `\u00E9`, `\u0416`, `\u07ff`, `\u0800`, `\u4E2D`, `\uffff`, `\ud83d\ude00`,
		`\uD83D\uDE00`, `\u001f`, `\u0022`, `\u005c`, `\n`, `\"`, `\\`}
	for _, a := range escapes {
		for _, b := range escapes {
			for _, after := range []string{"", "x", "é"} {
				checkDecodes(t, &tape, `"`+a+b+a+after+`"`)
			}
		}
	}
}

// TestUnescapeRuns: unescapeString copies the text between escapes as it
// scans it, a 16- or 8-byte block at a time stored whole to the arena and
// then cut back to the special byte, and the last bytes of input by a byte
// loop. Runs of every length around those blocks, ending in another escape,
// non-ASCII text or the closing quote, at every distance from the end of
// input, must decode exactly as encoding/json decodes them (main_test.go
// runs this with the inline SIMD scans on and off).
func TestUnescapeRuns(t *testing.T) {
	var tape backend.Tape
	check := func(doc string) { t.Helper(); checkDecodes(t, &tape, doc) }
	const text = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for n := 0; n <= 40; n++ {
		run := text[:n]
		for _, end := range []string{`\n`, `\r\n`, `\u00e9`, "é", "😀x", `\"`} {
			for pad := 0; pad <= 17; pad++ {
				// The escape first, the run, then what ends it; the
				// run again after that and the closing quote, with pad
				// spaces after the string (distance to the input's end).
				check(`"\t` + run + end + run + `"` + strings.Repeat(" ", pad))
				check(`"x\\` + run + end + `"` + strings.Repeat(" ", pad))
			}
		}
	}
}

// TestUnescapeRunErrors: a control character or the end of input inside the
// text after an escape is reported where it is, whichever block finds it.
func TestUnescapeRunErrors(t *testing.T) {
	const text = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for n := 0; n <= 40; n++ {
		doc := `"\n` + text[:n]
		var tape backend.Tape
		err := (scalar.Parser{}).Parse([]byte(doc+"\x01\""), &tape)
		if se, ok := err.(*backend.SyntaxError); !ok || se.Msg != backend.MsgControlChar || se.Offset != int64(len(doc)) {
			t.Fatalf("%q: %v, want a control character at %d", doc+"\x01\"", err, len(doc))
		}
		tape.Reset()
		err = (scalar.Parser{}).Parse([]byte(doc), &tape)
		if se, ok := err.(*backend.SyntaxError); !ok || se.Offset != int64(len(doc)) {
			t.Fatalf("%q: %v, want the end of data at %d", doc, err, len(doc))
		}
	}
}
