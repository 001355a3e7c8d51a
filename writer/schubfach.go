package writer

//go:generate go run gen_pow10.go

import "math/bits"

// schubfach returns the shortest decimal m×10^k that reads back as the
// positive float64 c×2^q (c the significand with its hidden bit, q the
// binary exponent, as decoded by shortestDecimal), choosing the closest
// such decimal and, on a tie, the even one. m may end in zeros.
//
// It is Schubfach (Raffaello Giulietti, "The Schubfach way to render
// doubles", 2020; the algorithm of Java 19's Double.toString), ported from
// the reference DoubleToDecimal: three 126×64-bit multiplications decide the
// digits with no loop and no big arithmetic. It is exact for every input,
// and shortestDecimal's fast path falls back to it when its one product
// cannot decide.
func schubfach(c uint64, q int) (m uint64, k int) {
	const (
		qMin = -1074
		cMin = uint64(1) << 52
	)
	out := c & 1
	cb := c << 2
	cbr := cb + 2
	var cbl uint64
	if c != cMin || q == qMin {
		cbl = cb - 2
		k = flog10pow2(q)
	} else {
		// At a power of two the lower neighbour is half as far away.
		cbl = cb - 1
		k = flog10threeQuartersPow2(q)
	}
	h := q + flog2pow10(-k) + 2
	// The table holds 4g as two 64-bit words; g1 and g0 are g's high and
	// low 63 bits.
	g := &pow10Table[k-pow10KMin]
	g1, g0 := g[0]>>1, (g[0]&1)<<62|g[1]>>2
	// h is 2 to 5 for every binary exponent; the mask tells the compiler
	// so, and saves the code for shifts of 64 or more.
	sh := uint(h) & 63
	vb := roundOdd(g1, g0, cb<<sh)
	vbl := roundOdd(g1, g0, cbl<<sh)
	vbr := roundOdd(g1, g0, cbr<<sh)
	s := vb >> 2
	// The choice below is made with borrow bits instead of branches: the
	// outcome depends on the digits, so branches on it mispredict about
	// once per float (canada.json), which costs more than computing every
	// candidate.
	//
	// One digit fewer: s rounded down and up to a multiple of 10, sp10
	// and tp10, when exactly one of them rounds back. (Java tests s >= 100
	// to always print two digits; the rounding interval is narrower than
	// 10^(k+1), so one digit fewer is the most there can be, also for the
	// smallest subnormals.)
	// 115292150460684698<<4 is ceil(2^64/10): hi(s × it) = s/10.
	hi, _ := bits.Mul64(s, 115_292_150_460_684_698<<4)
	sp10 := 10 * hi
	tp10 := sp10 + 10
	upin := lessEq(vbl+out, sp10<<2)
	wpin := lessEq(tp10<<2+out, vbr)
	short := (upin ^ wpin) & lessEq(10, s)
	shortM := tp10 - 10*upin
	// Otherwise s or s+1: the one that rounds back, or when both do, the
	// closer one, the even one on a tie.
	tt := s + 1
	uin := lessEq(vbl+out, s<<2)
	win := lessEq(tt<<2+out, vbr)
	cmp := vb - (s+tt)<<1 // signed: < 0 when s is closer
	closerS := cmp>>63 | isZero(cmp)&^s&1
	pickS := uin&^win | (uin^win^1)&closerS
	m = tt - pickS
	// m = short ? shortM : m, as a mask.
	m ^= (m ^ shortM) & -short
	return m, k
}

// lessEq is 1 if a <= b, else 0, without a branch.
func lessEq(a, b uint64) uint64 {
	_, borrow := bits.Sub64(b, a, 0)
	return borrow ^ 1
}

// isZero is 1 if x == 0, else 0, without a branch.
func isZero(x uint64) uint64 { return ((x | -x) >> 63) ^ 1 }

// roundOdd returns g×cp / 2^127 rounded to odd (g = g1×2^63 + g0): the
// paper's "rop", exact enough to decide every digit.
func roundOdd(g1, g0, cp uint64) uint64 {
	const mask63 = 1<<63 - 1
	x1, _ := bits.Mul64(g0, cp)
	y1, y0 := bits.Mul64(g1, cp)
	z := y0>>1 + x1
	vbp := y1 + z>>63
	return vbp | (z&mask63+mask63)>>63
}

// flog10pow2 is floor(q × log10(2)) for |q| <= 5456721.
func flog10pow2(q int) int { return int((int64(q) * 661_971_961_083) >> 41) }

// flog10threeQuartersPow2 is floor(log10(3/4 × 2^q)) for |q| <= 5456721.
func flog10threeQuartersPow2(q int) int {
	return int((int64(q)*661_971_961_083 - 274_743_187_321) >> 41)
}

// flog2pow10 is floor(e × log2(10)) for |e| <= 5456721.
func flog2pow10(e int) int { return int((int64(e) * 913_124_641_741) >> 38) }
