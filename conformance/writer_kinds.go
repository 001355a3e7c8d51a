package conformance

import (
	"math"
	"runtime"
	"testing"

	"github.com/isojson/isojson/backend"
)

// kindCase is a hand-built tape and the text orjson writes for the document
// it stands for, compact and with OPT_INDENT_2 (empty: not checked). The
// expectations are written out here, from orjson 3.13's behaviour (dumps of
// the Python value the tape stands for), not produced by any writer.
type kindCase struct {
	name     string
	build    func(b *tapeBuilder)
	flags    backend.WriteFlags // added to each of compact and indented
	compact  string
	indented string
}

// tapeBuilder builds a tape and keeps the text it points into.
type tapeBuilder struct {
	t  *backend.Tape
	st TextStore
}

func (b *tapeBuilder) scalar(k backend.Kind)                   { b.t.AppendScalar(k) }
func (b *tapeBuilder) int(v int64)                             { b.t.AppendNumber(backend.KindInt, uint64(v)) }
func (b *tapeBuilder) uint(v uint64)                           { b.t.AppendNumber(backend.KindUint, v) }
func (b *tapeBuilder) float(f float64)                         { b.t.AppendNumber(backend.KindFloat, math.Float64bits(f)) }
func (b *tapeBuilder) text(k backend.Kind, s string, l Layout) { b.st.AppendText(b.t, k, s, l) }

// str appends a String as a parser stores it: UTF-8 in the arena, marked
// clean when it needs no escaping.
func (b *tapeBuilder) str(s string) {
	b.text(backend.KindString, s, Layout{"utf8 arena", backend.StorageArena, backend.WidthUTF8, !needsEscape(s)})
}

// container appends an Array or Object of n elements (members) that fill
// writes.
func (b *tapeBuilder) container(k backend.Kind, n int, fill func()) {
	at := b.t.OpenContainer(k)
	fill()
	b.t.CloseContainer(at, n)
}

var (
	utf8Input    = Layout{"utf8 input", backend.StorageInput, backend.WidthUTF8, false}
	utf8Arena    = Layout{"utf8 arena", backend.StorageArena, backend.WidthUTF8, false}
	utf8External = Layout{"utf8 external", backend.StorageExternal, backend.WidthUTF8, false}
	ucs1         = Layout{"ucs1", backend.StorageExternal, backend.WidthUCS1, false}
	ucs2         = Layout{"ucs2", backend.StorageExternal, backend.WidthUCS2, false}
	ucs4         = Layout{"ucs4", backend.StorageExternal, backend.WidthUCS4, false}
)

