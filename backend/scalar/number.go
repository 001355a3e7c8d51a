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
// This is the fast path for the common shapes, taken from 8-byte loads when
// the input has 16 bytes at the first digit (24 for long integers) and 16
// after the '.': an integer of 1..19 digits (ids, counts, timestamps)
// converted a word at a time, without a loop or a branch per digit, and a
// float of up to 15 integer and 15 fraction digits, 19 in all, without
// exponent (coordinates, prices), whose mantissa is then exact. Everything
// else (no digit, a leading zero, longer numbers, exponents, the input's
// last bytes, every error) starts over in scanNumberGeneral, which knows
// the whole grammar.
//
// In a word w of input bytes, d = w - '0' in every byte holds the digits'
// values and nonDigits(d) flags the first non-digit: its trailing-zero
// count over 8 is the number k of digits, which selects the multiplier
// that converts them (digitsLow) and the byte after them, with no branch
// per digit and no variable shift.
func scanNumber(src []byte, start int, t *backend.Tape) (int, error) {
	i := start
	var sign uint64 // all ones for '-': (man^sign)-sign is -man
	if src[i] == '-' {
		i++
		sign = ^uint64(0)
	}
	// With i >= 0 stated, the compiler drops every bounds check below.
	if i < 0 || i > len(src)-16 {
		return scanNumberGeneral(src, start, t)
	}
	window := src[i:]
	w := load64(window, 0)
	d := w - ones*'0'
	// Each shape ends on its own (no values merged from two branches, which
	// costs register moves and spills on the way to a common return).
	if m := nonDigits(d); m != 0 { // 0..7 digits
		k := uint(bits.TrailingZeros64(m)) >> 3
		if k == 0 || byte(w) == '0' && k > 1 { // no digit; a leading zero
			return scanNumberGeneral(src, start, t)
		}
		man := digitsLow(d, k)
		if after := window[k]; after == '.' || after|0x20 == 'e' {
			return scanFraction(src, start, i+int(k), int(k), man, t)
		}
		appendNumber(t, backend.KindInt, (man^sign)-sign)
		return i + int(k), nil
	}
	if byte(w) == '0' {
		return scanNumberGeneral(src, start, t)
	}
	d2 := load64(window, 8) - ones*'0'
	m2 := nonDigits(d2)
	if m2 == 0 {
		return scanLongInteger(src, start, i, digitsBinary(d)*1e8+digitsBinary(d2), t)
	}
	k := uint(bits.TrailingZeros64(m2)) >> 3 // 8..15 digits in all
	man := digitsBinary(d)*pow10u[k] + digitsLow(d2, k)
	if after := window[(8+k)&15]; after == '.' || after|0x20 == 'e' {
		return scanFraction(src, start, i+8+int(k), 8+int(k), man, t)
	}
	appendNumber(t, backend.KindInt, (man^sign)-sign) // below 10^16: an Int
	return i + 8 + int(k), nil
}

// scanFraction goes on with scanNumber's number when src[i] after its k
// integer digits (of value man) is '.', 'e' or 'E': a fraction of 1..15
// digits is read with the same two loads after the '.', then the number is
// converted. Exponents are the general path's work.
func scanFraction(src []byte, start, i, k int, man uint64, t *backend.Tape) (int, error) {
	if src[i] != '.' || i+1 > len(src)-16 {
		return scanNumberGeneral(src, start, t)
	}
	i++
	window := src[i:] // known to hold 16 bytes: no bounds checks below
	d := load64(window, 0) - ones*'0'
	var after byte
	var frac uint
	if m := nonDigits(d); m != 0 {
		frac = uint(bits.TrailingZeros64(m)) >> 3
		if frac == 0 {
			return scanNumberGeneral(src, start, t)
		}
		man = man*pow10u[frac] + digitsLow(d, frac)
		after = window[frac]
	} else {
		d2 := load64(window, 8) - ones*'0'
		m2 := nonDigits(d2)
		if m2 == 0 {
			return scanLongFraction(src, start, i, k, (man*1e8+digitsBinary(d))*1e8+digitsBinary(d2), t)
		}
		k2 := uint(bits.TrailingZeros64(m2)) >> 3
		man = (man*1e8+digitsBinary(d))*pow10u[k2] + digitsLow(d2, k2)
		after = window[(8+k2)&15]
		frac = 8 + k2
	}
	// With at most maxManDigits digits in all (leading zeros included) man
	// is exact; more, or an exponent, is the general path's work.
	if after|0x20 == 'e' || k+int(frac) > maxManDigits {
		return scanNumberGeneral(src, start, t)
	}
	i += int(frac)
	// Below 10^15 the value is finite: no infinity check.
	var f float64
	if man < 1<<53 { // Clinger: frac <= 15 is within float64pow10
		f = float64(man) / float64pow10[frac&15]
	} else {
		ok := false
		if f, ok = eiselLemire(man, -int(frac), false); !ok {
			return appendOpenFraction(src, start, i, man, -int(frac), t)
		}
	}
	if src[start] == '-' {
		f = -f
	}
	appendNumber(t, backend.KindFloat, math.Float64bits(f))
	return i, nil
}

