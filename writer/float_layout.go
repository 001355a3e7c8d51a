package writer

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"
)

// appendFloatBits is appendFloat of the float64 whose bits are u, as the
// tape stores it; the caller has reserved maxFloatLen bytes. It is one call
// to the kernel (float_kernel_*.go), small enough to be inlined.
func appendFloatBits(dst []byte, u uint64) []byte {
	l := len(dst)
	return dst[:l+appendFloatKernel(&dst[l : l+maxFloatLen][0], u)]
}

// appendFloatTo is appendFloatGo writing at dst, which has maxFloatLen
// bytes, and returning the length: the kernel's fallback, and the kernel
// itself where there is none.
func appendFloatTo(dst *byte, u uint64) int {
	return len(appendFloatGo(unsafe.Slice(dst, maxFloatLen)[:0], u))
}

// appendFloatGo is appendFloat of the float64 whose bits are u, as the
// tape stores it: the portable formatter, which appendFloatBits runs where
// there is no kernel (float_kernel_*.go) and for what the kernel leaves.
// The digits are laid out with fixed-size stores that may write past the
// final length but stay within the maxFloatLen bytes the caller reserved.
//
// This is the path of normal values with a non-zero fraction field, which
// fastDigits decides: their shortest decimals have 16 or 17 digits
// (counting trailing zeros), and they are laid out without branches on
// the digit count (it follows the value's position within its binade,
// 65.1 giving 16 digits and 41.1 17, so data such as canada.json mixes
// them) nor on the sign. Everything else goes to appendFloatRare.
func appendFloatGo(dst []byte, u uint64) []byte {
	bq := u >> 52 & 0x7ff
	t := u & (1<<52 - 1)
	if bq-1 >= 0x7fe || t == 0 {
		return appendFloatRare(dst, u) // zero, subnormal, NaN, ±Inf, power of two
	}
	m, div10, e, ok := fastDigits(1<<52|t, int(bq)-1075)
	if !ok {
		return appendFloatRare(dst, u)
	}
	l := len(dst)
	s := (*[maxFloatLen]byte)(dst[l : l+maxFloatLen])
	// The sign is written always and kept or not by where the digits
	// start: a branch on it mispredicts on data with mixed signs.
	s[0] = '-'
	neg := int(u >> 63)
	o := (*[maxFloatLen - 1]byte)(s[neg&1:])
	l += neg

	// m×10^e, 10^15 <= m < 10^17, in appendFloat's layout at o. The
	// digits are top (0 for 16 digits), then two groups of eight, w0 and
	// w1, as strings (first digit in the low byte), stored at a place
	// that depends on the layout. The indices are masked to 31 (they are
	// at most 25 by construction, and 31+8 fits o), which lets the
	// compiler drop the bounds checks. (The layout is in this function
	// rather than a callee: a second call costs more than a tenth of the
	// float.)
	//
	// The split at 10^8 comes from floor(X/10), which is ready before m:
	// m is 10×floor(X/10) plus 0 to 10, so m's own split is the same but
	// when floor(X/10) ends in 9999999 and m carries over (0.3 does).
	hi := div10 / 1e7
	lo := m - hi*1e8
	if lo >= 1e8 {
		hi++
		lo -= 1e8
	}
	top := uint64(uint32(hi) / 1e8) // hi < 10^9 fits 32 bits
	b0, b1 := bcd8(hi-top*1e8), bcd8(lo)
	big := int(top+15) >> 4 // 1 for 17 digits (top is 0 to 9)
	n := 16 + big
	// Trailing zero digits, from the zero bytes at the low end of the
	// BCD words. (b1, the last eight digits, is 0 only for decimals of
	// at most nine digits, 0.1 or 12.25, which come in runs when they
	// come: the branch costs less than counting without it.)
	tz := bits.TrailingZeros64(b1) >> 3
	if b1 == 0 {
		tz = 8 + bits.TrailingZeros64(b0)>>3
	}
	w0 := bits.ReverseBytes64(b0) | asciiZeros
	w1 := bits.ReverseBytes64(b1) | asciiZeros
	first := byte('0' + top)
	p := n + e // the decimal point's position in the digits
	switch {
	case p > 0 && p <= 16:
		o[0] = first // overwritten by w0 for 16 digits
		put8(o, big, w0)
		put8(o, big+8, w1)
		if e+tz >= 0 {
			// An integer (p <= 16 with n >= 16 means e <= 0, so no
			// zeros to append): ".0" replaces the first of the zero
			// digits after the point.
			o[p&31] = '.'
			o[(p+1)&31] = '0'
			return dst[:l+p+2]
		}
		// The point inside the digits: the digits from p on, which are
		// those of w0w1 from pp on, again one byte further. The pair
		// of words to shift is chosen with a mask, not a branch (the
		// point's place varies with the data).
		pp := p - big // 0 to 15
		hiHalf := -uint64(pp >> 3)
		x0 := w0 ^ (w0^w1)&hiHalf // w1 when pp >= 8
		x1 := w1 &^ hiHalf        // 0 when pp >= 8
		r := uint(pp&7) * 8
		put8(o, p+1, x0>>r|x1<<(63-r)<<1) // two shifts: r = 0 shifts x1 out whole
		put8(o, p+9, x1>>r)
		o[p&31] = '.'
		return dst[:l+n-tz+1]
	case p > -5 && p <= 0:
		// "0." then -p zeros then the digits.
		put8(o, 0, 0x3030303030302e30) // "0.000000"
		at := 2 - p
		o[at&31] = first // overwritten by w0 for 16 digits
		put8(o, at+big, w0)
		put8(o, at+big+8, w1)
		return dst[:l+at+n-tz]
	}
	// d[.ddd]e±x: the digits one byte further, then the first one moved
	// in front of the point.
	o[1] = first
	put8(o, 1+big, w0)
	put8(o, 9+big, w1)
	d := byte(w0)
	if big != 0 {
		d = first
	}
	o[0] = d
	o[1] = '.'
	k := n - tz + 1
	if n-tz == 1 {
		k = 1 // a single digit: no point
	}
	return dst[:l+appendExponent(o[:], k, p-1)]
}

