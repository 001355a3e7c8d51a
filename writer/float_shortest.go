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
// yy's and Żmij's fast paths. For the normal value c×2^q with c > 2^52 (so
// that the rounding interval is symmetric), let k = floor(log10(2^q)) and
// X = c×2^q×10^-k: X has 16 or 17 integer digits, and the values that read
// back as c×2^q are those within H = 2^(q-1)×10^-k of X, 0.5 <= H < 5.
//
//   - If a multiple of 10 lies within H of X, it is the answer (the
//     interval is narrower than 10, so there is at most one, and no
//     shorter decimal can be in it).
//   - Otherwise the integer nearest to X is (H >= 0.5 puts it inside).
//
// Both come from X/10, computed to within 2^-64 by one 64×128-bit product
// (with the power of ten of k+1): its integer part is X's digits but the
// last, and its fraction f = (X mod 10)/10 decides. The multiple of 10 below
// X is in the interval when f < H/10, the one above when f + H/10 >= 1, and
// otherwise 10×f splits into X's last digit and the fraction that rounds
// X to the nearest integer. This takes no division, and the comparisons
// come straight off the product.
//
// Each comparison is between quantities known to a few units of 2^-64;
// when they are closer than the error bound (exact ties among them: X
// exactly between two integers, or an interval end exactly on a multiple
// of 10, where the parity of c decides), ok is false and the caller asks
// the exact algorithm. That happens for a tiny fraction of doubles, all
// with small binary exponents. When ok, (m, k) is exactly what schubfach
// returns.
func fastDecimal(c uint64, q int) (m uint64, k int, ok bool) {
	m, _, k, ok = fastDigits(c, q)
	return m, k, ok
}

// fastDigits is fastDecimal that also returns floor(X/10), which is ready
// well before m (it comes straight off the product, m after the decision):
// m is 10×floor(X/10) plus 0 to 10, so the layout starts splitting the
// digits from it.
func fastDigits(c uint64, q int) (m, div10 uint64, k int, ok bool) {
	k = flog10pow2(q)
	// pow10Table holds G = 4g, g = 10^-(k+1) × 2^(125-flog2pow10(-k-1))
	// rounded up (126 bits), as two 64-bit words. -j = q +
	// flog2pow10(-k-1) is -4 to 0 for every normal exponent (the masks
	// tell the compiler that the shifts below are under 64).
	j := uint(-(q + flog2pow10(-k-1))) & 7
	g := &pow10Table[k+1-pow10KMin]
	// Y = (c << (5-j)) × G / 2^128 = 16 X/10: the high word of the 192-bit
	// product, and the middle word as its fraction. The low word is
	// dropped, so Y is under by less than 2^-64 and over by at most 2^-68,
	// g being above the exact value.
	gHi, gLo := g[0], g[1]
	cs := c << ((5 - j) & 7)
	hi, mid := bits.Mul64(gHi, cs)
	carryIn, _ := bits.Mul64(gLo, cs)
	lo, carry := bits.Add64(mid, carryIn, 0)
	hi += carry
	div10 = hi >> 4                      // floor(X/10)
	f := hi<<60 | lo>>4                  // frac(X/10) in units of 2^-64: under by less than 2, over by less than 2^-8
	half := gHi >> j                     // H/10 in units of 2^-64: under by less than 2
	sum, above := bits.Add64(f, half, 0) // above: X - (X mod 10) + 10 is within H of X
	last, fx := bits.Mul64(f, 10)        // X's last digit, X's fraction (to within 20 units)
	// Undecidable: f - H/10 within [-4, 3] units (their true difference
	// is within 3 of the computed one), f + H/10 - 1 within [-8, 7]
	// (within 4), or X's fraction within 32 units of one half (within 20).
	if f-half+4 < 8 || sum+8 < 16 || fx-(1<<63)+32 < 64 {
		return 0, 0, 0, false
	}
	// The outcome depends on the digits, so it is chosen with borrow bits
	// rather than branches, which would mispredict on real data.
	_, below := bits.Sub64(f, half, 0) // X - (X mod 10) is within H of X
	// m = 10×floor(X/10) plus 0 (below), 10 (above), or else X's last
	// digit rounded by X's fraction; below and above exclude each other.
	rounded := last + fx>>63
	m = div10*10 + rounded&((below|above)-1) + 10*above
	return m, div10, k, true
}