var kindCases = []kindCase{
	{name: "literals", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 3, func() { b.scalar(backend.KindNull); b.scalar(backend.KindTrue); b.scalar(backend.KindFalse) })
	}, compact: "[null,true,false]", indented: "[\n  null,\n  true,\n  false\n]"},
	{name: "int edges", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 5, func() {
			b.int(0)
			b.int(-1)
			b.int(math.MinInt64)
			b.int(math.MaxInt64)
			b.int(1e15)
		})
	}, compact: "[0,-1,-9223372036854775808,9223372036854775807,1000000000000000]"},
	{name: "uint", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 2, func() { b.uint(math.MaxUint64); b.uint(1 << 63) })
	}, compact: "[18446744073709551615,9223372036854775808]"},
	{name: "float layouts", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 14, func() {
			for _, f := range []float64{0, math.Copysign(0, -1), 1, -1.5, 100, 1e15, 1e16, 1.5e16, 0.0001, 0.00001, 1e-7, 123.456, 5e-324, math.MaxFloat64} {
				b.float(f)
			}
		})
	}, compact: "[0.0,-0.0,1.0,-1.5,100.0,1000000000000000.0,1e+16,1.5e+16,0.0001,0.00001,1e-7,123.456,5e-324,1.7976931348623157e+308]"},
	{name: "non-finite floats", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 3, func() { b.float(math.NaN()); b.float(math.Inf(1)); b.float(math.Inf(-1)) })
	}, compact: "[null,null,null]"},
	{name: "bigint", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 2, func() {
			b.text(backend.KindBigInt, "123456789012345678901234567890", utf8Input)
			b.text(backend.KindBigInt, "-18446744073709551616", utf8Arena)
		})
	}, compact: "[123456789012345678901234567890,-18446744073709551616]"},
	{name: "bigint as float", flags: backend.WriteBigIntAsFloat, build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 3, func() {
			b.text(backend.KindBigInt, "123456789012345678901234567890", utf8Input)
			b.text(backend.KindBigInt, "-18446744073709551616", utf8External)
			b.text(backend.KindBigInt, "1"+repeat("0", 400), utf8Arena)
		})
	}, compact: "[1.2345678901234568e+29,-1.8446744073709552e+19,null]"},
	{name: "raw", build: func(b *tapeBuilder) {
		b.container(backend.KindObject, 3, func() {
			b.str("a")
			b.text(backend.KindRaw, `{"x":[1, 2]}`, utf8Input)
			b.str("b")
			b.text(backend.KindRaw, "1.5", ucs2)
			b.str("c")
			b.text(backend.KindRaw, `"é"`, ucs1)
		})
	}, compact: `{"a":{"x":[1, 2]},"b":1.5,"c":"é"}`, indented: "{\n  \"a\": {\"x\":[1, 2]},\n  \"b\": 1.5,\n  \"c\": \"é\"\n}"},
	{name: "clean strings as dumps writes datetimes and UUIDs", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 4, func() {
			b.text(backend.KindString, "2026-12-02T00:00:00+00:00", Layout{"utf8 arena clean", backend.StorageArena, backend.WidthUTF8, true})
			b.text(backend.KindString, "01234567-89ab-cdef-0123-456789abcdef", Layout{"utf8 external clean", backend.StorageExternal, backend.WidthUTF8, true})
			b.text(backend.KindString, "café", Layout{"ucs1 clean", backend.StorageExternal, backend.WidthUCS1, true})
			b.text(backend.KindString, "12:00 ☀", Layout{"ucs4 clean", backend.StorageExternal, backend.WidthUCS4, true})
		})
	}, compact: `["2026-12-02T00:00:00+00:00","01234567-89ab-cdef-0123-456789abcdef","café","12:00 ☀"]`},
	{name: "strings in every layout", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 6, func() {
			b.text(backend.KindString, "in\tput", utf8Input)
			b.text(backend.KindString, "arena \"q\"", utf8Arena)
			b.text(backend.KindString, "ext\\", utf8External)
			b.text(backend.KindString, "ÿé\n", ucs1)
			b.text(backend.KindString, "€\u2028\x00", ucs2)
			b.text(backend.KindString, "😀\x1f\x7f", ucs4)
		})
	}, compact: `["in\tput","arena \"q\"","ext\\","ÿé\n","€` + "\u2028" + `\u0000","😀\u001f` + "\x7f" + `"]`},
	{name: "sorted keys of every width", flags: backend.WriteSortKeys, build: func(b *tapeBuilder) {
		b.container(backend.KindObject, 6, func() {
			b.text(backend.KindString, "😀", ucs4)
			b.int(1)
			b.text(backend.KindString, "€", ucs2)
			b.int(2)
			b.text(backend.KindString, "z", utf8Input)
			b.int(3)
			b.text(backend.KindString, "é", ucs1)
			b.int(4)
			b.text(backend.KindString, "a", ucs2)
			b.int(5)
			b.text(backend.KindString, "", utf8Arena)
			b.int(6)
		})
	}, compact: `{"":6,"a":5,"z":3,"é":4,"€":2,"😀":1}`, indented: "{\n  \"\": 6,\n  \"a\": 5,\n  \"z\": 3,\n  \"é\": 4,\n  \"€\": 2,\n  \"😀\": 1\n}"},
	{name: "sorted keys: prefixes, equal keys stay in order", flags: backend.WriteSortKeys, build: func(b *tapeBuilder) {
		b.container(backend.KindObject, 6, func() {
			for n, k := range []string{"b", "abcdefghij", "abcdefgh", "b", "abcdefgh\x00", "a"} {
				b.str(k)
				b.int(int64(n))
			}
		})
	}, compact: `{"a":5,"abcdefgh":2,"abcdefgh\u0000":4,"abcdefghij":1,"b":0,"b":3}`},
	{name: "sorted nested, unsorted arrays", flags: backend.WriteSortKeys, build: func(b *tapeBuilder) {
		b.container(backend.KindObject, 2, func() {
			b.str("y")
			b.container(backend.KindArray, 2, func() {
				b.container(backend.KindObject, 2, func() { b.str("d"); b.int(1); b.str("c"); b.int(2) })
				b.int(0)
			})
			b.str("x")
			b.container(backend.KindObject, 0, func() {})
		})
	}, compact: `{"x":{},"y":[{"c":2,"d":1},0]}`, indented: "{\n  \"x\": {},\n  \"y\": [\n    {\n      \"c\": 2,\n      \"d\": 1\n    },\n    0\n  ]\n}"},
	{name: "keys of other text kinds", build: func(b *tapeBuilder) {
		b.container(backend.KindObject, 2, func() {
			b.text(backend.KindRaw, `"2026-12-02"`, utf8Arena)
			b.scalar(backend.KindNull)
			b.text(backend.KindString, "k\"", ucs2)
			b.container(backend.KindArray, 0, func() {})
		})
	}, compact: `{"2026-12-02":null,"k\"":[]}`, indented: "{\n  \"2026-12-02\": null,\n  \"k\\\"\": []\n}"},
	{name: "empty containers", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 3, func() {
			b.container(backend.KindArray, 0, func() {})
			b.container(backend.KindObject, 0, func() {})
			b.container(backend.KindArray, 1, func() { b.container(backend.KindArray, 0, func() {}) })
		})
	}, compact: "[[],{},[[]]]", indented: "[\n  [],\n  {},\n  [\n    []\n  ]\n]"},
	{name: "root string with a newline appended", flags: backend.WriteAppendNewline, build: func(b *tapeBuilder) {
		b.str("x")
	}, compact: "\"x\"\n", indented: "\"x\"\n"},
	{name: "long text", build: func(b *tapeBuilder) {
		b.container(backend.KindArray, 2, func() {
			b.text(backend.KindString, string(make([]byte, 300)), ucs2)
			b.text(backend.KindString, longText, utf8External)
		})
	}, compact: "[\"" + repeat(`\u0000`, 300) + "\",\"" + longText + "\"]"},
}

var longText = repeat("abcdefghijklmnopqrstuvwxyzé€😀 ", 1000)

func repeat(s string, n int) string {
	out := make([]byte, 0, len(s)*n)
	for range n {
		out = append(out, s...)
	}
	return string(out)
}

// runKinds: every tape kind in every storage and width, as values and keys,
// each case compact and indented, with its flags.
func runKinds(t *testing.T, w backend.Writer) {
	for _, c := range kindCases {
		b := &tapeBuilder{t: new(backend.Tape)}
		c.build(b)
		expectWrite(t, w, c.name, b.t, b.st.Input, c.flags, c.compact)
		if c.indented != "" {
			expectWrite(t, w, c.name+" (indented)", b.t, b.st.Input, c.flags|backend.WriteIndent2, c.indented)
		}
		runtime.KeepAlive(b)
	}
}