// scanLongFraction goes on with scanFraction's number when the 16 bytes
// after its '.' at src[i-1] are all digits (full-precision floats such as
// 0.5449953131301234), of value man with the k integer digits: a third word
// holds the fraction's last 0..3 digits, up to maxManDigits in all, and
// Eisel-Lemire converts the exact mantissa. More digits, an exponent, or an
// input too short for the third load start over in scanNumberGeneral.
// (The caller's man cannot overflow: k+16 <= maxManDigits is checked here
// before it is used.)
func scanLongFraction(src []byte, start, i, k int, man uint64, t *backend.Tape) (int, error) {
	if i < 0 || i > len(src)-24 || k+16 > maxManDigits {
		return scanNumberGeneral(src, start, t)
	}
	d := load64(src, i+16) - ones*'0'
	m := nonDigits(d)
	if m == 0 {
		return scanNumberGeneral(src, start, t)
	}
	k3 := uint(bits.TrailingZeros64(m)) >> 3
	frac := 16 + int(k3)
	if after := src[i+frac]; after|0x20 == 'e' || k+frac > maxManDigits {
		return scanNumberGeneral(src, start, t)
	}
	man = man*pow10u[k3] + digitsLow(d, k3)
	i += frac
	f, ok := eiselLemire(man, -frac, false)
	if !ok {
		return appendOpenFraction(src, start, i, man, -frac, t)
	}
	if src[start] == '-' {
		f = -f
	}
	appendNumber(t, backend.KindFloat, math.Float64bits(f))
	return i, nil
}

// scanLongInteger goes on with scanNumber's integer at src[i] (after the
// sign) whose first 16 bytes are digits, of value man, with a third word:
// 16..19 digits make a 64-bit integer (twitter's ids); anything longer, or
// a fraction or exponent after them, starts over in scanNumberGeneral.
func scanLongInteger(src []byte, start, i int, man uint64, t *backend.Tape) (int, error) {
	if i > len(src)-24 {
		return scanNumberGeneral(src, start, t)
	}
	d := load64(src, i+16) - ones*'0'
	m := nonDigits(d)
	if m == 0 {
		return scanNumberGeneral(src, start, t)
	}
	k := uint(bits.TrailingZeros64(m)) >> 3
	digits := 16 + int(k)
	if after := src[i+digits]; after == '.' || after|0x20 == 'e' || digits > maxManDigits {
		return scanNumberGeneral(src, start, t)
	}
	man = man*pow10u[k] + digitsLow(d, k)
	i += digits
	return i, appendInteger(src, start, i, man, digits, src[start] == '-', t)
}

// scanNumberGeneral is scanNumber for every input: it walks the grammar
// bytewise for short integer parts and eight bytes at a time for long runs,
// and goes to numberError for anything odd.
func scanNumberGeneral(src []byte, start int, t *backend.Tape) (int, error) {
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
		} else if f, ok = eiselLemire(man, exp10, false); !ok {
			f, ok = exactFraction(man, exp10)
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

// exactFraction converts man × 10^exp10 when that is a float64 exactly and
// man is not (man >= 2^53): integral floats and halves beyond 2^52 written
// with a fraction (7422897187548245.0, 1264229076346934.5), which
// Eisel–Lemire leaves open (the truncated power of ten puts the product just
// below a representable value) and which strconv would then convert through
// its decimal fallback, thousands of instructions. Taken only when
// Eisel–Lemire has failed: the fraction's trailing zeros are dropped, and
// what is left, man / 10^k = (man / 5^k) / 2^k, is exact when 5^k divides
// man and the quotient has at most 53 bits (a division by a power of two is
// exact in the normal range). ok is false for anything else.
func exactFraction(man uint64, exp10 int) (f float64, ok bool) {
	for exp10 < 0 && man%10 == 0 {
		man /= 10
		exp10++
	}
	if exp10 == 0 {
		return float64(man), true // a uint64 converts correctly rounded
	}
	if exp10 > 0 || -exp10 >= len(pow5u) {
		return 0, false
	}
	k := -exp10
	if man%pow5u[k] != 0 {
		return 0, false
	}
	if q := man / pow5u[k]; q < 1<<53 {
		return float64(q) / float64(uint64(1)<<k), true
	}
	return 0, false
}

// appendOpenFraction appends the float src[start:i] of mantissa man and
// exponent exp10 (unsigned) that Eisel–Lemire left open: exactFraction's if
// it is exact, else strconv's. Not inlined: in scanFraction's and
// scanLongFraction's code its calls cost every float they convert (canada
// +0.6%), where this path is taken by a few in a thousand.
//
//go:noinline
func appendOpenFraction(src []byte, start, i int, man uint64, exp10 int, t *backend.Tape) (int, error) {
	f, ok := exactFraction(man, exp10)
	if !ok {
		f = parseFloatSlow(src[start:i]) // signed
	} else if src[start] == '-' {
		f = -f
	}
	appendNumber(t, backend.KindFloat, math.Float64bits(f))
	return i, nil
}

// pow5u are the powers of five a uint64 holds: 5^27 < 2^64 < 5^28.
var pow5u = func() (p [28]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 5
	}
	return p
}()

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

