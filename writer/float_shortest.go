package writer

import (
	"math"
	"math/bits"
)

// shortestDecimal returns the shortest decimal m×10^e that reads back as the
// finite, non-zero float64 f (sign ignored), choosing the closest such
// decimal and, on a tie, the even one: the digits of
// strconv.FormatFloat(f, 'e', -1, 64) and of Python's repr. m may end in
// zeros; the caller strips them.
//
// Integers below 2^53 are their own answer. Other normal values with a
// non-zero fraction field go through fastDecimal (one 64×128-bit product);
// the rest (subnormals, powers of two, and the rare values fastDecimal
// cannot decide) through the exact schubfach.
func shortestDecimal(f float64) (m uint64, e10 int) {
	u := math.Float64bits(f)
	t := u & (1<<52 - 1)
	bq := int(u>>52) & 0x7ff
	if bq == 0 {
		return schubfach(t, -1074)
	}
	c := 1<<52 | t
	q := bq - 1075
	if mq := uint(-q); mq-1 < 52 {
		// An integer below 2^53 is its own shortest decimal: its
		// neighbours are at most 1 away, so no shorter digit string
		// rounds back to it.
		if fi := c >> mq; fi<<mq == c {
			return fi, 0
		}
	}
	if t != 0 {
		if m, k, ok := fastDecimal(c, q); ok {
			return m, k
		}
	}
	return schubfach(c, q)
}

// fastDecimal is Schubfach's decision made from one product, in the way of
// yy's and Żmij's fast paths: for the normal value c×2^q with c > 2^52 (so
// that the rounding interval is symmetric) it computes X = c×2^q×10^-k,
// k = floor(log10(2^q)), to within 2^-64 from one 64×128-bit product. X
// has 16 or 17 integer digits, and the values that read back as c×2^q are
// those within H = 2^(q-1)×10^-k of X, with 0.5 <= H < 5. So:
//
//   - if a multiple of 10 lies within H of X, it is the answer (the
//     interval is narrower than 10, so there is at most one, and no
//     shorter decimal can be in it);
//   - otherwise the integer nearest to X is (H >= 0.5 puts it inside).
//
// Each decision compares two quantities known to a few units of 2^-60;
// when they are closer than the error bound (exact ties among them: X
// exactly between two integers, or an interval end exactly on a multiple
// of 10, where the parity of c decides), ok is false and the caller asks
// the exact algorithm. That happens for a tiny fraction of doubles, all
// with small binary exponents. When ok, (m, k) is exactly what schubfach
// returns.
func fastDecimal(c uint64, q int) (m uint64, k int, ok bool) {
	k = flog10pow2(q)
	// pow10Table holds g = 10^-k × 2^(125-flog2pow10(-k)) rounded up, 126
	// bits as two 63-bit halves; j = q + flog2pow10(-k) is 0 to 3 for
	// every normal exponent (the mask tells the compiler so).
	j := uint(q+flog2pow10(-k)) & 3
	g := &pow10Table[k-pow10KMin]
	// G = 4g as a 128-bit number, and X = (c << (j+1)) × G / 2^128: the
	// high word of the 192-bit product is X's integer part, the middle
	// word its fraction. The low word is dropped: X is under by less than
	// 2^-64 (and over by at most 2^-69, g being above the exact value).
	gHi, gLo := g[0]<<1|g[1]>>62, g[1]<<2
	cs := c << (j + 1)
	hi, mid := bits.Mul64(gHi, cs)
	carryIn, _ := bits.Mul64(gLo, cs)
	frac, carry := bits.Add64(mid, carryIn, 0)
	integral := hi + carry

	// In fixed point with 60 fraction bits: r = X mod 10 (under by less
	// than 1 unit, over by less than 2^-9) and half = H (under by less
	// than 2 units).
	lower := integral / 10 * 10 // the multiple of 10 at or below X
	r := (integral-lower)<<60 | frac>>4
	half := g[0] >> (3 - j)
	const ten = 10 << 60
	// Undecidable: r - half within [-4, 3] units (their true difference
	// is within 3 of the computed one), r + half - 10 within [-8, 7]
	// (within 4), or the fraction within 2 units of 2^-64 from one half
	// (within 1).
	if r-half+4 < 8 || r+half-ten+8 < 16 || frac-(1<<63)+2 < 4 {
		return 0, 0, false
	}
	// The outcome depends on the digits, so it is chosen with borrow bits
	// rather than branches, which would mispredict on real data.
	_, below := bits.Sub64(r, half, 0) // X - r is within H of X
	above := lessEq(ten, r+half)       // X - r + 10 is
	nearest := integral + frac>>63
	short := lower + 10*above
	m = nearest ^ (nearest^short)&-(below|above)
	return m, k, true
}
