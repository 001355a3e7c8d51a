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
//
// The hot path only recognizes well-formed numbers; anything odd goes to
// numberError, which walks the grammar again to name the error.
func scanNumber(src []byte, start int, t *backend.Tape) (int, error) {
	n := len(src)
	i := start
	neg := src[i] == '-'
	if neg {
		i++
	}
	// Digits are accumulated without overflow checks: while there are at
	// most maxManDigits significant ones, man is exact.
	var man uint64
	intStart := i
	// Short integer parts (most floats, small counts) go bytewise; long
	// ones (ids, timestamps) eight bytes at a time: whole words of digits,
	// then the run's last 1..7 digits converted at once.
	// The four bytes are unrolled from one resliced window when the input
	// has them (no loop counter, no bounds checks).
	if i+4 <= n {
		b := src[i : i+4 : i+4]
		d := b[0] - '0'
		if d > 9 {
			goto intDone
		}
		man = uint64(d)
		if d = b[1] - '0'; d > 9 {
			i++
			goto intDone
		}
		man = man*10 + uint64(d)
		if d = b[2] - '0'; d > 9 {
			i += 2
			goto intDone
		}
		man = man*10 + uint64(d)
		if d = b[3] - '0'; d > 9 {
			i += 3
			goto intDone
		}
		man = man*10 + uint64(d)
		i += 4
	} else {
		for ; i < n; i++ {
			d := src[i] - '0'
			if d > 9 {
				goto intDone
			}
			man = man*10 + uint64(d)
		}
		goto intDone
	}
	for i+8 <= n {
		w := load64(src, i)
		k := leadingDigits(w)
		if k == 8 {
			man = man*1e8 + eightDigits(w)
			i += 8
			continue
		}
		man = man*pow10u[k] + digitsValue(w, k)
		i += k
		goto intDone
	}
	for ; i < n; i++ {
		d := src[i] - '0'
		if d > 9 {
			break
		}
		man = man*10 + uint64(d)
	}
intDone:
	intDigits := i - intStart
	if intDigits == 0 || src[intStart] == '0' && intDigits > 1 {
		return 0, numberError(src, start)
	}
	if i == n || src[i] != '.' && src[i]|0x20 != 'e' {
		if intDigits < maxManDigits { // below 10^18: an Int
			if neg {
				man = -man
			}
			appendNumber(t, backend.KindInt, man)
			return i, nil
		}
		return i, appendInteger(src, start, i, man, intDigits, neg, t)
	}

	exp10 := 0
	digits := intDigits // significant digits (exact unless the integer part is 0)
	if src[i] == '.' {
		i++
		fracStart := i
		for i+8 <= n {
			w := load64(src, i)
			k := leadingDigits(w)
			if k == 8 {
				man = man*1e8 + eightDigits(w)
				i += 8
				continue
			}
			man = man*pow10u[k] + digitsValue(w, k)
			i += k
			goto fracDone
		}
		for ; i < n; i++ {
			d := src[i] - '0'
			if d > 9 {
				break
			}
			man = man*10 + uint64(d)
		}
	fracDone:
		frac := i - fracStart
		if frac == 0 {
			return 0, numberError(src, start)
		}
		exp10 = -frac
		digits += frac
		if src[intStart] == '0' {
			digits = significantDigits(src[fracStart:i])
		}
	}
	if i < n && src[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < n && (src[i] == '+' || src[i] == '-') {
			eneg = src[i] == '-'
			i++
		}
		expStart, e := i, 0
		for ; i < n; i++ {
			d := src[i] - '0'
			if d > 9 {
				break
			}
			if e < 1_000_000 { // far beyond any float; stops overflow
				e = e*10 + int(d)
			}
		}
		if i == expStart {
			return 0, numberError(src, start)
		}
		if eneg {
			e = -e
		}
		exp10 += e
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
		f = parseFloatSlow(src[start:i])
	}
	if math.IsInf(f, 0) {
		return 0, fail(src, start, backend.MsgInfinity)
	}
	appendNumber(t, backend.KindFloat, math.Float64bits(f))
	return i, nil
}

// parseFloatSlow converts numbers with more than 19 significant digits, or
// that Eisel–Lemire leaves open, with strconv, which is exact. The text is
// valid JSON, which strconv accepts; only the range can be wrong (±Inf).
//
//go:noinline
func parseFloatSlow(text []byte) float64 {
	f, _ := strconv.ParseFloat(unsafe.String(&text[0], len(text)), 64)
	return f
}

// significantDigits counts the digits of a fraction after its leading zeros.
func significantDigits(frac []byte) int {
	k := 0
	for k < len(frac) && frac[k] == '0' {
		k++
	}
	return len(frac) - k
}

// numberError names what is wrong with the number at src[start], as orjson
// does, walking its grammar byte by byte; the fast path got here because
// something did not fit.
//
//go:noinline
func numberError(src []byte, start int) error {
	n := len(src)
	i := start
	isDigit := func(i int) bool { return i < n && src[i]-'0' < 10 }
	if src[i] == '-' {
		i++
		if i >= n {
			return failEnd(src)
		}
	}
	switch {
	case src[i] == '0':
		if i++; isDigit(i) {
			return fail(src, i-1, backend.MsgLeadingZero)
		}
	case isDigit(i):
		for isDigit(i) {
			i++
		}
	default:
		return fail(src, i, backend.MsgNoDigitAfterSign)
	}
	if i < n && src[i] == '.' {
		if i++; i >= n {
			return failEnd(src)
		}
		if !isDigit(i) {
			return fail(src, i, backend.MsgNoDigitAfterDot)
		}
		for isDigit(i) {
			i++
		}
	}
	if i < n && src[i]|0x20 == 'e' {
		if i++; i < n && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= n {
			return failEnd(src)
		}
		if !isDigit(i) {
			return fail(src, i, backend.MsgNoDigitAfterExponent)
		}
	}
	panic("scalar: numberError called on a valid number")
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
	put3(t, backend.RefHeader(backend.KindBigInt, backend.StorageInput, backend.ClassASCII, backend.WidthUTF8, true, end-start),
		uint64(start), 0)
	return nil
}

func appendNumber(t *backend.Tape, k backend.Kind, bits uint64) {
	put2(t, uint64(k)<<backend.KindShift, bits)
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

// pow10u are the powers of ten below 10^8, for digitsValue's results.
var pow10u = [8]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7}

// leadingDigits counts the ASCII digits at the start of w (0 to 8). A byte
// above '9' reaches the high bit when 0x46 is added (or has it already); a
// byte below '0' borrows when 0x30 is subtracted. Carries and borrows only
// start at a flagged byte, so the lowest flag is exact.
func leadingDigits(w uint64) int {
	above := w + ones*0x46 | w
	below := (w - ones*0x30) &^ w
	return bits.TrailingZeros64((above|below)&highs) >> 3
}

// digitsValue is the value of the first k (0..7) digits of w: they are
// shifted to the top bytes and the bytes below filled with '0', which add
// nothing to eightDigits' result.
func digitsValue(w uint64, k int) uint64 {
	s := uint(8-k) * 8 // 64 for k = 0: Go shifts everything out
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
