package api

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
)

// Expected bytes in this file were produced by orjson 3.13.0 (scripts/py).

func TestReformat(t *testing.T) {
	for _, c := range []struct {
		src  string
		opt  Option
		want string
	}{
		{`{"a":1,"b":2,"a":3}`, 0, `{"a":3,"b":2}`},
		{`{"a":1,"b":2,"a":3}`, OptSortKeys | OptIndent2, "{\n  \"a\": 3,\n  \"b\": 2\n}"},
		{`{"b":{"x":1,"x":2},"a":[{"k":1,"k":{"z":1,"z":2}}]}`, 0, `{"b":{"x":2},"a":[{"k":{"z":2}}]}`},
		{`{"b":{"x":1,"x":2},"a":[{"k":1,"k":{"z":1,"z":2}}]}`, OptSortKeys | OptIndent2,
			"{\n  \"a\": [\n    {\n      \"k\": {\n        \"z\": 2\n      }\n    }\n  ],\n  \"b\": {\n    \"x\": 2\n  }\n}"},
		{`[123456789012345678901234567890, 1.50, 1E2, -0]`, 0, `[1.2345678901234568e+29,1.5,100.0,0]`},
		{` { "a" : [ ] , "b" : { } } `, OptIndent2 | OptAppendNewline, "{\n  \"a\": [],\n  \"b\": {}\n}\n"},
		{`"\u00e9\ud83d\ude00\u2028\u0000"`, OptNonStrKeys, "\"é😀\u2028\\u0000\""},
	} {
		got, err := Reformat([]byte(c.src), c.opt)
		if err != nil {
			t.Errorf("Reformat(%s): %v", c.src, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("Reformat(%s, %d):\n got %q\nwant %q", c.src, c.opt, got, c.want)
		}
	}
}

func TestReformatDuplicateKeysMany(t *testing.T) {
	// More than 16 members takes the map path.
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + string(rune('a'+i%20)) + `":` + string(rune('0'+i%10)))
	}
	b.WriteString("}")
	got, err := Reformat([]byte(b.String()), 0)
	if err != nil {
		t.Fatal(err)
	}
	// Python: first position, last value.
	want := `{"ka":0,"kb":1,"kc":2,"kd":3,"ke":4,"kf":5,"kg":6,"kh":7,"ki":8,"kj":9,"kk":0,"kl":1,"km":2,"kn":3,"ko":4,"kp":5,"kq":6,"kr":7,"ks":8,"kt":9}`
	if string(got) != want {
		t.Errorf("got %s", got)
	}
}

func TestDecodeError(t *testing.T) {
	for _, c := range []struct {
		src                 string
		msg                 string
		pos, line, col, off int
	}{
		{"[1,", "unexpected end of data", 3, 1, 4, 3},
		{"[\"\u00e9\", x]", "unexpected character, expected a JSON value", 6, 1, 7, 7},
		{"[\n1,\n  x]", "unexpected character, expected a JSON value", 7, 3, 3, 7},
		{"", "Input is a zero-length, empty document", 0, 1, 1, 0},
		{`{"a":1}x`, "unexpected content after document", 7, 1, 8, 7},
		{"[\"\u00e9\u20ac\U0001f600\", x]", "unexpected character, expected a JSON value", 8, 1, 9, 14},
	} {
		_, err := Reformat([]byte(c.src), 0)
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%q: error %v is not a *DecodeError", c.src, err)
			continue
		}
		want := DecodeError{Offset: int64(c.off), Pos: int64(c.pos), Line: c.line, Column: c.col, Msg: c.msg}
		if *de != want {
			t.Errorf("%q: got %+v, want %+v", c.src, *de, want)
		}
		if Valid([]byte(c.src)) {
			t.Errorf("Valid(%q) = true", c.src)
		}
	}
	_, err := Reformat([]byte("[1,"), 0)
	if got, want := err.Error(), "unexpected end of data: line 1 column 4 (char 3)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestMarshal(t *testing.T) {
	doc := map[string]any{"b": []any{1, 2.5, nil, true, "x\n"}, "a": map[string]any{"é": math.Copysign(0, -1), "c": uint64(math.MaxUint64)}}
	for _, c := range []struct {
		v    any
		opt  Option
		want string
	}{
		{doc, OptSortKeys, `{"a":{"c":18446744073709551615,"é":-0.0},"b":[1,2.5,null,true,"x\n"]}`},
		{doc, 0, `{"a":{"c":18446744073709551615,"é":-0.0},"b":[1,2.5,null,true,"x\n"]}`},
		{doc, OptSortKeys | OptIndent2, "{\n  \"a\": {\n    \"c\": 18446744073709551615,\n    \"é\": -0.0\n  },\n  \"b\": [\n    1,\n    2.5,\n    null,\n    true,\n    \"x\\n\"\n  ]\n}"},
		{[]any{1e16, 1e-7, 0.1, math.NaN(), int64(math.MinInt64), 100.0, 1.5, 1e23}, 0, `[1e+16,1e-7,0.1,null,-9223372036854775808,100.0,1.5,1e+23]`},
		{[]any{json.Number("1.50"), json.Number("-0"), json.Number("1E2"), json.Number("18446744073709551615"), json.Number("123456789012345678901234567890")}, 0,
			`[1.5,0,100.0,18446744073709551615,1.2345678901234568e+29]`},
		{[]any{int8(-8), int16(16), int32(-32), uint8(8), uint16(16), uint32(32), uint(7), 3}, OptAppendNewline, "[-8,16,-32,8,16,32,7,3]\n"},
		{"", 0, `""`},
		{[]any{}, OptIndent2, `[]`},
	} {
		got, err := Marshal(c.v, c.opt)
		if err != nil {
			t.Errorf("Marshal(%v): %v", c.v, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("Marshal(%v, %d):\n got %q\nwant %q", c.v, c.opt, got, c.want)
		}
	}
}

