package scalar_test

import (
	"errors"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

// TestSurrogateErrors pins orjson 3.13's answers (checked by running it) for
// escaped surrogates near the end of input: orjson looks for a low half
// after either half before judging, so input that stops where a low
// surrogate escape could still follow is cut short, even after a lone low
// surrogate; a tail that cannot become one is the surrogate's own error.
func TestSurrogateErrors(t *testing.T) {
	for _, c := range surrogateErrorCases {
		var tape backend.Tape
		err := (scalar.Parser{}).Parse([]byte(c.in), &tape)
		var se *backend.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want %q at %d", c.in, err, c.msg, c.off)
			continue
		}
		if se.Msg != c.msg || se.Offset != c.off {
			t.Errorf("%s: got %q at %d, want %q at %d", c.in, se.Msg, se.Offset, c.msg, c.off)
		}
	}
	// The same inputs are accepted once completed.
	for _, in := range []string{`"\ud800\udc00"`, `"\uDBFF\uDFFF"`, `["a\ud83d\ude00"]`} {
		var tape backend.Tape
		if err := (scalar.Parser{}).Parse([]byte(in), &tape); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// surrogateErrorCases are TestSurrogateErrors' inputs and the error orjson
// reports for each (TestUnescapeCommonHandsOver puts escapes before them).
var surrogateErrorCases = func() []struct {
	in  string
	msg string
	off int64
} {
	const (
		end     = backend.MsgUnexpectedEnd
		loneLow = backend.MsgLoneLowSurrogate
		pairHex = backend.MsgInvalidPairHex
		noLow   = backend.MsgNoLowSurrogate
		badLow  = backend.MsgBadLowSurrogate
	)
	cases := []struct {
		in  string
		msg string
		off int64
	}{
		// A lone low surrogate, then the end of input or a prefix of a low
		// surrogate escape.
		{`"\ude00`, end, 7},
		{`"\ude00\`, end, 8},
		{`"\ude00\u`, end, 9},
		{`"\ude00\ud`, end, 10},
		{`"\uDFFF\uD`, end, 10},
		{`"\udc00\udc`, end, 11},
		{`"\udc00\uDF`, end, 11},
		{`"\udc00\udc0`, end, 12},
		{`["a\ude00`, end, 9},
		{`{"\ude00`, end, 8},
		{`"\u0041\udc00`, end, 13},
		// ... or anything else.
		{`"\ude00"`, loneLow, 1},
		{`"\ude00x`, loneLow, 1},
		{`"\ude00\\`, loneLow, 1},
		{`"\ude00\n"`, loneLow, 1},
		{`"\ude00\u0`, loneLow, 1},
		{`"\ude00\ud8`, loneLow, 1},
		{`"\ude00\uzz`, loneLow, 1},
		{`"\ude00\udc00`, loneLow, 1},
		{`"\ude00\ud800\udc00"`, loneLow, 1},
		{`"\u0041\udc00"`, loneLow, 7},
		// A high surrogate cut short.
		{`"\ud800`, end, 7},
		{`"\ud800\`, end, 8},
		{`"\ud800\u`, end, 9},
		{`"\ud800\ud`, end, 10},
		{`"\ud800\udc0`, end, 12},
		{`"\uDBFF\uDFF`, end, 12},
		// ... where hex digits that cannot start a low surrogate follow.
		{`"\ud800\u0`, pairHex, 1},
		{`"\ud800\u004`, pairHex, 1},
		{`"\ud800\ud8`, pairHex, 1},
		{`"\ud800\ud80`, pairHex, 1},
		{`"\uD83D\uDB`, pairHex, 1},
		{`"\ud800\udc0z"`, pairHex, 1},
		// Complete escapes are judged as before.
		{`"\ud800x`, noLow, 1},
		{`"\ud800\\`, noLow, 1},
		{`"\ud800\n"`, noLow, 1},
		{`"\ud800\u0041"`, badLow, 1},
		{`"\ud800\ud800"`, badLow, 1},
		{`"\ud`, end, 4},
		{`"\uzz"`, backend.MsgInvalidEscape, 1},
	}
	return cases
}()