// pow10u are the powers of ten below 10^8: a value followed by k (0..7)
// more digits is value*pow10u[k] + their value.
var pow10u = [8]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7}

// leadingDigits counts the ASCII digits at the start of w (0 to 8).
func leadingDigits(w uint64) int {
	return bits.TrailingZeros64(nonDigits(w-ones*'0')) >> 3
}

// nonDigits flags (in each byte's high bit) the bytes of d = w - ones*'0'
// that were not ASCII digits in w; only the lowest flag is exact. Below the
// first non-digit every byte of d is its digit's value 0..9 (digits do not
// borrow), which stays below 0x80 when 0x76 is added; a byte that was above
// '9' reaches 0x80 either way (d >= 0x80 already, or 0x0A..0x7F + 0x76),
// and one below '0' wrapped to 0xD0..0xFF. Carries and borrows only start
// at a flagged byte.
func nonDigits(d uint64) uint64 {
	return (d + ones*0x76 | d) & highs
}

// digitsValue is the value of the first k (0..8) digits of w (ASCII). The
// subtraction of '0' cannot disturb the digits: a borrow only moves up,
// from a byte below '0' to the bytes above it.
func digitsValue(w uint64, k int) uint64 {
	return digitsLow(w-ones*'0', uint(k))
}

// digitsLow is the value of the first k (0..8) digits of d (input bytes
// less '0', first in the low byte). Shifted up by 8-k bytes, the k digits
// would be on top with zeros below them, which add nothing to digitsBinary;
// as a product wraps around like a shift, the shift is folded into the
// first multiplier instead (digitsScale[k] is 1+10<<8 shifted up by 8-k
// bytes), with no variable shift and the bytes above the digits (whatever
// the subtraction made of them) dropped off the top.
func digitsLow(d uint64, k uint) uint64 {
	return digitsPairs(d * digitsScale[k&15] >> 8)
}

// digitsScale are digitsLow's first multipliers by digit count; 16 entries,
// so that a count masked with 15 needs no bounds check.
var digitsScale = [16]uint64{
	0, (1 + 10<<8) << 56 & math.MaxUint64, (1 + 10<<8) << 48, (1 + 10<<8) << 40,
	(1 + 10<<8) << 32, (1 + 10<<8) << 24, (1 + 10<<8) << 16, (1 + 10<<8) << 8, 1 + 10<<8,
}

// eightDigits converts eight ASCII digits (first digit in the low byte).
func eightDigits(w uint64) uint64 { return digitsBinary(w - ones*'0') }

// digitsBinary converts eight decimal digits held as byte values 0..9
// (first digit in the low byte) with three multiply-and-shift steps instead
// of eight: each multiplier adds a lane times 10^n into the lane above it,
// pairing digits (10a+b in each byte), then pairs (100p+q in each 16-bit
// lane), then groups of four (10^4 g+h); no lane overflows, so the masks
// only drop the halves already counted.
func digitsBinary(d uint64) uint64 { return digitsPairs(d * (1 + 10<<8) >> 8) }

// digitsPairs finishes digitsBinary from the pairs of digits in the even
// bytes.
func digitsPairs(d uint64) uint64 {
	d = (d & 0x00FF00FF00FF00FF) * (1 + 100<<16) >> 16
	return (d & 0x0000FFFF0000FFFF) * (1 + 10000<<32) >> 32
}
