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
