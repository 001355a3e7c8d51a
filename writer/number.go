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

// copy16 copies 16 bytes with two 8-byte moves (an array assignment would
// call memmove).
func copy16(dst, src []byte) {
	_, _ = dst[15], src[15]
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
}
