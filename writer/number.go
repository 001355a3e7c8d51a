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
// bytes.
func appendUint(dst []byte, v uint64) []byte { return appendDecimalInt(dst, v, 0) }

// appendInt appends the decimal digits of v with a leading '-' when
// negative. The caller has reserved 25 bytes.
func appendInt(dst []byte, v int64) []byte {
	neg := uint64(v) >> 63
	return appendDecimalInt(dst, (uint64(v)^-neg)+neg, neg)
}

// appendDecimalInt appends '-' if neg is 1, then the decimal digits of v;
// the caller has reserved 24+neg bytes. The sign is written always and
// kept or not by where the digits start, without a branch. Groups of
// eight digits are stored whole, the first group shifted so that its
// leading zeros fall off. The leading group of one or two digits, the
// commonest (counts, small keys; ids of 9-10 and 17-18 digits), comes
// from the pair table without a digit count.
func appendDecimalInt(dst []byte, v, neg uint64) []byte {
	l := len(dst)
	dst[l : l+24][0] = '-'
	l += int(neg)
	out := (*[24]byte)(dst[l : l+24])
	if v < 100 {
		return dst[:l+putPair(out, 0, v)]
	}
	if v < 1e8 {
		w, n := digitString(v)
		binary.LittleEndian.PutUint64(out[:], w)
		return dst[:l+n]
	}
	hi := v / 1e8
	lo := bits.ReverseBytes64(bcd8(v-hi*1e8)) | asciiZeros
	if hi < 1e8 { // 9 to 16 digits
		n := 0
		if hi < 100 {
			n = putPair(out, 0, hi)
		} else {
			var w uint64
			w, n = digitString(hi)
			binary.LittleEndian.PutUint64(out[:], w)
		}
		binary.LittleEndian.PutUint64(out[n&15:], lo)
		return dst[:l+n+8]
	}
	top := v / 1e16 // 1 to 1844, in parallel with hi
	mid := bits.ReverseBytes64(bcd8(hi-top*1e8)) | asciiZeros
	n := 0
	if top < 100 {
		n = putPair(out, 0, top)
	} else {
		var w uint64
		w, n = digitString(top)
		binary.LittleEndian.PutUint64(out[:], w)
	}
	binary.LittleEndian.PutUint64(out[n&7:], mid)
	binary.LittleEndian.PutUint64(out[n&7+8:], lo)
	return dst[:l+n+16]
}

// putPair writes the one or two digits of x < 100 at out[i:] and returns
// i plus their count. (A branch-free version, both bytes from the table,
// costs more than the branch mispredicts: the numbers of one field of a
// document tend to have one length.)
func putPair(out *[24]byte, i int, x uint64) int {
	if x < 10 {
		out[i&7] = byte('0' + x)
		return i + 1
	}
	out[i&7] = digitPairs[2*x]
	out[(i+1)&7] = digitPairs[2*x+1]
	return i + 2
}

// digitString returns the decimal digits of x < 10^8 as a string in a
// word (first digit in the low byte, zero bytes after the last) and their
// count (1 for 0).
func digitString(x uint64) (uint64, int) {
	b := bcd8(x)
	// Leading zero digits are the high zero bytes of b (at most 7: the
	// |1 keeps the last digit of 0).
	lz := bits.LeadingZeros64(b|1) >> 3
	return (bits.ReverseBytes64(b) | asciiZeros) >> (8 * lz & 63), 8 - lz
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

// copy16 copies 16 bytes with two 8-byte moves (an array assignment would
// call memmove).
func copy16(dst, src []byte) {
	_, _ = dst[15], src[15]
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
}
