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

// appendUint appends the decimal digits of v. The caller has reserved 24
// bytes: groups of eight digits are stored whole (digits8), the first group
// shifted so that its leading zeros fall off.
func appendUint(dst []byte, v uint64) []byte {
	l := len(dst)
	out := dst[l : l+24]
	if v < 1e8 {
		n := decimalLen(v)
		binary.LittleEndian.PutUint64(out, (digits8(v)|asciiZeros)>>(64-8*n))
		return dst[:l+n]
	}
	if v < 1e16 {
		hi := v / 1e8
		if hi < 100 {
			// 9 or 10 digits (ids, timestamps in seconds): the one or
			// two leading digits from the pair table, no second
			// digits8 and no digit count.
			lo := digits8(v-hi*1e8) | asciiZeros
			n := 1
			if hi < 10 {
				out[0] = byte('0' + hi)
			} else {
				out[0], out[1] = digitPairs[2*hi], digitPairs[2*hi+1]
				n = 2
			}
			binary.LittleEndian.PutUint64(out[n:], lo)
			return dst[:l+n+8]
		}
		n := decimalLen(hi)
		binary.LittleEndian.PutUint64(out, (digits8(hi)|asciiZeros)>>(64-8*n))
		binary.LittleEndian.PutUint64(out[n:], digits8(v-hi*1e8)|asciiZeros)
		return dst[:l+n+8]
	}
	top := v / 1e16 // at most 1844
	rest := v - top*1e16
	hi := rest / 1e8
	n := decimalLen(top)
	binary.LittleEndian.PutUint64(out, (digits8(top)|asciiZeros)>>(64-8*n))
	binary.LittleEndian.PutUint64(out[n:], digits8(hi)|asciiZeros)
	binary.LittleEndian.PutUint64(out[n+8:], digits8(rest-hi*1e8)|asciiZeros)
	return dst[:l+n+16]
}

// appendInt appends the decimal digits of v with a leading '-' when
// negative. The caller has reserved 25 bytes.
func appendInt(dst []byte, v int64) []byte {
	if v < 0 {
		dst = append(dst, '-')
		return appendUint(dst, -uint64(v))
	}
	return appendUint(dst, uint64(v))
}

