//go:build (amd64 || arm64) && !isojson_nosonic

package sonic

import "testing"

// FuzzParse checks that the backend answers every input exactly as the
// scalar parser does (conformance/difffuzz does the same for all backends at
// once).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,-0,-0.0,1e-400,18446744073709551616],"b":"\u00e9\ud83d\ude00\n","c":"2012-03-06"}`,
		"[-01.5]", "[1]\v", "[true\x00]", "[1] x", "[1]]", `["\ud800"]`, "[\"\xff\"]", "123", `"s"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sameAsScalar(t, src)
	})
}
