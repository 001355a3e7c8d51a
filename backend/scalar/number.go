package scalar

import (
	"math"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// maxManDigits is how many significant decimal digits always fit a uint64.
const maxManDigits = 19

// float64pow10 are the powers of ten a float64 holds exactly (Clinger's fast
// path: a mantissa below 2^53 times or divided by one is correctly rounded).
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// scanNumber reads the number at src[start] (whose first byte is '-', a digit,
// '+' or '.': orjson routes all four here, and reports the last two as
// "no digit after sign"), appends its entry and returns the index past it.
//
// An integer becomes Int, Uint (above MaxInt64) or, beyond 64 bits, BigInt
// digits pointing into src. A number with a fraction or exponent becomes a
// correctly rounded Float. Like orjson, a number whose float value is
// infinite is rejected, integers included.
func scanNumber(src []byte, start int, t *backend.Tape) (int, error) {
	n := len(src)
	i := start
	neg := src[i] == '-'
	if neg {
		i++
		if i >= n {
			return 0, failEnd(src)
		}
	}
	var (
		man    uint64 // the first maxManDigits significant digits
		digits int    // significant digits seen (leading zeros excluded)
		exp10  int    // man × 10^exp10 is the value, when digits <= maxManDigits
	)
	switch c := src[i]; {
	case c == '0':
		i++
		if i < n && src[i]-'0' < 10 {
			return 0, fail(src, i-1, backend.MsgLeadingZero)
		}
	case c-'1' < 9:
		i, man, digits = digitRun(src, i, 0, 0)
		exp10 = digits - min(digits, maxManDigits) // dropped integer digits
	default:
		return 0, fail(src, i, backend.MsgNoDigitAfterSign)
	}
	intDigits := digits
	isFloat := false
	if i < n && src[i] == '.' {
		isFloat = true
		i++
		if i >= n {
			return 0, failEnd(src)
		}
		if src[i]-'0' >= 10 {
			return 0, fail(src, i, backend.MsgNoDigitAfterDot)
		}
		if digits == 0 { // 0.000ddd: leading zeros only scale
			z := i
			for i < n && src[i] == '0' {
				i++
			}
			exp10 -= i - z
		}
		before := digits
		i, man, digits = digitRun(src, i, man, digits)
		exp10 -= min(digits, maxManDigits) - min(before, maxManDigits)
	}
	if i < n && src[i]|0x20 == 'e' {
		isFloat = true
		i++
		if i >= n {
			return 0, failEnd(src)
		}
		eneg := false
		if c := src[i]; c == '+' || c == '-' {
			eneg = c == '-'
			i++
			if i >= n {
				return 0, failEnd(src)
			}
		}
		if src[i]-'0' >= 10 {
			return 0, fail(src, i, backend.MsgNoDigitAfterExponent)
		}
		e := 0
		for ; i < n; i++ {
			d := src[i] - '0'
			if d > 9 {
				break
			}
			if e < 1_000_000 { // far beyond any float; stops overflow
				e = e*10 + int(d)
			}
		}
		if eneg {
			e = -e
		}
		exp10 += e
	}
	if !isFloat {
		return i, appendInteger(src, start, i, man, intDigits, neg, t)
	}

	var f float64
	ok := false
	if digits <= maxManDigits {
		if man == 0 {
			f, ok = 0, true
		} else if man < 1<<53 && exp10 >= -22 && exp10 <= 22 {
			f = float64(man)
			if exp10 >= 0 {
				f *= float64pow10[exp10]
			} else {
				f /= float64pow10[-exp10]
			}
			ok = true
		} else {
			f, ok = eiselLemire(man, exp10, false)
		}
		if neg {
			f = -f
		}
	}
	if !ok {
		// More than 19 digits, or a case Eisel–Lemire leaves open: strconv
		// is exact. The text is syntactically valid, so only the range can
		// be wrong, and overflow is checked below.
		f, _ = strconv.ParseFloat(unsafe.String(&src[start], i-start), 64)
	}
	if math.IsInf(f, 0) {
		return 0, fail(src, start, backend.MsgInfinity)
	}
	reserveWords(t, backend.NumberWords)
	t.Words = append(t.Words, uint64(backend.KindFloat)<<backend.KindShift, math.Float64bits(f))
	return i, nil
}

// appendInteger appends the integer src[start:end] (no fraction or exponent),
// whose first digits are man, with digits significant digits in all.
func appendInteger(src []byte, start, end int, man uint64, digits int, neg bool, t *backend.Tape) error {
	if digits <= maxManDigits {
		switch {
		case !neg && man <= math.MaxInt64:
			appendNumber(t, backend.KindInt, man)
			return nil
		case !neg:
			appendNumber(t, backend.KindUint, man)
			return nil
		case man <= 1<<63: // -0 is Int 0, as orjson returns int 0
			appendNumber(t, backend.KindInt, -man)
			return nil
		}
	} else if !neg && digits == maxManDigits+1 {
		if u, ok := parseUint64(src[start:end]); ok {
			appendNumber(t, backend.KindUint, u)
			return nil
		}
	}
	// Beyond 64 bits. orjson converts such integers to float and rejects
	// them when that is infinite; the decision is kept, the digits too.
	if digits >= 309 {
		if digits > 309 {
			return fail(src, start, backend.MsgInfinity)
		}
		if f, _ := strconv.ParseFloat(unsafe.String(&src[start], end-start), 64); math.IsInf(f, 0) {
			return fail(src, start, backend.MsgInfinity)
		}
	}
	reserveWords(t, backend.RefWords)
	t.Words = append(t.Words,
		backend.RefHeader(backend.KindBigInt, backend.StorageInput, backend.ClassASCII, backend.WidthUTF8, true, end-start),
		uint64(start), 0)
	return nil
}

func appendNumber(t *backend.Tape, k backend.Kind, bits uint64) {
	reserveWords(t, backend.NumberWords)
	t.Words = append(t.Words, uint64(k)<<backend.KindShift, bits)
}

// parseUint64 parses decimal digits, reporting overflow.
func parseUint64(b []byte) (uint64, bool) {
	var u uint64
	for _, c := range b {
		hi, lo := bits.Mul64(u, 10)
		if hi != 0 {
			return 0, false
		}
		lo += uint64(c - '0')
		if lo < uint64(c-'0') {
			return 0, false
		}
		u = lo
	}
	return u, true
}

// pow10u are the powers of ten a uint64 holds.
var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19}

