package scalar_test

import (
	"encoding/json"
	"math/rand/v2"
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

// commonPieces are what unescapeCommon takes in its own loop (two-byte
// escapes, \u escapes of every UTF-8 length, surrogate pairs, ASCII runs)
// and what it hands back to unescapeString (non-ASCII text).
var commonPieces = []string{`\n`, `\"`, `\\`, `\/`, `\t`, `\u0041`, `\u001F`, `\u0022`, `\u00e9`, `\u07FF`,
	`\u0800`, `\u4e2d`, `\uFFFF`, `\ud83d\ude00`, `\uDBFF\uDFFF`, "é", "中", "😀", "x",
	"abcdefghijklmnop", "abcdefghijklmnopqrstuvwxyz0123456789"}

// TestUnescapeLong: strings of up to some 3,000 bytes of escapes and text in
// random order, so that unescapeCommon stops at the end of its room (some
// 240 bytes of input after it starts) at every kind of piece, and the
// arena grows between two of its calls, decode as encoding/json decodes
// them, with the right count of characters.
func TestUnescapeLong(t *testing.T) {
	var tape backend.Tape
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		b.WriteString(`"`)
		if r.IntN(2) == 0 {
			b.WriteString(`\n`) // the first escape at once, or after text
		}
		for size := r.IntN(3000); b.Len() < size; {
			b.WriteString(commonPieces[r.IntN(len(commonPieces))])
		}
		b.WriteString(`"`)
		checkDecodes(t, &tape, b.String())
	}
	// One escape, then ASCII to and past the room's end, in an arena of
	// the least size (a new tape): the blocks that write up to its last
	// byte.
	text := strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 10)
	for n := 200; n <= len(text); n++ {
		for _, first := range []string{`\n`, `\u00e9`, `\ud83d\ude00`} {
			checkDecodes(t, new(backend.Tape), `"`+first+text[:n]+`"`)
		}
	}
}

// TestUnescapeCommonHandsOver: whatever unescapeCommon leaves to
// unescapeString (lone or broken surrogates, bad escapes, control
// characters, the end of input within an escape or a block) is reported as
// it is without the escapes before it, at the same place after them: the
// inputs of TestSurrogateErrors behind prefixes of escapes that take
// unescapeCommon to them, or to the end of its room, from every distance.
func TestUnescapeCommonHandsOver(t *testing.T) {
	cases := surrogateErrorCases
	for _, tail := range []string{`"\x"`, `"\u12G4"`, "\"\x01\"", `"\u123`, `"\`, `"abc`, `"abcdefghijklmnopqrst`} {
		var tape backend.Tape
		err := (scalar.Parser{}).Parse([]byte(tail), &tape)
		se, ok := err.(*backend.SyntaxError)
		if !ok {
			t.Fatalf("%q: %v, want a syntax error", tail, err)
		}
		cases = append(cases, struct {
			in  string
			msg string
			off int64
		}{tail, se.Msg, se.Offset})
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		if c.in[0] != '"' {
			continue
		}
		for size := 0; size < 300; size += 1 + r.IntN(7) {
			var p strings.Builder
			p.WriteString(`\t`)
			for p.Len() < size {
				p.WriteString(commonPieces[r.IntN(14)]) // escapes only
			}
			doc := `"` + p.String() + c.in[1:]
			var tape backend.Tape
			err := (scalar.Parser{}).Parse([]byte(doc), &tape)
			se, ok := err.(*backend.SyntaxError)
			want := c.off + int64(p.Len())
			if !ok || se.Msg != c.msg || se.Offset != want {
				t.Fatalf("%q: %v, want %q at %d", doc, err, c.msg, want)
			}
		}
	}
}
