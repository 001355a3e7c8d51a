package writer

import (
	"math"
	"testing"
)

func mathFloat64bits(f float64) uint64 { return math.Float64bits(f) }

// Expected bytes below were produced by orjson 3.13.0 (scripts/py).
func TestWriteOptions(t *testing.T) {
	doc := `{"b":1,"a":[],"c":{},"d":[1,{"y":null,"x":[true,false]}],"e":"q\"\\\n\u0001\u007f\u2028é😀"}`
	for _, c := range []struct {
		flags Flags
		want  string
	}{
		{0, `{"b":1,"a":[],"c":{},"d":[1,{"y":null,"x":[true,false]}],"e":"q\"\\\n\u0001` + "\x7f\u2028é😀" + `"}`},
		{SortKeys, `{"a":[],"b":1,"c":{},"d":[1,{"x":[true,false],"y":null}],"e":"q\"\\\n\u0001` + "\x7f\u2028é😀" + `"}`},
		{Indent2 | AppendNewline, "{\n  \"b\": 1,\n  \"a\": [],\n  \"c\": {},\n  \"d\": [\n    1,\n    {\n      \"y\": null,\n      \"x\": [\n        true,\n        false\n      ]\n    }\n  ],\n  \"e\": \"q\\\"\\\\\\n\\u0001\x7f\u2028é😀\"\n}\n"},
	} {
		tp, err := tapeOf([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(Append(nil, tp, nil, c.flags)); got != c.want {
			t.Errorf("flags %d:\n got %q\nwant %q", c.flags, got, c.want)
		}
	}
}
