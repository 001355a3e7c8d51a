package scalar

import (
	"math"
	"math/bits"
)

//go:generate go run gen_powers.go

// eiselLemire converts man × 10^exp10 (man of at most 19 decimal digits, so
// exact in a uint64) to the nearest float64, or reports ok=false when the
// 128-bit approximation cannot decide the rounding or the result is out of the
// normal range; the caller then falls back to strconv.ParseFloat, which is
// exact. This is Go's strconv implementation of Daniel Lemire's algorithm
// ("Number Parsing at a Gigabyte per Second", 2021), ported because strconv
// keeps it internal and would make us scan the digits a second time.
func eiselLemire(man uint64, exp10 int, neg bool) (f float64, ok bool) {
	if man == 0 {
		if neg {
			f = math.Copysign(0, -1)
		}
		return f, true
	}
	if exp10 < powersMinExp10 || exp10 > powersMaxExp10 {
		return 0, false
	}
	// Normalize the mantissa; 217706>>16 approximates log2(10).
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	const bias = 1023
	retExp2 := uint64(217706*exp10>>16+64+bias) - uint64(clz)

	pow := &powersOfTen[exp10-powersMinExp10]
	xHi, xLo := bits.Mul64(man, pow[1])
	// The upper 64 bits of the product may be off by one: widen with the
	// low half of the power when the truncated bits are all ones.
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, pow[0])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	// Shift to 54 bits, then round to 53.
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	// A halfway case the approximation cannot break.
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false
	}
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2++
	}
	// Subnormal (retExp2 <= 0) or infinite (>= 0x7FF): let strconv decide.
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	retBits := retExp2<<52 | retMantissa&(1<<52-1)
	if neg {
		retBits |= 1 << 63
	}
	return math.Float64frombits(retBits), true
}
