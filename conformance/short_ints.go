package conformance

import (
	"errors"
	"strconv"
	"testing"

	"github.com/isojson/isojson/backend"
)

// runShortIntegers holds what a number is to what follows it: a parser may
// read an integer of a digit or two ended by ',', ']' or '}' on a path of its
// own (scalar does), so every such number, and each shape next to one
// (a third digit, a leading zero, a sign, a fraction, an exponent), before
// each byte that ends a number (a delimiter, a stray byte, the input's end),
// is parsed once as written and once with a space before that byte, where
// no such path applies. The two must give equal tapes, or the same message
// at the same place (counted in the text without the space).
func runShortIntegers(t *testing.T, p backend.Parser) {
	numbers := []string{"00", "01", "09", "000", "010", "-0", "-7", "-42", "+1", "-", "100", "999", "1000", "1007",
		"5.", "5.5", "12.5", "5e", "5e1", "5E1", "12e", "12E3", "0.", "0e1", "1-", "0-", "99-"}
	for i := 0; i <= 100; i++ {
		numbers = append(numbers, strconv.Itoa(i))
	}
	// What follows ends the number: a byte that would continue it (a digit,
	// '.', 'e') makes another number, which is in numbers.
	follows := []string{",", "]", "}", ",1]", ",1}", "]]", "}}", "x", "a", `"`, ":", "\n", ""}
	contexts := [][2]string{{"", ""}, {"[", ""}, {"[[", ""}, {"[", ",2]"}, {`{"k":`, ""}, {`{"k":[`, ""},
		{`[1,`, ""}, {`{"a":1,"k":`, ""}}
	for _, num := range numbers {
		for _, f := range follows {
			for _, ctx := range contexts {
				if f == "" && ctx[1] == "" {
					continue // the number ends the input: a space after it changes the error
				}
				src := ctx[0] + num + f + ctx[1]
				spaced := ctx[0] + num + " " + f + ctx[1]
				at := int64(len(ctx[0]) + len(num)) // where the space goes
				checkSpaced(t, p, []byte(src), []byte(spaced), at)
			}
		}
	}
}

func checkSpaced(t *testing.T, p backend.Parser, src, spaced []byte, at int64) {
	t.Helper()
	a, errA := parse(t, p, src)
	b, errB := parse(t, p, spaced)
	switch {
	case errA == nil && errB == nil:
		if err := Check(a, src); err != nil {
			t.Errorf("%s: malformed tape: %v", quote(src), err)
		} else if err := Equal(a, src, b, spaced); err != nil {
			t.Errorf("%s and %s: %v", quote(src), quote(spaced), err)
		}
	case errA == nil || errB == nil:
		t.Errorf("%s: %v; %s: %v", quote(src), errA, quote(spaced), errB)
	default:
		var sa, sb *backend.SyntaxError
		if !errors.As(errA, &sa) || !errors.As(errB, &sb) {
			t.Errorf("%s: %T %v, %s: %T %v: not *backend.SyntaxError", quote(src), errA, errA, quote(spaced), errB, errB)
			return
		}
		off := sb.Offset
		if off > at {
			off--
		}
		if sa.Msg != sb.Msg || sa.Offset != off {
			t.Errorf("%s: %q at %d; %s: %q at %d", quote(src), sa.Msg, sa.Offset, quote(spaced), sb.Msg, sb.Offset)
		}
	}
}
