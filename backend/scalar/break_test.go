package scalar_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
	"github.com/isojson/isojson/conformance"
)

// TestLineBreaks puts whitespace runs of every kind, with lengths around the
// 8-, 16- and 32-byte windows of skipSpaceRun and of parse's inline line
// break count (a newline and n spaces end a word at n = 7, 15, 23, 31), at
// every place of documents
// and checks the tape (conformance.Check) or the exact error: W marks a
// place for whitespace, § where the error is reported (at the end of the
// input when there is none). (Written for an inline whitespace scan that
// left long runs to each state's error path; that scan lost to the word
// scan, see scan_simd_amd64.go, and the test stayed.)

var breakRuns = func() []string {
	var runs []string
	for _, n := range []int{0, 1, 2, 6, 7, 8, 15, 16, 22, 23, 24, 28, 30, 31, 32, 33, 34, 63, 64, 65, 100} {
		runs = append(runs,
			strings.Repeat(" ", n),
			"\n"+strings.Repeat(" ", n),
			"\r\n"+strings.Repeat(" ", n),
			strings.Repeat("\t", n),
			"\n"+strings.Repeat(" ", n)+"\n"+strings.Repeat(" ", n/2),
			strings.Repeat(" ", n)+"\t"+strings.Repeat(" ", 40))
	}
	return runs
}()

func TestLineBreaks(t *testing.T) {
	valid := []string{
		`W{W"a"W:W[W1W,W{W}W,W[W]W,W"xyz"W,WtrueW]W,W"b"W:W{W"c"W:WnullW}W,W"d"W:W-2.5W}W`,
		`W[W[W[W]W]W,W{W"k"W:W[W{W}W]W}W]W`,
		`W"s"W`, `W7W`,
	}
	invalid := []struct{ doc, msg string }{
		{`[W1§,W]`, backend.MsgTrailingComma},
		{`{W"a"W:W1§,W}`, backend.MsgTrailingComma},
		{`[W§}`, backend.MsgExpectedValue},
		{`{W§]`, backend.MsgExpectedKey},
		{`[W1W§}`, backend.MsgExpectedArrayNext},
		{`{W"a"W:W1W§]`, backend.MsgExpectedObjectNext},
		{`{W"a"W:W1W,W§1}`, backend.MsgExpectedKey},
		{`[W1W,W§,W2]`, backend.MsgExpectedValue},
		{"[W§\x01]", backend.MsgExpectedValue},
		{"[W1W,W§\x01]", backend.MsgExpectedValue},
		{"{W§\x01}", backend.MsgExpectedKey},
		{"[W1W§\x01]", backend.MsgExpectedArrayNext},
		{"{W\"a\"W:W1W§\x01}", backend.MsgExpectedObjectNext},
		{"[W1W]W§x", backend.MsgTrailing},
		{`[W`, backend.MsgUnexpectedEnd},
		{`{W`, backend.MsgUnexpectedEnd},
		{`[W1W`, backend.MsgUnexpectedEnd},
		{`[W1W,W`, backend.MsgUnexpectedEnd},
		{`{W"a"W:W1W`, backend.MsgUnexpectedEnd},
		{`{W"a"W:W1W,W`, backend.MsgUnexpectedEnd},
		{`[W[W]W,W`, backend.MsgUnexpectedEnd},
	}
	for r, run := range breakRuns {
		// One run everywhere, then a different run at each place.
		fill := func(doc string) string {
			k := 0
			return replaceEach(doc, func() string {
				k++
				if k%2 == 0 {
					return breakRuns[(r+k)%len(breakRuns)]
				}
				return run
			})
		}
		for _, doc := range valid {
			for _, src := range []string{strings.ReplaceAll(doc, "W", run), fill(doc)} {
				var tape backend.Tape
				if err := (scalar.Parser{}).Parse([]byte(src), &tape); err != nil {
					t.Fatalf("%q: %v", src, err)
				}
				if err := conformance.Check(&tape, []byte(src)); err != nil {
					t.Fatalf("%q: %v", src, err)
				}
			}
		}
		for _, c := range invalid {
			for _, src := range []string{strings.ReplaceAll(c.doc, "W", run), fill(c.doc)} {
				want := strings.Index(src, "§")
				src = strings.Replace(src, "§", "", 1)
				if want < 0 {
					want = len(src)
				}
				var tape backend.Tape
				err := (scalar.Parser{}).Parse([]byte(src), &tape)
				var se *backend.SyntaxError
				if !errors.As(err, &se) || se.Msg != c.msg || se.Offset != int64(want) {
					t.Fatalf("%q: %v, want %q at byte offset %d", src, err, c.msg, want)
				}
			}
		}
	}
}

// replaceEach replaces each W of doc with the next string from run.
func replaceEach(doc string, run func() string) string {
	var b strings.Builder
	for _, c := range doc {
		if c == 'W' {
			b.WriteString(run())
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}