func TestMarshalErrors(t *testing.T) {
	deep := []any{}
	for range 254 - 1 {
		deep = []any{deep}
	}
	if _, err := Marshal(deep, 0); err != nil {
		t.Errorf("254 levels: %v", err)
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for _, v := range []any{
		[]any{deep}, cyclic, float32(1), struct{}{}, []int{1}, "\xff", map[string]any{"\xff": 1},
		json.Number("01"), json.Number("1."), json.Number("--1"), json.Number(""), json.Number("1e400"), json.Number("NaN"),
	} {
		_, err := Marshal(v, 0)
		var ee *EncodeError
		if !errors.As(err, &ee) {
			t.Errorf("Marshal(%T): error %v, want *EncodeError", v, err)
		}
	}
}

func TestBackends(t *testing.T) {
	names := Backends()
	if len(names) == 0 || Backend() != names[0] {
		t.Fatalf("Backends() = %v, Backend() = %q", names, Backend())
	}
	if err := SetBackend("no-such-backend"); err == nil || !strings.Contains(err.Error(), "scalar") {
		t.Errorf("SetBackend(unknown) = %v, want an error naming the choices", err)
	}
	for _, n := range names {
		if err := SetBackend(n); err != nil || Backend() != n {
			t.Errorf("SetBackend(%q) = %v, Backend() = %q", n, err, Backend())
		}
		got, err := Reformat([]byte(`{"a":[1,2.5,"x"]}`), OptSortKeys)
		if err != nil || string(got) != `{"a":[1,2.5,"x"]}` {
			t.Errorf("backend %s: %s, %v", n, got, err)
		}
	}
	if err := SetBackend(""); err != nil || Backend() != names[0] {
		t.Errorf("SetBackend(\"\") = %v, Backend() = %q", err, Backend())
	}
}

func TestParse(t *testing.T) {
	var tp backend.Tape
	if err := Parse([]byte(`[1,"a"]`), &tp); err != nil || tp.Kind(0) != backend.KindArray || tp.Count(0) != 2 {
		t.Fatalf("Parse: %v, %v", err, tp.Words)
	}
	if err := Parse([]byte(`[1,`), &tp); err == nil {
		t.Fatal("Parse accepted [1,")
	}
}

// TestGoldenDocs checks Reformat and Marshal against orjson's outputs in
// testdata/golden/docs.jsonl.gz (scripts/gen_golden.py).
func TestGoldenDocs(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "golden", "docs.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sorted := map[string]string{} // doc → orjson output with OPT_SORT_KEYS|opt
	type vec struct {
		Doc string
		Opt Option
		Out string
	}
	var vecs []vec
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v vec
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		vecs = append(vecs, v)
		if v.Opt&OptSortKeys != 0 {
			sorted[v.Doc+"\x00"+string(rune(v.Opt&^OptSortKeys))] = v.Out
		}
	}
	for _, v := range vecs {
		got, err := Reformat([]byte(v.Doc), v.Opt)
		if err != nil || string(got) != v.Out {
			t.Errorf("Reformat(%s, %d):\n got %q (%v)\nwant %q", v.Doc, v.Opt, got, err, v.Out)
		}
		d := json.NewDecoder(bytes.NewReader([]byte(v.Doc)))
		d.UseNumber()
		var x any
		if err := d.Decode(&x); err != nil {
			t.Fatal(err)
		}
		got, err = Marshal(x, v.Opt)
		want := sorted[v.Doc+"\x00"+string(rune(v.Opt&^OptSortKeys))]
		if err != nil || string(got) != want {
			t.Errorf("Marshal(%s, %d):\n got %q (%v)\nwant %q", v.Doc, v.Opt, got, err, want)
		}
	}
	if len(vecs) < 3000 {
		t.Fatalf("only %d vectors", len(vecs))
	}
}

