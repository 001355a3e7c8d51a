package api

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// maxMarshalDepth is orjson.dumps's nesting limit: 254 levels of containers
// are written, the 255th raises "Recursion limit reached". It also stops a
// map or slice that contains itself.
const maxMarshalDepth = 254

// Marshal returns the JSON text of v exactly as orjson.dumps writes the
// equivalent Python value with option opt (OPT_INDENT_2, OPT_SORT_KEYS,
// OPT_APPEND_NEWLINE; other bits are ignored). v is built from nil, bool,
// string, float64, the integer types, json.Number, []any and map[string]any.
//
// A Go map has no order, so map keys are always written sorted (what a
// Python dict built in sorted order gives). NaN and ±Inf are written as null,
// as orjson does. A json.Number is checked against JSON's number grammar and
// written as orjson.dumps(orjson.loads(n)) would: integers in 64 bits as
// they are, other numbers as the nearest float64 in orjson's format.
//
// Any other type, a string that is not valid UTF-8, or nesting deeper than
// orjson's 254 levels gives an *EncodeError.
func Marshal(v any, opt Option) ([]byte, error) {
	t := tapePool.Get().(*backend.Tape)
	defer putTape(t)
	t.Reset()
	if err := appendGo(t, v, 0); err != nil {
		return nil, err
	}
	out := appendJSON(nil, t, nil, writerFlags(opt))
	// The tape's strings point into v's strings (External refs).
	runtime.KeepAlive(v)
	return out, nil
}

func appendGo(t *backend.Tape, v any, depth int) error {
	switch x := v.(type) {
	case nil:
		t.AppendScalar(backend.KindNull)
	case bool:
		if x {
			t.AppendScalar(backend.KindTrue)
		} else {
			t.AppendScalar(backend.KindFalse)
		}
	case string:
		return appendGoString(t, x)
	case float64:
		t.AppendNumber(backend.KindFloat, math.Float64bits(x))
	case int:
		t.AppendNumber(backend.KindInt, uint64(x))
	case int8:
		t.AppendNumber(backend.KindInt, uint64(x))
	case int16:
		t.AppendNumber(backend.KindInt, uint64(x))
	case int32:
		t.AppendNumber(backend.KindInt, uint64(x))
	case int64:
		t.AppendNumber(backend.KindInt, uint64(x))
	case uint:
		appendGoUint(t, uint64(x))
	case uint8:
		appendGoUint(t, uint64(x))
	case uint16:
		appendGoUint(t, uint64(x))
	case uint32:
		appendGoUint(t, uint64(x))
	case uint64:
		appendGoUint(t, x)
	case json.Number:
		return appendGoNumber(t, string(x))
	case []any:
		if depth >= maxMarshalDepth {
			return &EncodeError{Msg: "Recursion limit reached"}
		}
		at := t.OpenContainer(backend.KindArray)
		for _, e := range x {
			if err := appendGo(t, e, depth+1); err != nil {
				return err
			}
		}
		t.CloseContainer(at, len(x))
	case map[string]any:
		if depth >= maxMarshalDepth {
			return &EncodeError{Msg: "Recursion limit reached"}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		at := t.OpenContainer(backend.KindObject)
		for _, k := range keys {
			if err := appendGoString(t, k); err != nil {
				return err
			}
			if err := appendGo(t, x[k], depth+1); err != nil {
				return err
			}
		}
		t.CloseContainer(at, len(x))
	default:
		return &EncodeError{Msg: fmt.Sprintf("Type is not JSON serializable: %T", v)}
	}
	return nil
}

func appendGoUint(t *backend.Tape, u uint64) {
	if u > math.MaxInt64 {
		t.AppendNumber(backend.KindUint, u)
		return
	}
	t.AppendNumber(backend.KindInt, u)
}

// appendGoString appends s as an External UTF-8 ref to the string's own
// bytes (no copy; Marshal keeps v alive while it writes).
func appendGoString(t *backend.Tape, s string) error {
	if !utf8.ValidString(s) {
		return &EncodeError{Msg: fmt.Sprintf("str is not valid UTF-8: %q", s)}
	}
	t.AppendRef(backend.KindString, backend.Ref{
		Storage: backend.StorageExternal,
		Width:   backend.WidthUTF8,
		Len:     len(s),
		Where:   uint64(uintptr(unsafe.Pointer(unsafe.StringData(s)))),
		Chars:   utf8.RuneCountInString(s),
	})
	return nil
}

// appendGoNumber appends a json.Number after checking it is a JSON number.
func appendGoNumber(t *backend.Tape, s string) error {
	integer, ok := jsonNumber(s)
	if !ok {
		return &EncodeError{Msg: fmt.Sprintf("json.Number %q is not a JSON number", s)}
	}
	if integer {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			t.AppendNumber(backend.KindInt, uint64(i))
			return nil
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			t.AppendNumber(backend.KindUint, u)
			return nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && math.IsInf(f, 0) {
		return &EncodeError{Msg: fmt.Sprintf("json.Number %q: number is infinity when parsed as double", s)}
	}
	t.AppendNumber(backend.KindFloat, math.Float64bits(f))
	return nil
}

// jsonNumber reports whether s matches JSON's number grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and whether it is an
// integer (no fraction, no exponent).
func jsonNumber(s string) (integer, ok bool) {
	i := 0
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false, false
	}
	integer = true
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false, false
		}
		integer = false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false, false
		}
		integer = false
	}
	return integer, i == len(s)
}
