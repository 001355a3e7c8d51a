package scalar

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
)

// TestNumberPrefixes covers numbers through the whole parser (scanNumber's
// word-at-a-time fast path when the input has 16 bytes after the sign,
// scanNumberGeneral near its end or for other shapes): every length of
// integer part from 0 to 20, signed or not, with a leading zero or not,
// followed by nothing (the number ends the input), a fraction, an exponent,
// a delimiter or a wrong byte. Acceptance must match encoding/json, values
// strconv. number_scan_test.go checks scanNumber itself more closely.
func TestNumberPrefixes(t *testing.T) {
	var p Parser
	tape := new(backend.Tape)
	for digits := 0; digits <= 20; digits++ {
		for _, lead := range []string{"", "-", "0", "-0"} {
			num := lead + strings.Repeat("7", digits)
			if digits > 1 {
				num = lead + "1" + strings.Repeat("0", digits-2) + "9"
			}
			for _, tail := range []string{"", ".5", "e3", "E-2", ".", "e", "x", "-", "1", ""} {
				for _, wrap := range [][2]string{{"", ""}, {"[", "]"}, {"[", ",1]"}, {"[", " ]"}, {`{"k":`, "}"}} {
					s := wrap[0] + num + tail + wrap[1]
					tape.Reset()
					err := p.Parse([]byte(s), tape)
					if valid := json.Valid([]byte(s)); valid != (err == nil) {
						t.Fatalf("%q: error %v, encoding/json valid %v", s, err, valid)
					}
					if err != nil || num+tail == "" { // "[]" has no number
						continue
					}
					at := 0
					if wrap[0] == "[" {
						at = 2
					} else if wrap[0] != "" {
						at = 2 + backend.RefWords
					}
					text := num + tail
					switch tape.Kind(at) {
					case backend.KindInt:
						want, perr := strconv.ParseInt(text, 10, 64)
						if perr != nil || tape.Int(at) != want {
							t.Fatalf("%q: int %d, strconv %d (%v)", s, tape.Int(at), want, perr)
						}
					case backend.KindFloat:
						want, _ := strconv.ParseFloat(text, 64)
						if got := tape.Float(at); math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("%q: float %v, strconv %v", s, got, want)
						}
					default: // beyond an Int: checked by the big-integer tests
						if digits < 18 {
							t.Fatalf("%q: kind %v", s, tape.Kind(at))
						}
					}
				}
			}
		}
	}
}
