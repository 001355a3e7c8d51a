package rescan

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// NumberEnd returns the index just past the JSON number that starts at
// src[i], following the grammar
//
//	'-'? ('0' | [1-9][0-9]*) ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?
//
// and whether it is a float (has a fraction or an exponent). ok is false when
// src[i:] does not start with a number. It does not look at what follows.
func NumberEnd(src []byte, i int) (end int, float, ok bool) {
	n := len(src)
	if i < n && src[i] == '-' {
		i++
	}
	switch {
	case i < n && src[i] == '0':
		i++
	case i < n && src[i] >= '1' && src[i] <= '9':
		i++
		for i < n && src[i]-'0' < 10 {
			i++
		}
	default:
		return i, false, false
	}
	if i < n && src[i] == '.' {
		i++
		if i >= n || src[i]-'0' >= 10 {
			return i, true, false
		}
		for i < n && src[i]-'0' < 10 {
			i++
		}
		float = true
	}
	if i < n && src[i]|0x20 == 'e' {
		i++
		if i < n && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= n || src[i]-'0' >= 10 {
			return i, true, false
		}
		for i < n && src[i]-'0' < 10 {
			i++
		}
		float = true
	}
	return i, float, true
}

// AppendNumber appends to t the entry the scalar parser makes for the number
// text src[off:end], which must be exactly one JSON number: Int when it fits
// int64 ("-0" is Int 0), Uint up to MaxUint64, BigInt (a ref to the digits in
// the input) beyond, and Float, correctly rounded, when it has a fraction or
// an exponent. ok is false when the text is not a JSON number or is one that
// overflows to infinity as a float64 (orjson's test, also for integers).
func AppendNumber(t *backend.Tape, src []byte, off, end int) bool {
	e, float, ok := NumberEnd(src, off)
	if !ok || e != end {
		return false
	}
	if float {
		text := src[off:end]
		f, exact := clinger(text)
		if !exact {
			var err error
			f, err = strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), 64)
			if err != nil && math.IsInf(f, 0) {
				return false
			}
		}
		t.AppendNumber(backend.KindFloat, math.Float64bits(f))
		return true
	}
	i, neg := off, false
	if src[i] == '-' {
		i, neg = i+1, true
	}
	// Up to 19 digits always fit in a uint64; the 20th needs an overflow check.
	var v uint64
	digits := end - i
	if digits > 20 {
		return appendBigInt(t, src, off, end)
	}
	for ; i < end; i++ {
		d := uint64(src[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			return appendBigInt(t, src, off, end)
		}
		v = v*10 + d
	}
	switch {
	case neg && v <= 1<<63:
		t.AppendNumber(backend.KindInt, -v)
	case neg:
		return appendBigInt(t, src, off, end)
	case v <= math.MaxInt64:
		t.AppendNumber(backend.KindInt, v)
	default:
		t.AppendNumber(backend.KindUint, v)
	}
	return true
}

// appendBigInt appends the integer src[off:end], beyond 64 bits. orjson
// converts such integers to float and rejects them when that is infinite
// (309 digits or more can be); the decision is kept, and the digits too.
func appendBigInt(t *backend.Tape, src []byte, off, end int) bool {
	if end-off >= 309 {
		text := src[off:end]
		if f, _ := strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), 64); math.IsInf(f, 0) {
			return false
		}
	}
	t.AppendRef(backend.KindBigInt, backend.Ref{
		Storage: backend.StorageInput, Class: backend.ClassASCII, Clean: true, Len: end - off, Where: uint64(off),
	})
	return true
}

// exactPow10 holds the powers of ten that a float64 represents exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// clinger converts the valid JSON float text when its digits form an
// integer of at most 2^53 and its decimal exponent is within ±22: both are
// then exact float64s and one multiplication or division rounds correctly
// (Clinger's fast path), giving strconv.ParseFloat's result. exact is false
// otherwise, and the caller uses strconv.ParseFloat.
func clinger(text []byte) (f float64, exact bool) {
	i, neg := 0, false
	if text[0] == '-' {
		i, neg = 1, true
	}
	var man uint64
	digits, exp := 0, 0
	for ; i < len(text) && text[i]-'0' < 10; i++ {
		man = man*10 + uint64(text[i]-'0')
		digits++
	}
	if i < len(text) && text[i] == '.' {
		for i++; i < len(text) && text[i]-'0' < 10; i++ {
			man = man*10 + uint64(text[i]-'0')
			digits++
			exp--
		}
	}
	if digits > 19 { // man may have overflowed
		return 0, false
	}
	if i < len(text) { // the exponent: [eE][+-]?digits
		i++
		eneg := false
		if text[i] == '+' || text[i] == '-' {
			eneg = text[i] == '-'
			i++
		}
		if len(text)-i > 4 {
			return 0, false
		}
		e := 0
		for ; i < len(text); i++ {
			e = e*10 + int(text[i]-'0')
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if man > 1<<53 || exp < -22 || exp > 22 {
		return 0, false
	}
	f = float64(man)
	if exp < 0 {
		f /= exactPow10[-exp]
	} else {
		f *= exactPow10[exp]
	}
	if neg {
		f = -f
	}
	return f, true
}
