package scalar_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
	"github.com/isojson/isojson/conformance"
	"github.com/isojson/isojson/conformance/difffuzz"
)

// runMembers are what scalarRun takes; runBreaks what ends a run there:
// other values, a space, members it must leave to parse because they are
// wrong (each with its own error), a trailing comma, another container.
var (
	runMembers = []string{"true", "false", "null", "0", "7", "10", "42", "99"}
	runBreaks  = []string{"100", "-1", "1.5", "1e2", "01", "00", `"s"`, "[]", "[1,2]", "{}", `{"a":1}`, " true",
		"\ntrue", "tru", "truex", "nul", "nulll", "fals", "falsee", "1x", "12x", "1 ", "", "t", "]", "}", "1}"}
)

// TestScalarRuns: arrays whose members are runs of literals and small ints
// of every length (past the tape's growth, which stops a run) with the
// values, white space and mistakes that end a run between them, in nested
// arrays, in objects and at the top, cut at random places: the scalar
// parser accepts what encoding/json accepts, its tape passes the
// conformance check, and every other backend gives the same tape or the
// same error at the same place (difffuzz.Compare).
func TestScalarRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var tape backend.Tape
	for range 4000 {
		var b strings.Builder
		open := []string{"[", "[[", `{"k":[`, `[{"a":true,"b":1},`}[r.IntN(4)]
		b.WriteString(open)
		for m := r.IntN(3000) >> r.IntN(8); m >= 0; m-- {
			if r.IntN(40) == 0 {
				b.WriteString(runBreaks[r.IntN(len(runBreaks))])
			} else {
				b.WriteString(runMembers[r.IntN(len(runMembers))])
			}
			if m > 0 {
				b.WriteByte(',')
			}
		}
		b.WriteString(map[string]string{"[": "]", "[[": "]]", `{"k":[`: "]}", `[{"a":true,"b":1},`: "]"}[open])
		doc := b.String()
		if r.IntN(8) == 0 {
			doc = doc[:r.IntN(len(doc))] // the input's end anywhere
		}
		tape.Reset()
		err := (scalar.Parser{}).Parse([]byte(doc), &tape)
		if valid := json.Valid([]byte(doc)); valid != (err == nil) {
			t.Fatalf("%.200q: error %v, encoding/json valid %v", doc, err, valid)
		}
		if err == nil {
			if cerr := conformance.Check(&tape, []byte(doc)); cerr != nil {
				t.Fatalf("%.200q: %v", doc, cerr)
			}
		}
		if cerr := difffuzz.Compare([]byte(doc)); cerr != nil {
			t.Fatal(cerr)
		}
	}
	for _, doc := range []string{"true", "1", "1,2", "true,false", "[1,2", "[true,", "[1,2,]", "[1,2}", "[1,tru]"} {
		if cerr := difffuzz.Compare([]byte(doc)); cerr != nil {
			t.Fatal(cerr)
		}
	}
}
