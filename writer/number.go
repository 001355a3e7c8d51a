package writer

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// digitPairs holds "00".."99" so that integers are written two digits at a
// time.
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// decimalLen returns the number of decimal digits of v (1 for 0).
func decimalLen(v uint64) int {
	// bits.Len64 gives log2; ×1233>>12 approximates log10(2) and one
	// comparison corrects it.
	n := (bits.Len64(v) * 1233) >> 12
	if n < len(pow10u64) && v >= pow10u64[n] {
		n++
	}
	return max(n, 1)
}

var pow10u64 = [...]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// putDigits writes the n decimal digits of v into b[:n] (n = decimalLen(v)
// or more, for leading zeros).
func putDigits(b []byte, v uint64, n int) {
	_ = b[n-1]
	for v >= 100 {
		q := v / 100
		r := v - q*100
		n -= 2
		b[n] = digitPairs[2*r]
		b[n+1] = digitPairs[2*r+1]
		v = q
	}
	if v >= 10 {
		n -= 2
		b[n] = digitPairs[2*v]
		b[n+1] = digitPairs[2*v+1]
	} else {
		n--
		b[n] = byte('0' + v)
	}
	for n > 0 {
		n--
		b[n] = '0'
	}
}

// appendUint appends the decimal digits of v.
func appendUint(dst []byte, v uint64) []byte {
	if v < 10 {
		return append(dst, byte('0'+v))
	}
	n := decimalLen(v)
	l := len(dst)
	dst = dst[:l+n]
	putDigits(dst[l:], v, n)
	return dst
}

// appendInt appends the decimal digits of v with a leading '-' when negative.
func appendInt(dst []byte, v int64) []byte {
	if v < 0 {
		dst = append(dst, '-')
		return appendUint(dst, -uint64(v))
	}
	return appendUint(dst, uint64(v))
}

// maxFloatLen bounds appendFloat's output: "-0.00000" + 17 digits, or
// "-d.dddddddddddddddde-324".
const maxFloatLen = 32

// appendFloat appends f as orjson 3.13 does: the shortest digits that read
// back as f, NaN and ±Inf as null, and this layout (measured on orjson): with
// the decimal point at position p of the digit string (value =
// 0.d1d2... × 10^p), fixed notation when -5 < p <= 16 (integers get ".0"),
// otherwise d.ddde±x. So 1e16 is "1e+16", 1e15 "1000000000000000.0",
// 1e-5 "0.00001" and 1e-6 "1e-6". The caller has reserved maxFloatLen bytes.
func appendFloat(dst []byte, f float64) []byte { return appendFloatBits(dst, math.Float64bits(f)) }

// digits8 returns the eight decimal digits of x < 10^8, leading zeros
// included, as byte values 0-9 with the first digit in the lowest byte:
// two multiply-shift rounds split 4+4 then 2+2+2+2 then 1×8 digits in SIMD
// lanes of one register, instead of eight divisions.
func digits8(x uint64) uint64 {
	// Lanes of 32 bits: x/10^4 and x%10^4.
	hi := x / 10000
	v := hi | (x-hi*10000)<<32
	// Per lane y < 10^4: y/100 = y×10486>>20.
	q := (v * 10486 >> 20) & 0x0000007f0000007f
	v = q | (v-q*100)<<16
	// Per 16-bit lane y < 100: y/10 = y×103>>10.
	q = (v * 103 >> 10) & 0x000f000f000f000f
	return q | (v-q*10)<<8
}

const asciiZeros = 0x3030303030303030

// appendFloatBits is appendFloat of the float64 whose bits are u, as the
// tape stores it.
func appendFloatBits(dst []byte, u uint64) []byte {
	if u&(0x7ff<<52) == 0x7ff<<52 {
		return append(dst, "null"...)
	}
	if u>>63 != 0 {
		dst = append(dst, '-')
	}
	if u<<1 == 0 {
		return append(dst, "0.0"...)
	}
	m, e := shortestDecimal(math.Float64frombits(u &^ (1 << 63)))
	// m has at most 17 digits: one on its own, then two groups of eight.
	top := m / 1e16
	rest := m - top*1e16
	a := rest / 1e8
	w0, w1 := digits8(a), digits8(rest-a*1e8)
	// Digits count and trailing zeros from the zero bytes of the groups.
	var n, tz int
	switch {
	case top != 0:
		n = 17
	case w0 != 0:
		n = 16 - bits.TrailingZeros64(w0)>>3
	default:
		n = 8 - bits.TrailingZeros64(w1)>>3
	}
	if w1 != 0 {
		tz = bits.LeadingZeros64(w1) >> 3
	} else if w0 != 0 {
		tz = 8 + bits.LeadingZeros64(w0)>>3
	} else {
		tz = 16
	}
	var s [24]byte
	s[7] = byte('0' + top)
	binary.LittleEndian.PutUint64(s[8:], w0|asciiZeros)
	binary.LittleEndian.PutUint64(s[16:], w1|asciiZeros)
	d := s[24-n : 24-tz]
	e += tz
	n -= tz
	p := n + e
	l := len(dst)
	switch {
	case e >= 0 && p <= 16:
		// Integer: digits, e zeros, ".0".
		dst = append(dst, d...)
		dst = dst[:l+p+2]
		for i := l + n; i < l+p; i++ {
			dst[i] = '0'
		}
		dst[l+p] = '.'
		dst[l+p+1] = '0'
	case p > 0 && p <= 16:
		// Point inside the digits.
		dst = append(dst, d[:p]...)
		dst = append(dst, '.')
		dst = append(dst, d[p:]...)
	case p > -5 && p <= 0:
		// "0." then -p zeros then the digits.
		dst = append(dst, "0.0000"[:2-p]...)
		dst = append(dst, d...)
	default:
		// d[.ddd]e±x
		dst = append(dst, d[0])
		if n > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		x := p - 1
		if x < 0 {
			dst = append(dst, 'e', '-')
			x = -x
		} else {
			dst = append(dst, 'e', '+')
		}
		dst = appendUint(dst, uint64(x))
	}
	return dst
}
