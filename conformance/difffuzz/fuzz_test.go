package difffuzz

import (
	"os"
	"testing"
)

// FuzzDifferential feeds every compiled-in backend the same input and fails
// on any disagreement with the scalar parser: accept or reject, error
// message and offset, tape words and arena bytes.
func FuzzDifferential(f *testing.F) {
	for _, p := range testFiles(f) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(src) <= 4096 { // the corpus documents are too big to mutate usefully
			f.Add(src)
		}
	}
	for _, s := range []string{
		`{"a":[1,-0,-0.0,1e-400,18446744073709551616,-9223372036854775809],"b":"\u00e9\ud83d\ude00\n"}`,
		`["2012-03-06", -01.5, "-05"]`, "[1]\v", "[true\x00]", "\f[1]", "[1] x", "[1]]", "[1],2",
		`["\ud800", "\udc00", "\ud800\u0041"]`, "[\"\xed\xa0\x80\", \"\xff\", \"\x01\"]",
		`{"":"","\"":"\\","k":{"":[[],{}]}}`, "123", `"s"`, "null", " true ", "-", "1.", "01",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if err := Compare(src); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzWriters writes the tape of every document the reference parser accepts
// with every compiled-in writer, under every option set, as parsed and with
// its texts in the layouts seed picks, and fails on any byte that differs
// from the reference writer's.
func FuzzWriters(f *testing.F) {
	for _, p := range testFiles(f) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(src) <= 4096 {
			f.Add(src, uint8(len(src)))
		}
	}
	for n, s := range []string{
		`{"b":[1,-0.0,1e-7,1e16,123456789012345678901234567890],"a":"\u00e9\ud83d\ude00\n\u0000","":{"":[]}}`,
		`[0.00001,1e22,1e21,5e-324,1.7976931348623157e308,-1.5e300]`, `{"z":1,"é":2,"€":3,"😀":4,"a":5,"a":6}`,
		`"\u2028\u007f\u001f\"\\"`, "[]", "{}", "1", `"s"`, "null",
	} {
		f.Add([]byte(s), uint8(n))
	}
	f.Fuzz(func(t *testing.T, src []byte, seed uint8) {
		if err := CompareWritersOn(src, seed); err != nil {
			t.Fatal(err)
		}
	})
}