// put8 stores v little-endian at o[i:i+8], i < 32.
func put8(o *[maxFloatLen - 1]byte, i int, v uint64) {
	binary.LittleEndian.PutUint64(o[i&31:], v)
}

// appendFloatRare is appendFloatGo for the values fastDigits does not
// take: NaN and ±Inf (null), zeros, subnormals, powers of two, and its rare
// undecided cases.
func appendFloatRare(dst []byte, u uint64) []byte {
	if u&(0x7ff<<52) == 0x7ff<<52 {
		return append(dst, "null"...)
	}
	l := len(dst)
	s := dst[l : l+maxFloatLen]
	s[0] = '-'
	neg := int(u >> 63)
	out := s[neg:]
	if u<<1 == 0 {
		out[0], out[1], out[2] = '0', '.', '0'
		return dst[:l+neg+3]
	}
	m, e := shortestDecimal(math.Float64frombits(u &^ (1 << 63)))
	return dst[:l+neg+layoutDecimal(out, m, e)]
}

// bcd8 returns the eight decimal digits of x < 10^8 as byte values 0-9,
// the last digit in the low byte. Each step splits every lane of the
// previous one in two, quotient to the upper half and remainder to the
// lower: y + (2^w - d)×(y/d) = (y/d)<<w + y%d takes both in one multiply
// and one add, y/d itself being a multiply and a shift.
func bcd8(x uint64) uint64 {
	// x/10^4 = x×109951163>>40 for x < 10^8 (109951163 = ceil(2^40/10^4);
	// the excess, below 2.1e-5, never reaches the next integer): one
	// multiply by an immediate.
	x += (1<<32 - 10000) * (x * 109951163 >> 40)
	// Lanes of 32 bits, y < 10^4: y/100 = y×5243>>19.
	x += (1<<16 - 100) * (x * 5243 >> 19 & 0x0000007f_0000007f)
	// Lanes of 16 bits, y < 100: y/10 = y×103>>10.
	x += (1<<8 - 10) * (x * 103 >> 10 & 0x000f_000f_000f_000f)
	return x
}

// appendExponent writes "e±x" for the decimal exponent x at out[k:] and
// returns the end.
func appendExponent(out []byte, k, x int) int {
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
		return k + 1
	case x < 100:
		out[k] = digitPairs[2*x]
		out[k+1] = digitPairs[2*x+1]
		return k + 2
	}
	out[k] = byte('0' + x/100)
	x %= 100
	out[k+1] = digitPairs[2*x]
	out[k+2] = digitPairs[2*x+1]
	return k + 3
}

// layoutDecimal writes m×10^e (m > 0, at most 17 digits) in appendFloat's
// layout at out and returns the length: the general case, for m of any
// digit count (integers, subnormals). out has maxFloatLen-1 bytes.
func layoutDecimal(out []byte, m uint64, e int) int {
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
	case m < 1e16:
		hi := m / 1e8
		v0, v1 := digits8(hi), digits8(m-hi*1e8)
		n = 8 + decimalLen(hi)
		tz = trailingZeroDigits(v0, v1)
		lz := uint(16-n) * 8
		w0, w1 := v0|asciiZeros, v1|asciiZeros
		d0 = w0>>lz | w1<<(64-lz) // for lz == 0 the left shift is by 64: 0
		d1 = w1 >> lz
	default:
		hi := m / 1e8
		top := hi / 1e8
		v0, v1 := digits8(hi-top*1e8), digits8(m-hi*1e8)
		n = 17
		tz = trailingZeroDigits(v0, v1)
		w0, w1 := v0|asciiZeros, v1|asciiZeros
		d0 = w0<<8 | ('0' + top)
		d1 = w1<<8 | w0>>56
		d2 = w1 >> 56
	}
	p := n + e // the decimal point's position in the digits
	switch {
	case e+tz >= 0 && p <= 16:
		// An integer: m's digits, e zeros, ".0". (With e < 0, m's
		// trailing zeros run past the point, which overwrites the
		// first of them.)
		put24(out, d0, d1, d2)
		for i := n; i < p; i++ {
			out[i] = '0'
		}
		out[p] = '.'
		out[p+1] = '0'
		return p + 2
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
		return n - tz + 1
	case p > -5 && p <= 0:
		// "0." then -p zeros then the digits.
		binary.LittleEndian.PutUint64(out, 0x3030303030302e30) // "0.000000"
		put24(out[2-p:], d0, d1, d2)
		return 2 - p + n - tz
	}
	// d[.ddd]e±x: the first digit, then the rest shifted down one byte.
	put24(out[2:], d0>>8|d1<<56, d1>>8|d2<<56, d2>>8)
	out[0] = byte(d0)
	k := 1
	if n-tz > 1 {
		out[1] = '.'
		k = n - tz + 1
	}
	return appendExponent(out, k, p-1)
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
