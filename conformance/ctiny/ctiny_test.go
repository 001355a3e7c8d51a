package ctiny

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
	"github.com/isojson/isojson/conformance"
)

// TestConformance runs the gate every backend passes on the path with its
// fallback, as the extension runs them.
func TestConformance(t *testing.T) {
	conformance.Run(t, Parser{})
}

// TestHeaderIsTheExtensionsOwn: the header compiled here is the extension's
// file itself, through a link (doc.go), not a copy that could drift.
func TestHeaderIsTheExtensionsOwn(t *testing.T) {
	target, err := os.Readlink("loads_tiny.h")
	if err != nil || target != "../../pyshim/loads/loads_tiny.h" {
		t.Fatalf("loads_tiny.h: %q, %v; want a link to ../../pyshim/loads/loads_tiny.h", target, err)
	}
}

// check compares the path with backend/scalar on src: a tape the path makes
// must be scalar's word for word (and scalar's arena empty: the path stores
// no text of its own); when the path gives up, Parser must give scalar's
// result, error included. It returns whether the path took src.
func check(src []byte) (took bool, err error) {
	var want backend.Tape
	wantErr := scalar.Parser{}.Parse(src, &want)
	words, ok := Tape(src)
	if ok {
		if len(src) > Max {
			return true, fmt.Errorf("%q: the path took %d bytes, more than %d", src, len(src), Max)
		}
		if wantErr != nil {
			return true, fmt.Errorf("%q: the path accepted what scalar rejects (%v)", src, wantErr)
		}
		if len(want.Arena) != 0 {
			return true, fmt.Errorf("%q: the path accepted a document with arena text %q", src, want.Arena)
		}
		got := backend.Tape{Words: words}
		if err := conformance.Check(&got, src); err != nil {
			return true, fmt.Errorf("%q: malformed tape: %w", src, err)
		}
		if len(words) != len(want.Words) {
			return true, fmt.Errorf("%q: tape of %d words, scalar's has %d:\n%s\nwant\n%s", src, len(words),
				len(want.Words), conformance.Format(&got, src), conformance.Format(&want, src))
		}
		for i := range words {
			if words[i] != want.Words[i] {
				return true, fmt.Errorf("%q: word %d is %#x, scalar's %#x", src, i, words[i], want.Words[i])
			}
		}
		// The same tape with no more room than it needs: the path's room
		// bound (two words a byte) holds.
		if again, ok := TapeRoom(src, 2*len(src)); !ok || len(again) != len(words) {
			return true, fmt.Errorf("%q: not taken with the room of two words a byte", src)
		}
	}
	var got backend.Tape
	gotErr := Parser{}.Parse(src, &got)
	if (gotErr == nil) != (wantErr == nil) {
		return ok, fmt.Errorf("%q: Parser's error %v, scalar's %v", src, gotErr, wantErr)
	}
	if wantErr != nil {
		var w, g *backend.SyntaxError
		if !errors.As(wantErr, &w) || !errors.As(gotErr, &g) || *w != *g {
			return ok, fmt.Errorf("%q: Parser's error %v, scalar's %v", src, gotErr, wantErr)
		}
		return ok, nil
	}
	if err := conformance.Equal(&want, src, &got, src); err != nil {
		return ok, fmt.Errorf("%q: Parser's document differs: %w", src, err)
	}
	return ok, nil
}