func TestSetBackendFromEnv(t *testing.T) {
	defer SetBackend("")
	for _, name := range Backends() {
		t.Setenv(EnvBackend, name)
		if err := SetBackendFromEnv(); err != nil {
			t.Fatalf("%s=%s: %v", EnvBackend, name, err)
		}
		if got := Backend(); got != name {
			t.Fatalf("%s=%s: Backend() = %s", EnvBackend, name, got)
		}
		if !Valid([]byte(`{"a":[1,2.5,"x"]}`)) || Valid([]byte(`[1,]`)) {
			t.Fatalf("backend %s: Valid disagrees with the gate", name)
		}
	}
	t.Setenv(EnvBackend, "nope")
	err := SetBackendFromEnv()
	if err == nil {
		t.Fatal("unknown backend accepted")
	}
	for _, name := range Backends() {
		if !strings.Contains(err.Error(), name) {
			t.Fatalf("error %q does not name the choice %s", err, name)
		}
	}
	t.Setenv(EnvBackend, "")
	if err := SetBackendFromEnv(); err != nil || Backend() != Backends()[0] {
		t.Fatalf("empty %s: err %v, backend %s, want the default %s", EnvBackend, err, Backend(), Backends()[0])
	}
}

// Every writer gives the same bytes through Reformat and Marshal; an unknown
// name is an error naming the choices; "" restores the default.
func TestWriters(t *testing.T) {
	defer SetWriter("")
	names := Writers()
	if len(names) == 0 || Writer() != names[0] || names[0] != "fast" {
		t.Fatalf("Writers() = %v, Writer() = %q", names, Writer())
	}
	if err := SetWriter("no-such-writer"); err == nil || !strings.Contains(err.Error(), strings.Join(names, ", ")) {
		t.Errorf("SetWriter(unknown) = %v, want an error naming the choices %q", err, names)
	}
	src := []byte(`{"b":[1,2.5,1e16,"x\n"],"a":{"é":-0.0,"big":123456789012345678901234567890}}`)
	v := map[string]any{"b": []any{1, 2.5, 1e16, "x\n"}, "a": map[string]any{"é": math.Copysign(0, -1)}}
	var want [][]byte
	for _, name := range names {
		if err := SetWriter(name); err != nil || Writer() != name {
			t.Fatalf("SetWriter(%q) = %v, Writer() = %q", name, err, Writer())
		}
		var got [][]byte
		for _, opt := range allOptions {
			r, err := Reformat(src, opt)
			m, err2 := Marshal(v, opt)
			if err != nil || err2 != nil {
				t.Fatalf("writer %s: %v %v", name, err, err2)
			}
			got = append(got, r, m)
		}
		if want == nil {
			want = got
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("writer %s, case %d: %q, %s gave %q", name, i, got[i], names[0], want[i])
			}
		}
	}
	last := names[len(names)-1]
	t.Setenv(EnvWriter, last)
	if err := SetWriterFromEnv(); err != nil || Writer() != last {
		t.Errorf("%s=%s: %v, Writer() = %q", EnvWriter, last, err, Writer())
	}
	if err := SetWriter(""); err != nil || Writer() != names[0] {
		t.Errorf("SetWriter(\"\") = %v, Writer() = %q", err, Writer())
	}
}
