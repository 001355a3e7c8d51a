package rescan

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
)

func TestInputString(t *testing.T) {
	for _, tc := range []struct {
		in    string
		ok    bool
		class backend.Class
		chars int
	}{
		{"", true, backend.ClassASCII, 0},
		{"plain ascii text longer than eight", true, backend.ClassASCII, 34},
		{"caf\u00e9", true, backend.ClassLatin1, 4},
		{"\u0100", true, backend.ClassBMP, 1},
		{"ascii-run-then-\u20ac-euro", true, backend.ClassBMP, 21},
		{"\U0001F600 and more text", true, backend.ClassAstral, 15},
		{"\x7f del is fine", true, backend.ClassASCII, 13},
		{"ctrl \x1f", false, 0, 0},
		{"tab\there", false, 0, 0},
		{"quote\"", false, 0, 0},
		{"12345678back\\slash", false, 0, 0},
		{"\xff", false, 0, 0},
		{"\xc0\x80", false, 0, 0},              // overlong NUL
		{"\xe0\x80\x80", false, 0, 0},          // overlong
		{"\xed\xa0\x80", false, 0, 0},          // raw surrogate
		{"\xf4\x90\x80\x80", false, 0, 0},      // above U+10FFFF
		{"\xf0\x80\x80\x80", false, 0, 0},      // overlong
		{"trunc\xe2\x82", false, 0, 0},         // truncated
		{"stray\x80continuation", false, 0, 0}, // stray continuation
	} {
		c, chars, ok := InputString([]byte(tc.in))
		if ok != tc.ok || ok && (c != tc.class || chars != tc.chars) {
			t.Errorf("InputString(%q) = %v, %d, %v; want %v, %d, %v", tc.in, c, chars, ok, tc.class, tc.chars, tc.ok)
		}
	}
}