func mustTake(t *testing.T, src string) {
	t.Helper()
	took, err := check([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !took {
		t.Fatalf("%q (%d bytes): the path gave up", src, len(src))
	}
}

func mustGiveUp(t *testing.T, src string) {
	t.Helper()
	took, err := check([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if took {
		t.Fatalf("%q (%d bytes): the path took it", src, len(src))
	}
}

// sized pads a document of one kind to exactly n bytes. Each kind grows in
// its own way: a string by its text, an int by its digits (up to 18), a
// literal and an empty container by white space after it, an array by its
// elements, an object by its last key.
func sized(kind string, n int) string {
	pad := func(s string) string {
		if len(s) > n {
			panic(fmt.Sprintf("%s: %q is longer than %d", kind, s, n))
		}
		return s + strings.Repeat(" ", n-len(s))
	}
	switch kind {
	case "null", "true", "false":
		return pad(kind)
	case "ws-before":
		return strings.Repeat("\t", n-4) + "null"
	case "int":
		if n <= 18 {
			return strings.Repeat("7", n)
		}
		return pad("123456789012345678")
	case "negative-int":
		if n <= 19 {
			return "-" + strings.Repeat("9", n-1)
		}
		return pad("-999999999999999999")
	case "string":
		return `"` + strings.Repeat("s", n-2) + `"`
	case "empty-array":
		return pad("[]")
	case "empty-object":
		return pad("{}")
	case "array-of-ints": // [1,1,...,1] (odd lengths) or [1,...,1,22] (even)
		if n%2 == 1 {
			return "[" + strings.Repeat("1,", (n-3)/2) + "1]"
		}
		return "[" + strings.Repeat("1,", (n-4)/2) + "22]"
	case "array-of-strings":
		s := `[""`
		for len(s)+8 <= n { // room left for the last: ,"..."]
			s += `,"a"`
		}
		s += `,"` + strings.Repeat("b", n-len(s)-4) + `"]`
		return s
	case "nested":
		d := n / 2
		return strings.Repeat("[", d) + strings.Repeat("]", d) + strings.Repeat(" ", n-2*d)
	case "object":
		s := `{"id":48213,"ok":true,"error":null,"f":false,"k":""`
		return s[:len(s)-1] + strings.Repeat("k", n-len(s)-1) + `"}`
	case "object-of-objects":
		s := `{"a":{"b":{"c":[{}]}},"d":[]` // 29
		return s + `,"` + strings.Repeat("e", n-len(s)-7) + `":-1}`
	}
	panic(kind)
}

var kinds = []string{"null", "true", "false", "ws-before", "int", "negative-int", "string", "empty-array",
	"empty-object", "array-of-ints", "array-of-strings", "nested", "object", "object-of-objects"}

// TestSwitch: every kind at Max-1 and Max bytes is taken, with scalar's tape;
// at Max+1 (and far beyond) it goes to the fallback, with the same result.
func TestSwitch(t *testing.T) {
	if Max != 64 || Words != 2*Max {
		t.Fatalf("Max %d, Words %d: the tests below and docs/performance.md assume 64 and 128", Max, Words)
	}
	for _, kind := range kinds {
		for _, n := range []int{Max - 1, Max, Max + 1, 2 * Max} {
			src := sized(kind, n)
			if len(src) != n {
				t.Fatalf("%s: %q is %d bytes, not %d", kind, src, len(src), n)
			}
			if kind == "int" && n > 18 || kind == "negative-int" && n > 19 {
				// A long int is padded: still one of the path's, below Max+1.
				if _, err := strconv.ParseInt(strings.TrimSpace(src), 10, 64); err != nil {
					t.Fatal(err)
				}
			}
			if n <= Max {
				mustTake(t, src)
				continue
			}
			mustGiveUp(t, src)
			// Given up for its length, not for want of room.
			if _, ok := TapeRoom([]byte(src), 4*n); ok {
				t.Fatalf("%s: %d bytes taken with room for them", kind, n)
			}
		}
	}
}

// TestEveryLength: each kind at every length it has up to Max+2 (the input's
// copy into the path's buffer moves overlapping words by length class).
func TestEveryLength(t *testing.T) {
	shortest := map[string]int{"null": 4, "true": 4, "false": 5, "ws-before": 4, "int": 1, "negative-int": 2,
		"string": 2, "empty-array": 2, "empty-object": 2, "array-of-ints": 3, "array-of-strings": 8, "nested": 2,
		"object": 52, "object-of-objects": 36}
	for _, kind := range kinds {
		for n := shortest[kind]; n <= Max+2; n++ {
			if src := sized(kind, n); n <= Max {
				mustTake(t, src)
			} else {
				mustGiveUp(t, src)
			}
		}
	}
}

// TestSmallKinds: each kind at its shortest, with white space around.
func TestSmallKinds(t *testing.T) {
	for _, src := range []string{
		"null", "true", "false", "0", "-0", "7", "-7", "10", "123456789012345678", "-123456789012345678",
		"999999999999999999", "-999999999999999999", `""`, `"a"`, "\"\x7f ~!#$%&'()*+,-./:;<=>?@[]^_`{|}\"",
		"[]", "{}", "[[]]", "[{}]", `{"":{}}`, `{"a":1}`, `{"a":1,"a":2}`, `[1,"x",true,false,null,[],{}]`,
		" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n",
		" { \"a\" : [ ] , \"b\" : { } } ", `{"ok":true,"id":48213,"error":null,"msg":"created"}`,
	} {
		mustTake(t, src)
	}
}

// TestGiveUp: every shape outside the path's grammar, and every kind of
// error, goes to the fallback (and so gets scalar's result or error).
func TestGiveUp(t *testing.T) {
	for _, src := range []string{
		// Outside the grammar: floats, long ints, escapes, non-ASCII and
		// control bytes in strings.
		"1.5", "-0.0", "1e5", "1E5", "1e-5", "0.1", "[1.0]", `{"a":2.5}`,
		"1234567890123456789", "-1234567890123456789", "9223372036854775807", "18446744073709551616",
		"[1234567890123456789]", `"\n"`, `"\u0041"`, `"a\\b"`, `{"\"":1}`, "\"é\"", "[\"\xff\"]", "\"\x80\"",
		"\"\x00\"", "\"\x1f\"", "\"\t\"",
		// Errors of every kind the engine reports.
		"", " ", "\t\n", "nul", "nulL", "tru", "truE", "fals", "falsE", "nullx", "true1", "-", "--1", "+1", ".5",
		"01", "-01", "00", "1x", "1-", "[1 2]", "[1,]", "[,1]", "[", "]", "[1", "[1,", "{", "}", `{"a"}`,
		`{"a":}`, `{"a" 1}`, `{"a":1,}`, `{,}`, `{"a":1 "b":2}`, `{1:2}`, `{"a":1]`, `[1}`, `"abc`, `"`,
		"[1]]", "[1],2", "[1] x", "\xef\xbb\xbf[]", "\v[]", "[]\v", "\f1", "[1]\x00", "x", "NaN", "Infinity",
	} {
		mustGiveUp(t, src)
	}
}

// TestRoom: the path never uses more words than it is given; with less
// room than two words a byte it gives up, whatever the input.
func TestRoom(t *testing.T) {
	for _, src := range []string{"0", "[0]", `""`, "[[[[]]]]", `["",""]`, "[0,0,0,0]", sized("object", Max)} {
		for room := 0; room < 2*len(src); room++ {
			if _, ok := TapeRoom([]byte(src), room); ok {
				t.Fatalf("%q taken with a room of %d words", src, room)
			}
		}
		words, ok := TapeRoom([]byte(src), 2*len(src))
		if !ok {
			t.Fatalf("%q not taken with a room of %d words", src, 2*len(src))
		}
		if len(words) > 2*len(src) {
			t.Fatalf("%q: %d words", src, len(words))
		}
	}
}

// tokens make the short sequences of TestTokenSequences: the grammar's own,
// and the bytes next to it that it must refuse.
var tokens = []string{
	"[", "]", "{", "}", ",", ":", " ", "\t", `""`, `"a"`, `"`, `\`, "0", "1", "-", ".", "e", "true", "nul",
	"null", "f", "false", "x", "\xc3\xa9", "\x00", "\v", "12345678901234567", "8",
}

var sequenceDepth = flag.Int("depth", 4, "TestTokenSequences: the longest token sequence (5: 17.8 million inputs, 45 s)")

// TestTokenSequences checks every sequence of up to 4 tokens against scalar
// (637 thousand inputs; -depth 5 for the 17.8 million of up to 5).
func TestTokenSequences(t *testing.T) {
	depth := *sequenceDepth
	var took, total int
	var buf []byte
	var walk func(k int)
	walk = func(k int) {
		ok, err := check(buf)
		if err != nil {
			t.Fatal(err)
		}
		total++
		if ok {
			took++
		}
		if k == depth {
			return
		}
		n := len(buf)
		for _, tok := range tokens {
			buf = append(buf[:n], tok...)
			walk(k + 1)
		}
		buf = buf[:n]
	}
	walk(0)
	t.Logf("%d inputs, %d taken by the path", total, took)
	if took < 1000 {
		t.Fatalf("only %d of %d inputs taken: the path gives up on its own grammar", took, total)
	}
}

// doc writes a random document of the path's grammar, with random white
// space.
type doc struct {
	r   *rand.Rand
	buf []byte
}

func (d *doc) space() {
	for d.r.IntN(5) == 0 {
		d.buf = append(d.buf, " \t\n\r"[d.r.IntN(4)])
	}
}

func (d *doc) str() {
	d.buf = append(d.buf, '"')
	for range d.r.IntN(6) {
		c := byte(0x20 + d.r.IntN(0x60)) // printable ASCII and DEL
		if c == '"' || c == '\\' {
			c = '_' // the path's: no end or escape inside
		}
		d.buf = append(d.buf, c)
	}
	d.buf = append(d.buf, '"')
}

func (d *doc) value(depth int) {
	d.space()
	k := d.r.IntN(9)
	if depth > 6 {
		k %= 5
	}
	switch k {
	case 0:
		d.buf = append(d.buf, []string{"null", "true", "false"}[d.r.IntN(3)]...)
	case 1, 2:
		digits := 1 + d.r.IntN(18)
		v := d.r.Int64N(1_000_000_000_000_000_000) % pow10(digits)
		if d.r.IntN(3) == 0 {
			v = -v
		}
		d.buf = strconv.AppendInt(d.buf, v, 10)
	case 3, 4:
		d.str()
	case 5, 6:
		d.buf = append(d.buf, '[')
		for i := range d.r.IntN(4) {
			if i > 0 {
				d.space()
				d.buf = append(d.buf, ',')
			}
			d.value(depth + 1)
		}
		d.space()
		d.buf = append(d.buf, ']')
	default:
		d.buf = append(d.buf, '{')
		for i := range d.r.IntN(4) {
			if i > 0 {
				d.space()
				d.buf = append(d.buf, ',')
			}
			d.space()
			d.str()
			d.space()
			d.buf = append(d.buf, ':')
			d.value(depth + 1)
		}
		d.space()
		d.buf = append(d.buf, '}')
	}
	d.space()
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// TestRandomDocuments: documents of the grammar up to Max bytes are taken
// (with scalar's tape), longer ones are not, and one byte changed anywhere
// in them (mostly an error or a shape outside the grammar) changes nothing
// in the agreement with scalar.
func TestRandomDocuments(t *testing.T) {
	n := 20000
	if testing.Short() || raceBuild {
		n = 3000
	}
	r := rand.New(rand.NewPCG(2026, 12))
	pieces := []byte("[]{},:\" \\0-1.eEtfnux\x00\x7f\x80\xc3\v")
	var took int
	for i := range n {
		d := doc{r: r}
		d.value(0)
		src := d.buf
		ok, err := check(src)
		if err != nil {
			t.Fatal(err)
		}
		if ok != (len(src) <= Max) {
			t.Fatalf("%q (%d bytes): taken %v", src, len(src), ok)
		}
		if ok {
			took++
		}
		// One byte overwritten, inserted or deleted.
		m := bytes.Clone(src)
		j := r.IntN(len(m))
		switch i % 3 {
		case 0:
			m[j] = pieces[r.IntN(len(pieces))]
		case 1:
			m = append(m[:j], append([]byte{pieces[r.IntN(len(pieces))]}, m[j:]...)...)
		default:
			m = append(m[:j], m[j+1:]...)
		}
		if _, err := check(m); err != nil {
			t.Fatal(err)
		}
	}
	if took < n/4 {
		t.Fatalf("%d of %d documents were short enough: the generator makes too long ones", took, n)
	}
}

// FuzzTiny is the differential fuzz target: on every input, a tape the path
// makes is scalar's, and when it gives up the fallback's result is scalar's.
func FuzzTiny(f *testing.F) {
	for _, kind := range kinds {
		for _, n := range []int{Max - 1, Max, Max + 1} {
			f.Add([]byte(sized(kind, n)))
		}
	}
	for _, s := range []string{
		`{"ok":true,"id":48213,"error":null,"msg":"created"}`, `[1,"x",true,false,null,[],{}]`, "-0", "1.5",
		"123456789012345678", "1234567890123456789", `"\n"`, "\"é\"", "[1,]", `{"a":1,}`, "01", " ", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := check(src); err != nil {
			t.Fatal(err)
		}
	})
}
