package conformance

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// randomDoc writes a random JSON document of bounded size: every kind of
// value, integers at the 64-bit edges and beyond, floats from random bits,
// strings mixing ASCII, Latin-1, BMP and astral code points with every escape
// form, and random RFC 8259 whitespace. The same seed gives the same text.
func randomDoc(r *rand.Rand) []byte {
	g := generator{r: r, budget: 40 + r.IntN(400)}
	g.value(0)
	return g.buf
}

type generator struct {
	r      *rand.Rand
	buf    []byte
	budget int // values left to write
}

func (g *generator) space() {
	for g.r.IntN(4) == 0 {
		g.buf = append(g.buf, " \t\n\r"[g.r.IntN(4)])
	}
}

func (g *generator) value(depth int) {
	g.budget--
	g.space()
	kind := g.r.IntN(10)
	if depth > 12 || g.budget <= 0 {
		kind = 2 + g.r.IntN(8) // scalars only
	}
	switch kind {
	case 0, 1:
		open, close := byte('['), byte(']')
		obj := kind == 1
		if obj {
			open, close = '{', '}'
		}
		g.buf = append(g.buf, open)
		n := g.r.IntN(6)
		for k := 0; k < n; k++ {
			if k > 0 {
				g.space()
				g.buf = append(g.buf, ',')
			}
			if obj {
				g.space()
				g.str()
				g.space()
				g.buf = append(g.buf, ':')
			}
			g.value(depth + 1)
		}
		g.space()
		g.buf = append(g.buf, close)
	case 2:
		g.buf = append(g.buf, []string{"null", "true", "false"}[g.r.IntN(3)]...)
	case 3, 4:
		g.integer()
	case 5, 6:
		g.float()
	default:
		g.str()
	}
	g.space()
}

var edgeIntegers = []string{"0", "-0", "1", "-1", "9007199254740992", "9007199254740993", "-9007199254740993",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551615", "18446744073709551616", "-18446744073709551616", "123456789012345678901234567890"}

func (g *generator) integer() {
	switch g.r.IntN(4) {
	case 0:
		g.buf = append(g.buf, edgeIntegers[g.r.IntN(len(edgeIntegers))]...)
	case 1:
		g.buf = strconv.AppendInt(g.buf, g.r.Int64()>>g.r.IntN(64), 10)
	case 2:
		g.buf = strconv.AppendUint(g.buf, g.r.Uint64(), 10)
	default:
		if g.r.IntN(2) == 0 {
			g.buf = append(g.buf, '-')
		}
		g.buf = append(g.buf, byte('1'+g.r.IntN(9)))
		for n := g.r.IntN(40); n > 0; n-- {
			g.buf = append(g.buf, byte('0'+g.r.IntN(10)))
		}
	}
}

func (g *generator) float() {
	switch g.r.IntN(3) {
	case 0: // any finite float64, shortest or with extra digits
		f := math.Float64frombits(g.r.Uint64())
		for math.IsInf(f, 0) || math.IsNaN(f) {
			f = math.Float64frombits(g.r.Uint64())
		}
		prec := -1
		if g.r.IntN(3) == 0 {
			prec = 17 + g.r.IntN(10)
		}
		g.buf = strconv.AppendFloat(g.buf, f, "eEg"[g.r.IntN(3)], prec, 64)
		// 'g' may print an integer ("100"): keep it a float.
		if isInteger(lastNumber(g.buf)) {
			g.buf = append(g.buf, ".0"...)
		}
	case 1: // decimal text with many digits
		if g.r.IntN(2) == 0 {
			g.buf = append(g.buf, '-')
		}
		g.buf = strconv.AppendInt(g.buf, int64(g.r.IntN(1000)), 10)
		g.buf = append(g.buf, '.')
		for n := 1 + g.r.IntN(30); n > 0; n-- {
			g.buf = append(g.buf, byte('0'+g.r.IntN(10)))
		}
	default: // small mantissa, wide exponent (subnormals, underflow)
		g.buf = strconv.AppendInt(g.buf, int64(g.r.IntN(100000)), 10)
		g.buf = append(g.buf, "eE"[g.r.IntN(2)])
		if g.r.IntN(2) == 0 {
			g.buf = append(g.buf, []string{"", "+"}[g.r.IntN(2)]...)
			g.buf = strconv.AppendInt(g.buf, int64(g.r.IntN(300)), 10)
		} else {
			g.buf = append(g.buf, '-')
			g.buf = strconv.AppendInt(g.buf, int64(g.r.IntN(340)), 10)
		}
	}
}

func lastNumber(b []byte) string {
	i := len(b)
	for i > 0 && (b[i-1] == '-' || b[i-1] == '+' || b[i-1] == '.' || b[i-1] == 'e' || b[i-1] == 'E' || b[i-1] >= '0' && b[i-1] <= '9') {
		i--
	}
	return string(b[i:])
}

func (g *generator) str() {
	g.buf = append(g.buf, '"')
	for n := g.r.IntN(24); n > 0; n-- {
		var c rune
		switch g.r.IntN(8) {
		case 0:
			c = rune(0x80 + g.r.IntN(0x80))
		case 1:
			c = rune(0x100 + g.r.IntN(0xD800-0x100))
		case 2:
			c = rune(0x10000 + g.r.IntN(0x100000))
		case 3:
			c = rune(g.r.IntN(0x20))
		default:
			c = rune(0x20 + g.r.IntN(0x60))
		}
		switch {
		case c < 0x20 || c == '"' || c == '\\' || g.r.IntN(10) == 0:
			if e := shortEscape(c); e != 0 && g.r.IntN(2) == 0 {
				g.buf = append(g.buf, '\\', e)
			} else if c >= 0x10000 {
				hi, lo := 0xD800+(c-0x10000)>>10, 0xDC00+(c-0x10000)&0x3FF
				g.buf = append(g.buf, `\u`+hex4(hi)+`\u`+hex4(lo)...)
			} else {
				g.buf = append(g.buf, `\u`+hex4(c)...)
			}
		default:
			g.buf = utf8.AppendRune(g.buf, c)
		}
	}
	g.buf = append(g.buf, '"')
}

func shortEscape(c rune) byte {
	switch c {
	case '"', '\\', '/':
		return byte(c)
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	}
	return 0
}

// hex4 is c as four hex digits, upper or lower case.
func hex4(c rune) string {
	s := strconv.FormatInt(int64(c)|0x10000, 16)[1:]
	if c&1 == 0 {
		s = strings.ToUpper(s)
	}
	return s
}
