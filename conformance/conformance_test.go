package conformance

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
)

// TestDecisionsMatchOrjson checks the decision table against orjson's own
// choices, recorded by scripts/gen_orjson_errors.py.
func TestDecisionsMatchOrjson(t *testing.T) {
	data, err := readTestdata("orjson", "decisions.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Decisions map[string]string `json:"decisions"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Decisions) != 318 {
		t.Fatalf("%d recorded decisions", len(file.Decisions))
	}
	for name, d := range Decisions {
		if got := file.Decisions[name]; (got == "accept") != d.Accept {
			t.Errorf("%s: table says accept=%v, orjson %s", name, d.Accept, got)
		}
		if strings.HasPrefix(name, "i_") && d.Reason == "" {
			t.Errorf("%s: no reason", name)
		}
	}
}

// handTape builds tapes directly, independent of any parser.
func handTape(build func(t *backend.Tape)) *backend.Tape {
	t := new(backend.Tape)
	build(t)
	return t
}

func TestEqualFindsEachDifference(t *testing.T) {
	input := []byte(`"ab"`)
	base := func(t *backend.Tape) {
		a := t.OpenContainer(backend.KindArray)
		t.AppendNumber(backend.KindInt, 7)
		t.AppendNumber(backend.KindFloat, math.Float64bits(1.5))
		t.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageInput, Len: 2, Where: 1, Chars: 2, Clean: true})
		t.CloseContainer(a, 3)
	}
	same := func(t *backend.Tape) { // the string in the arena instead
		a := t.OpenContainer(backend.KindArray)
		t.AppendNumber(backend.KindInt, 7)
		t.AppendNumber(backend.KindFloat, math.Float64bits(1.5))
		t.Arena = append(t.Arena, "xxab"...)
		t.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Len: 2, Where: 2, Chars: 2})
		t.CloseContainer(a, 3)
	}
	if err := Equal(handTape(base), input, handTape(same), input); err != nil {
		t.Errorf("equal tapes: %v", err)
	}
	variants := map[string]func(t *backend.Tape){
		"int value": func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindArray)
			t.AppendNumber(backend.KindInt, 8)
			t.AppendNumber(backend.KindFloat, math.Float64bits(1.5))
			t.AppendRef(backend.KindString, backend.Ref{Len: 2, Where: 1, Chars: 2})
			t.CloseContainer(a, 3)
		},
		"float -0": func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindArray)
			t.AppendNumber(backend.KindInt, 7)
			t.AppendNumber(backend.KindFloat, math.Float64bits(math.Copysign(0, -1)))
			t.AppendRef(backend.KindString, backend.Ref{Len: 2, Where: 1, Chars: 2})
			t.CloseContainer(a, 3)
		},
		"kind": func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindArray)
			t.AppendNumber(backend.KindUint, 7)
			t.AppendNumber(backend.KindFloat, math.Float64bits(1.5))
			t.AppendRef(backend.KindString, backend.Ref{Len: 2, Where: 1, Chars: 2})
			t.CloseContainer(a, 3)
		},
		"string bytes": func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindArray)
			t.AppendNumber(backend.KindInt, 7)
			t.AppendNumber(backend.KindFloat, math.Float64bits(1.5))
			t.AppendRef(backend.KindString, backend.Ref{Len: 1, Where: 1, Chars: 1})
			t.CloseContainer(a, 3)
		},
		"chars": func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindArray)
			t.AppendNumber(backend.KindInt, 7)
			t.AppendNumber(backend.KindFloat, math.Float64bits(1.5))
			t.AppendRef(backend.KindString, backend.Ref{Len: 2, Where: 1, Chars: 1})
			t.CloseContainer(a, 3)
		},
		"count": func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindArray)
			t.AppendNumber(backend.KindInt, 7)
			t.AppendNumber(backend.KindFloat, math.Float64bits(1.5))
			t.CloseContainer(a, 2)
		},
		"container kind": func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindObject)
			t.CloseContainer(a, 0)
		},
	}
	for name, build := range variants {
		if err := Equal(handTape(base), input, handTape(build), input); err == nil {
			t.Errorf("%s: difference not found", name)
		}
	}
}

func TestCheckFindsMalformedTapes(t *testing.T) {
	input := []byte(`"é"`)
	good := handTape(func(t *backend.Tape) {
		t.AppendRef(backend.KindString, backend.Ref{Class: backend.ClassLatin1, Len: 2, Where: 1, Chars: 1, Clean: true})
	})
	if err := Check(good, input); err != nil {
		t.Errorf("good tape: %v", err)
	}
	bad := map[string]*backend.Tape{
		"class": handTape(func(t *backend.Tape) {
			t.AppendRef(backend.KindString, backend.Ref{Class: backend.ClassASCII, Len: 2, Where: 1, Chars: 1})
		}),
		"chars": handTape(func(t *backend.Tape) {
			t.AppendRef(backend.KindString, backend.Ref{Class: backend.ClassLatin1, Len: 2, Where: 1, Chars: 2})
		}),
		"outside input": handTape(func(t *backend.Tape) {
			t.AppendRef(backend.KindString, backend.Ref{Len: 9, Where: 1, Chars: 9})
		}),
		"count": handTape(func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindArray)
			t.AppendScalar(backend.KindNull)
			t.CloseContainer(a, 2)
		}),
		"non-string key": handTape(func(t *backend.Tape) {
			a := t.OpenContainer(backend.KindObject)
			t.AppendScalar(backend.KindNull)
			t.AppendScalar(backend.KindNull)
			t.CloseContainer(a, 1)
		}),
		"small uint": handTape(func(t *backend.Tape) { t.AppendNumber(backend.KindUint, 1) }),
		"trailing words": handTape(func(t *backend.Tape) {
			t.AppendScalar(backend.KindNull)
			t.AppendScalar(backend.KindNull)
		}),
	}
	for name, tape := range bad {
		if err := Check(tape, input); err == nil {
			t.Errorf("%s: not found", name)
		}
	}
	dirty := handTape(func(t *backend.Tape) {
		t.Arena = append(t.Arena, '\n')
		t.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Len: 1, Chars: 1, Clean: true})
	})
	if err := Check(dirty, input); err == nil {
		t.Errorf("clean bit on a newline not found")
	}
}

func TestExpectNumber(t *testing.T) {
	for in, want := range map[string]string{
		"-0": "int:0", "12": "int:12", "9223372036854775808": "uint:9223372036854775808",
		"18446744073709551616": "bigint:18446744073709551616", "1.5": "float:1.5", "1e-400": "float:0",
	} {
		if got, err := expectNumber(in); got != want || err != nil {
			t.Errorf("%s: %s %v, want %s", in, got, err, want)
		}
	}
	if _, err := expectNumber("1e400"); err == nil {
		t.Error("1e400: no error")
	}
}
