package reference

import (
	"math"
	"strconv"
	"strings"
)

// formatFloat returns f as orjson writes a float: NaN and ±Inf as null (as
// orjson does), zeros as 0.0 and -0.0, and otherwise the shortest digits
// that read back as f, laid out by where the decimal point falls.
//
// With the digits d1 d2 ... dn and the point after the first kk of them
// (f = 0.d1...dn × 10^kk):
//
//	kk from n to 16      the digits, kk-n zeros, ".0"        1e15 → 1000000000000000.0
//	kk from 1 to 16      the first kk digits, ".", the rest  12.34
//	kk from -4 to 0      "0.", -kk zeros, the digits         0.00001234
//	otherwise            d1, "." and d2...dn when n > 1,     1e+16, 1.5e-7
//	                     "e", the sign, kk-1 without padding
//
// The digits are strconv's shortest round-trip digits ('e' format, precision
// -1): the fewest that parse back to f, the closest to f among those, which
// is what orjson's formatter produces too.
func formatFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	// "d.ddde±XX": the digits around the point, and the exponent of the
	// first digit.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mantissa, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mantissa, ".", "", 1)
	x, err := strconv.Atoi(exp)
	if err != nil {
		panic("reference writer: strconv wrote " + e)
	}
	n, kk := len(digits), x+1
	switch {
	case n <= kk && kk <= 16:
		return sign + digits + strings.Repeat("0", kk-n) + ".0"
	case 0 < kk && kk <= 16:
		return sign + digits[:kk] + "." + digits[kk:]
	case -5 < kk && kk <= 0:
		return sign + "0." + strings.Repeat("0", -kk) + digits
	default:
		mantissa := digits[:1]
		if n > 1 {
			mantissa += "." + digits[1:]
		}
		exponent := strconv.Itoa(kk - 1)
		if kk-1 >= 0 {
			exponent = "+" + exponent
		}
		return sign + mantissa + "e" + exponent
	}
}
