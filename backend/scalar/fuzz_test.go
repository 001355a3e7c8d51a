package scalar_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
	"github.com/isojson/isojson/conformance"
)

// FuzzParse checks that the parser never panics, that every error is a
// *backend.SyntaxError with an offset inside the input, that an accepted
// input yields a well-formed tape, and that acceptance agrees with
// encoding/json.Valid except where orjson (and so isojson) deliberately
// differs: nesting deeper than 1024, numbers that overflow float64, escaped
// lone surrogates and invalid UTF-8 in strings (encoding/json accepts both).
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"JSONTestSuite/test_parsing", "roundtrip", "transform"} {
		entries, _ := os.ReadDir(filepath.Join("..", "..", "testdata", dir))
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", dir, e.Name())); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"a":[1,2.5e-3,"\u00e9\ud83d\ude00",true,false,null,{}],"b":-0}`))
	// Strings long enough for the SIMD kernels' blocks (plain ASCII from 16
	// bytes, non-ASCII text from 32), with escapes and characters of every
	// length across the block boundaries.
	f.Add([]byte(`["https://api.github.com/repos/jathanism/trigger/commits/05570a3080693f6e55244e012b3b1ec59516c01b"]`))
	f.Add([]byte(`{"text":"@aym0566x \n\n名前:前田あゆみ\n第一印象:なんか怖っ！\n今の印象:とりあえずキモい。噛み合わない\n好きなところ:ぶすでキモいとこ😋✨✨\n思い出:んーーー、ありすぎ😊❤️"}`))
	f.Add([]byte(`["Съешь же ещё этих мягких французских булок, да выпей чаю. Ā€\uffff😀 ÿé"]`))
	f.Fuzz(func(t *testing.T, src []byte) {
		var tape backend.Tape
		err := scalar.Parser{}.Parse(src, &tape)
		samePortable(t, src, &tape, err)
		valid := json.Valid(src)
		if err != nil {
			var se *backend.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v", err, err)
			}
			if se.Offset < 0 || se.Offset > int64(len(src)) {
				t.Fatalf("offset %d outside input of %d bytes", se.Offset, len(src))
			}
			if valid && !orjsonStricter(src, se) {
				t.Fatalf("%q: rejected (%v), encoding/json accepts", src, err)
			}
			return
		}
		if !valid {
			t.Fatalf("%q: accepted, encoding/json rejects", src)
		}
		if !utf8.Valid(src) {
			t.Fatalf("%q: accepted invalid UTF-8", src)
		}
		if err := conformance.Check(&tape, src); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
	})
}

// orjsonStricter reports whether a rejection of valid JSON is one of
// orjson's deliberate limits.
func orjsonStricter(src []byte, se *backend.SyntaxError) bool {
	switch se.Msg {
	case backend.MsgInvalidUTF8:
		return !utf8.Valid(src)
	case backend.MsgDepth, backend.MsgInfinity,
		backend.MsgNoLowSurrogate, backend.MsgBadLowSurrogate, backend.MsgLoneLowSurrogate, backend.MsgInvalidPairHex:
		return true
	}
	return false
}

// samePortable checks that the portable path (the inline SIMD scans off)
// decides src as the shipped one did: the same error or the same tape.
func samePortable(t *testing.T, src []byte, tape *backend.Tape, err error) {
	if !scalar.SIMDAvailable {
		return
	}
	restore := scalar.SetSIMD(false)
	var portable backend.Tape
	perr := scalar.Parser{}.Parse(src, &portable)
	restore()
	if fmt.Sprint(err) != fmt.Sprint(perr) {
		t.Fatalf("%q: %v with the SIMD scans, %v without", src, err, perr)
	}
	if err == nil && (!slices.Equal(tape.Words, portable.Words) || !bytes.Equal(tape.Arena, portable.Arena)) {
		t.Fatalf("%q: the tapes with and without the SIMD scans differ", src)
	}
}
