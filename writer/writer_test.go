package writer

import (
	"bytes"
	"math"
	"testing"

	"github.com/isojson/isojson/backend"
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

func TestBigInt(t *testing.T) {
	tp, err := tapeOf([]byte(`[123456789012345678901234567890,-99999999999999999999999,18446744073709551615]`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(Append(nil, tp, nil, 0)), `[123456789012345678901234567890,-99999999999999999999999,18446744073709551615]`; got != want {
		t.Errorf("digits: got %s", got)
	}
	// orjson.dumps(orjson.loads(...)): integers beyond 64 bits load as floats.
	if got, want := string(Append(nil, tp, nil, BigIntAsFloat)), `[1.2345678901234568e+29,-1e+23,18446744073709551615]`; got != want {
		t.Errorf("as float: got %s", got)
	}
}

// TestContainerKeys writes objects whose keys are containers, which no
// producer makes but a malformed tape may hold: the compact walk writes
// such a key with a nested walk, which must leave the outer containers'
// stack as it was.
func TestContainerKeys(t *testing.T) {
	tp := &backend.Tape{}
	outer := tp.OpenContainer(backend.KindArray)
	obj := tp.OpenContainer(backend.KindObject)
	key := tp.OpenContainer(backend.KindArray)
	inner := tp.OpenContainer(backend.KindObject)
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Clean: true})
	tp.AppendNumber(backend.KindInt, 1)
	tp.CloseContainer(inner, 1)
	tp.CloseContainer(key, 1)
	val := tp.OpenContainer(backend.KindArray)
	tp.AppendNumber(backend.KindInt, 2)
	tp.AppendScalar(backend.KindNull)
	tp.CloseContainer(val, 2)
	tp.AppendNumber(backend.KindInt, 3) // a key that is a number
	tp.AppendScalar(backend.KindTrue)
	tp.CloseContainer(obj, 2)
	tp.AppendScalar(backend.KindFalse)
	tp.CloseContainer(outer, 2)
	want := `[{[{"":1}]:[2,null],3:true},false]`
	if got := string(Append(nil, tp, nil, 0)); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestFloatArrays covers the compact walk's loop for arrays of floats:
// arrays that are floats throughout, that go on with other values after
// floats, and floats after other values, at every depth.
func TestFloatArrays(t *testing.T) {
	for _, doc := range []string{
		`[1.5]`,
		`[1.5,2.5,3.5]`,
		`[1.5,2.5,"x",3.5,[4.5,5.5],{"a":[6.5]},7.5]`,
		`[[1.5],[2.5,"y"],[],[[3.5,4.5],[5.5]],6.5]`,
		`{"k":[1.5,null,2.5],"l":[[1.5,2.5]],"m":1.5}`,
		`[1.5,[2.5],3.5,{"a":4.5},5.5,true]`,
		`["a",1.5,2.5]`,
	} {
		tp, err := tapeOf([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(Append(nil, tp, nil, 0)); got != doc {
			t.Errorf("got %s, want %s", got, doc)
		}
	}
}

// TestWriteWithScratch: a Scratch reused across documents and options gives
// Write's bytes, also after a Write with it panicked halfway on a malformed
// tape (a container whose end is past the tape), which left it mid-walk.
func TestWriteWithScratch(t *testing.T) {
	docs := []string{`[]`, `{"a":[1,{"b":[[],{}]}],"c":"x"}`, `[[[[[[1]]]]],{"k":{"k":{"k":null}}}]`,
		`{"b":1,"a":[true,false,2.5,"s"]}`, `"text"`, `[1,2,3]`}
	var s Scratch
	for round := 0; round < 3; round++ {
		for _, doc := range docs {
			tape, err := tapeOf([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			for _, flags := range []Flags{0, Indent2, SortKeys, SortKeys | Indent2, AppendNewline} {
				var want, got Output
				want.Write(tape, nil, flags)
				got.WriteWith(&s, tape, nil, flags)
				if !bytes.Equal(got.Buf, want.Buf) {
					t.Fatalf("%s, flags %v: WriteWith %q, Write %q", doc, flags, got.Buf, want.Buf)
				}
			}
		}
		// A malformed tape: the inner array's end points past the tape.
		bad, _ := tapeOf([]byte(`[[[1,2],[3]],[4]]`))
		bad.Words[3] = uint64(len(bad.Words) + 40)
		func() {
			defer func() {
				if recover() == nil {
					t.Fatal("the malformed tape did not panic")
				}
			}()
			var o Output
			o.WriteWith(&s, bad, nil, 0)
		}()
	}
}