// TestInputStringAgreesWithUTF8 checks the SWAR scan against the standard
// library on every single byte and on runs around the 8-byte boundary.
func TestInputStringAgreesWithUTF8(t *testing.T) {
	for b := 0; b < 256; b++ {
		for pad := 0; pad < 10; pad++ {
			s := make([]byte, 0, 20)
			for range pad {
				s = append(s, 'a')
			}
			s = append(s, byte(b), 'z')
			_, chars, ok := InputString(s)
			want := utf8.Valid(s) && b >= 0x20 && b != '"' && b != '\\'
			if ok != want || ok && chars != utf8.RuneCount(s) {
				t.Errorf("InputString(%q) = %d, %v; want ok %v", s, chars, ok, want)
			}
		}
	}
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		ok      bool
		clean   bool
		class   backend.Class
	}{
		{`a\/b`, "a/b", true, true, backend.ClassASCII},
		{`\"`, `"`, true, false, backend.ClassASCII},
		{`\\`, `\`, true, false, backend.ClassASCII},
		{`\n\t\r\b\f`, "\n\t\r\b\f", true, false, backend.ClassASCII},
		{`\u0041`, "A", true, true, backend.ClassASCII},
		{`\u0022`, `"`, true, false, backend.ClassASCII},
		{`\u005C`, `\`, true, false, backend.ClassASCII},
		{`\u0000`, "\x00", true, false, backend.ClassASCII},
		{`\u00e9`, "\u00e9", true, true, backend.ClassLatin1},
		{`\u20AC`, "\u20ac", true, true, backend.ClassBMP},
		{`\ud83d\ude00`, "\U0001F600", true, true, backend.ClassAstral},
		{"caf\u00e9 \\n", "caf\u00e9 \n", true, false, backend.ClassLatin1},
		{`\ud800`, "", false, false, 0},
		{`\ud800x`, "", false, false, 0},
		{`\ud800\u0041`, "", false, false, 0},
		{`\ud800\ud800`, "", false, false, 0},
		{`\udc00`, "", false, false, 0},
		{`\x`, "", false, false, 0},
		{`\u12`, "", false, false, 0},
		{`\u12g4`, "", false, false, 0},
		{`\`, "", false, false, 0},
		{"\\n\x01", "", false, false, 0},
		{"\\n\xff", "", false, false, 0},
		{"\\n\xed\xa0\x80", "", false, false, 0},
	} {
		out, c, chars, clean, ok := Unescape(nil, []byte(tc.in))
		if ok != tc.ok {
			t.Errorf("Unescape(%q) ok = %v, want %v", tc.in, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if string(out) != tc.out || clean != tc.clean || c != tc.class || chars != utf8.RuneCountInString(tc.out) {
			t.Errorf("Unescape(%q) = %q, class %v, chars %d, clean %v; want %q, %v, %v", tc.in, out, c, chars, clean, tc.out, tc.class, tc.clean)
		}
		// encoding/json decodes every accepted body to the same text.
		var want string
		if err := json.Unmarshal([]byte(`"`+tc.in+`"`), &want); err != nil || want != string(out) {
			t.Errorf("Unescape(%q) = %q; encoding/json says %q (%v)", tc.in, out, want, err)
		}
	}
}

func TestStringEnd(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`"abc"`, 4},
		{`"a\"b"`, 5},
		{`"a\\"b"`, 4},
		{`"a\\\"b"`, 7},
		{`""`, 1},
		{`"\\\\"`, 5},
		{`"abc`, -1},
		{`"ab\"`, -1},
	} {
		if got := StringEnd([]byte(tc.in), 0); got != tc.want {
			t.Errorf("StringEnd(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestAppendNumber(t *testing.T) {
	big := func(s string) func(*backend.Tape) bool {
		return func(tp *backend.Tape) bool {
			r := tp.Ref(0)
			return tp.Kind(0) == backend.KindBigInt && r.Storage == backend.StorageInput && r.Where == 0 && r.Len == len(s)
		}
	}
	num := func(k backend.Kind, bits uint64) func(*backend.Tape) bool {
		return func(tp *backend.Tape) bool { return tp.Kind(0) == k && tp.Words[1] == bits && tp.Len() == 2 }
	}
	fl := func(s string) func(*backend.Tape) bool {
		f, _ := strconv.ParseFloat(s, 64)
		return num(backend.KindFloat, math.Float64bits(f))
	}
	for _, tc := range []struct {
		in    string
		check func(*backend.Tape) bool // nil: rejected
	}{
		{"0", num(backend.KindInt, 0)},
		{"-0", num(backend.KindInt, 0)},
		{"-0.0", num(backend.KindFloat, math.Float64bits(math.Copysign(0, -1)))},
		{"123", num(backend.KindInt, 123)},
		{"-123", num(backend.KindInt, uint64(1<<64-123))},
		{"9223372036854775807", num(backend.KindInt, math.MaxInt64)},
		{"9223372036854775808", num(backend.KindUint, 1<<63)},
		{"-9223372036854775808", num(backend.KindInt, 1<<63)},
		{"-9223372036854775809", big("-9223372036854775809")},
		{"18446744073709551615", num(backend.KindUint, math.MaxUint64)},
		{"18446744073709551616", big("18446744073709551616")},
		{"99999999999999999999", big("99999999999999999999")},
		{"123456789012345678901234567890", big("123456789012345678901234567890")},
		{"1e2", fl("1e2")},
		{"1E+2", fl("1E+2")},
		{"1.5e-3", fl("1.5e-3")},
		{"1e-400", num(backend.KindFloat, 0)},
		{"-1e-400", num(backend.KindFloat, math.Float64bits(math.Copysign(0, -1)))},
		{"2.2250738585072011e-308", fl("2.2250738585072011e-308")},
		{"9007199254740993", num(backend.KindInt, 9007199254740993)},
		{"9007199254740993.0", fl("9007199254740993.0")},
		{"0.1000000000000000055511151231257827021181583404541015625", fl("0.1000000000000000055511151231257827021181583404541015625")},
		{"1" + strings.Repeat("0", 307), big("1" + strings.Repeat("0", 307))},
		{"-1" + strings.Repeat("0", 308), big("-1" + strings.Repeat("0", 308))},
		{"17976931348623157" + strings.Repeat("0", 292), big("17976931348623157" + strings.Repeat("0", 292))},
		{"17976931348623159" + strings.Repeat("0", 292), nil},
		{"1" + strings.Repeat("0", 309), nil},
		{"-1" + strings.Repeat("0", 400), nil},
		{"1e400", nil},
		{"-1e400", nil},
		{"01", nil},
		{"-01", nil},
		{"-01.5", nil},
		{"1.", nil},
		{".5", nil},
		{"1e", nil},
		{"1e+", nil},
		{"+1", nil},
		{"-", nil},
		{"1.5.3", nil},
		{"0x10", nil},
		{"Infinity", nil},
	} {
		var tp backend.Tape
		ok := AppendNumber(&tp, []byte(tc.in), 0, len(tc.in))
		switch {
		case ok != (tc.check != nil):
			t.Errorf("AppendNumber(%q) ok = %v", tc.in, ok)
		case ok && !tc.check(&tp):
			t.Errorf("AppendNumber(%q) wrote %x", tc.in, tp.Words)
		}
	}
}

// TestFloatsAgreeWithStrconv checks the fast path and the fallback bit for
// bit against strconv.ParseFloat on seeded random texts of every shape.
func TestFloatsAgreeWithStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		if b[0] == '0' && n > 1 {
			b[0] = '1' + byte(r.IntN(9))
		}
		return string(b)
	}
	for range 200000 {
		s := digits(1 + r.IntN(20))
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		if r.IntN(3) > 0 {
			s += "." + digits(1+r.IntN(18))
		}
		if r.IntN(2) == 0 || !strings.Contains(s, ".") {
			s += []string{"e", "E", "e+", "e-", "E-"}[r.IntN(5)] + strconv.Itoa(r.IntN(330))
		}
		want, err := strconv.ParseFloat(s, 64)
		var tp backend.Tape
		ok := AppendNumber(&tp, []byte(s), 0, len(s))
		if ok != (err == nil || !math.IsInf(want, 0)) {
			t.Fatalf("%s: ok = %v, strconv says %v", s, ok, err)
		}
		if ok && tp.Words[1] != math.Float64bits(want) {
			t.Fatalf("%s = %v, want %v", s, tp.Float(0), want)
		}
	}
}