// maxFloatLen is the room appendFloat needs: its output is at most 24 bytes
// ("-d.dddddddddddddddde-324"), and its block copies write up to 40 bytes
// past the sign.
const maxFloatLen = 41

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
	// x < 10^8 fits 32 bits, where the division is one multiply.
	hi := uint64(uint32(x) / 10000)
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
// tape stores it. The digits are laid out with fixed-size block copies
// (they compile to a few 8- and 16-byte moves) that may write past the
// final length but stay within the maxFloatLen bytes the caller reserved.
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
	// m's n digits as a little-endian byte string in registers d0, d1, d2
	// (first digit in d0's low byte, zero bytes after the last digit), and
	// tz, the number of its trailing '0' digits. Everything stays in
	// registers: storing the groups and reloading them at an unaligned
	// offset would stall on store forwarding.
	var d0, d1, d2 uint64
	var n, tz int
	switch {
	case m < 1e8:
		v := digits8(m)
		n = decimalLen(m)
		tz = bits.LeadingZeros64(v) >> 3
		d0 = (v | asciiZeros) >> uint(64-8*n)
	case m < 1e15:
		hi := m / 1e8
		v0, v1 := digits8(hi), digits8(m-hi*1e8)
		n = 8 + decimalLen(hi)
		tz = trailingZeroDigits(v0, v1)
		lz := uint(16-n) * 8
		w0, w1 := v0|asciiZeros, v1|asciiZeros
		d0 = w0>>lz | w1<<(64-lz) // for lz == 0 the left shift is by 64: 0
		d1 = w1 >> lz
	default: // 16 or 17 digits, the common case for data such as coordinates
		// Whether m has 16 or 17 digits follows the value's position
		// within its binade (65.1 gives 16 digits, 41.1 gives 17), so a
		// branch on it mispredicts on mixed data (canada.json alternates
		// them): both are split as 17 digits, and the leading digit (0
		// for 16 digits) is dropped with a shift and a mask instead.
		// The first split is the 64-bit division; the second fits 32
		// bits (hi < 10^9), a shorter dependency chain than m/10^16 first.
		hi := m / 1e8
		top := uint64(uint32(hi) / 1e8)
		v0, v1 := digits8(hi-top*1e8), digits8(m-hi*1e8)
		big := lessEq(1e16, m) // 1 for 17 digits
		n = 16 + int(big)
		tz = trailingZeroDigits(v0, v1)
		w0, w1 := v0|asciiZeros, v1|asciiZeros
		sh, keep := uint(8*big)&63, -big // the mask drops the code for shifts of 64 or more
		d0 = w0<<sh | ('0'+top)&keep
		d1 = w1<<sh | (w0>>56)&keep
		d2 = (w1 >> 56) & keep
	}
	p := n + e // the decimal point's position in the digits
	l := len(dst)
	out := dst[l : l+maxFloatLen-1]
	switch {
	case e+tz >= 0 && p <= 16:
		// An integer: m's digits, e zeros (e > 0 only just below 10^16),
		// ".0". (With e < 0, m's trailing zeros run past the point, which
		// overwrites the first of them.)
		put24(out, d0, d1, d2)
		for i := n; i < p; i++ {
			out[i] = '0'
		}
		out[p] = '.'
		out[p+1] = '0'
		return dst[:l+p+2]
	case p > 0 && p <= 16:
		// The point inside the digits: d[:p] "." d[p:], the second part
		// being the digit string shifted down by p bytes.
		put24(out, d0, d1, d2)
		var a, b uint64
		if p < 8 {
			r := uint(8 * p)
			a, b = d0>>r|d1<<(64-r), d1>>r|d2<<(64-r)
		} else {
			r := uint(8 * (p - 8))
			a, b = d1>>r|d2<<(64-r), d2>>r
		}
		binary.LittleEndian.PutUint64(out[p+1:], a)
		binary.LittleEndian.PutUint64(out[p+9:], b)
		out[p] = '.'
		return dst[:l+n-tz+1]
	case p > -5 && p <= 0:
		// "0." then -p zeros then the digits.
		binary.LittleEndian.PutUint64(out, 0x3030303030302e30) // "0.000000"
		put24(out[2-p:], d0, d1, d2)
		return dst[:l+2-p+n-tz]
	}
	// d[.ddd]e±x: the first digit, then the rest shifted down one byte.
	put24(out[2:], d0>>8|d1<<56, d1>>8|d2<<56, d2>>8)
	out[0] = byte(d0)
	k := 1
	if n-tz > 1 {
		out[1] = '.'
		k = n - tz + 1
	}
	x := p - 1
	out[k] = 'e'
	out[k+1] = '+'
	if x < 0 {
		out[k+1] = '-'
		x = -x
	}
	k += 2
	switch {
	case x < 10:
		out[k] = byte('0' + x)
		k++
	case x < 100:
		out[k] = digitPairs[2*x]
		out[k+1] = digitPairs[2*x+1]
		k += 2
	default:
		out[k] = byte('0' + x/100)
		x %= 100
		out[k+1] = digitPairs[2*x]
		out[k+2] = digitPairs[2*x+1]
		k += 3
	}
	return dst[:l+k]
}

// trailingZeroDigits counts the trailing zero digits of the 16 digit
// values in v0 (first eight) and v1 (last eight), from their zero bytes.
func trailingZeroDigits(v0, v1 uint64) int {
	if v1 != 0 {
		return bits.LeadingZeros64(v1) >> 3
	}
	return 8 + bits.LeadingZeros64(v0)>>3
}

// put24 stores three words at b[0:24].
func put24(b []byte, a, c, d uint64) {
	_ = b[23]
	binary.LittleEndian.PutUint64(b, a)
	binary.LittleEndian.PutUint64(b[8:], c)
	binary.LittleEndian.PutUint64(b[16:], d)
}

// copy16 copies 16 bytes with two 8-byte moves (an array assignment would
// call memmove).
func copy16(dst, src []byte) {
	_, _ = dst[15], src[15]
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
}
