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

// TestUnescapeRuns: unescapeString copies the text between escapes as it
// scans it, a 16- or 8-byte block at a time stored whole to the arena and
// then cut back to the special byte, and the last bytes of input by a byte
// loop. Runs of every length around those blocks, ending in another escape,
// non-ASCII text or the closing quote, at every distance from the end of
// input, must decode exactly as encoding/json decodes them (main_test.go
// runs this with the inline SIMD scans on and off).
func TestUnescapeRuns(t *testing.T) {
	var tape backend.Tape
	check := func(doc string) {
		t.Helper()
		tape.Reset()
		if err := (scalar.Parser{}).Parse([]byte(doc), &tape); err != nil {
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
		if err := conformance.Check(&tape, []byte(doc)); err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
	}
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