// digitRun consumes the run of decimal digits at src[i:], appending them to
// man while it holds fewer than maxManDigits; digits counts every digit seen
// (those beyond maxManDigits are dropped from man). It returns the index past
// the run and the new man and digits. Eight bytes are examined at a time:
// the leading digits of a word are converted at once.
func digitRun(src []byte, i int, man uint64, digits int) (int, uint64, int) {
	n := len(src)
	for i+8 <= n {
		w := load64(src, i)
		k := leadingDigits(w)
		if digits+k > maxManDigits {
			break
		}
		man = man*pow10u[k] + digitsValue(w, k)
		digits += k
		i += k
		if k < 8 {
			return i, man, digits
		}
	}
	for ; i < n; i++ {
		d := src[i] - '0'
		if d > 9 {
			break
		}
		if digits < maxManDigits {
			man = man*10 + uint64(d)
		}
		digits++
	}
	return i, man, digits
}

// leadingDigits counts the ASCII digits at the start of w (0 to 8). A byte
// above '9' reaches the high bit when 0x46 is added (or has it already); a
// byte below '0' borrows when 0x30 is subtracted. Carries and borrows only
// start at a flagged byte, so the lowest flag is exact.
func leadingDigits(w uint64) int {
	above := w + ones*0x46 | w
	below := (w - ones*0x30) &^ w
	return bits.TrailingZeros64((above|below)&highs) >> 3
}

// digitsValue is the value of the first k (0..8) digits of w: they are
// shifted to the top bytes and the rest filled with '0', which adds nothing.
func digitsValue(w uint64, k int) uint64 {
	if k == 0 {
		return 0
	}
	s := uint(8-k) * 8
	return eightDigits(w<<s | ones*'0'&(1<<s-1))
}

// eightDigits converts eight ASCII digits (first digit in the low byte) to
// their value with three multiply-and-shift steps instead of eight.
func eightDigits(w uint64) uint64 {
	w -= ones * '0'
	w = (w * 10) + (w >> 8) // pairs
	w = ((w&0x000000FF000000FF)*(100+(1000000<<32)) + ((w>>16)&0x000000FF000000FF)*(1+(10000<<32))) >> 32
	return w
}
