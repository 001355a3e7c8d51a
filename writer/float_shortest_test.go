package writer

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// checkFast compares fastDecimal with the exact schubfach on c×2^q and
// reports whether the fast path decided.
func checkFast(t *testing.T, c uint64, q int) bool {
	t.Helper()
	m, k, ok := fastDecimal(c, q)
	if !ok {
		return false
	}
	if wm, wk := schubfach(c, q); m != wm || k != wk {
		t.Fatalf("fastDecimal(%#x, %d) = %d e%d, schubfach %d e%d (%v)", c, q, m, k, wm, wk,
			math.Ldexp(float64(c), q))
	}
	return true
}

// TestFastDecimalEveryExponent checks, for every normal binary exponent,
// the shift range fastDecimal's mask assumes and the smallest, largest
// and random significands against schubfach.
//
// With -test.short (scripts/cross-test under qemu, where the 2,000 random
// mantissas per exponent took 132 s on s390x) 200 per exponent; every
// exponent and the edge mantissas still.
func TestFastDecimalEveryExponent(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	randomPerExponent := 2000
	if testing.Short() {
		randomPerExponent = 200
	}
	for q := -1074; q <= 971; q++ {
		k := flog10pow2(q)
		if j := q + flog2pow10(-k-1); j < -4 || j > 0 {
			t.Fatalf("q=%d: q + flog2pow10(-k-1) = %d, outside -4..0", q, j)
		}
		for _, c := range []uint64{1<<52 + 1, 1<<52 + 2, 1<<53 - 1, 1<<53 - 2} {
			checkFast(t, c, q)
		}
		for range randomPerExponent {
			checkFast(t, 1<<52|r.Uint64N(1<<52-1)+1, q)
		}
	}
}

// TestFastDecimalRandom compares fastDecimal with schubfach on random
// normal doubles and on short decimals parsed back, and checks that it
// falls back rarely: exact ties need X = c×2^q×10^-k to have few fraction
// bits, which takes |q| <= 23 once c's trailing zero bits are moved to q; beyond, a fallback needs X within 2^-58 of
// a decision boundary by chance.
func TestFastDecimalRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	n := 4_000_000
	if testing.Short() {
		n = 400_000
	}
	fallbacks := 0
	for range n {
		c := 1<<52 | r.Uint64N(1<<52-1) + 1
		q := int(r.IntN(2046)) - 1074
		if qe := q + bits.TrailingZeros64(c); !checkFast(t, c, q) && (qe < -24 || qe > 24) {
			t.Logf("fallback c=%#x q=%d", c, q)
			fallbacks++
		}
		// Values of a few digits, the common case in JSON.
		f := float64(r.IntN(1_000_000)) / pow10f[r.IntN(12)]
		u := math.Float64bits(f)
		if bq := int(u>>52) & 0x7ff; bq != 0 && u&(1<<52-1) != 0 {
			checkFast(t, 1<<52|u&(1<<52-1), bq-1075)
		}
	}
	if fallbacks > 0 {
		t.Errorf("%d fallbacks with |q+tz(c)| > 24 in %d random doubles", fallbacks, n)
	}
}

// TestFastDecimalTies checks the decisions fastDecimal cannot make from
// its approximations: exact ties, where the answer depends on the parity
// of c. It must fall back on each, and shortestDecimal must still agree
// with strconv. (A fast path that trusted its approximations here gets
// some of them wrong.)
func TestFastDecimalTies(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	mustFallBack := func(c uint64, q int) {
		t.Helper()
		if m, k, ok := fastDecimal(c, q); ok {
			t.Fatalf("fastDecimal(%#x, %d) decided a tie: %d e%d", c, q, m, k)
		}
		checkShortest(t, math.Ldexp(float64(c), q))
	}
	for range 20_000 {
		c := 1<<52 | r.Uint64N(1<<52-10) + 5
		// q = 2: X = 4c exactly and H = 2, so for c ≡ 3 (mod 5) the
		// interval's lower end 4c-2 is a multiple of 10, and for
		// c ≡ 2 (mod 5) its upper end 4c+2 is.
		for c%5 != 3 {
			c++
		}
		mustFallBack(c, 2)
		mustFallBack(c-1, 2)
		// q = -2: X = 2.5c exactly, halfway between two integers for
		// odd c.
		mustFallBack(c|1, -2)
	}
	// The same ties at the ends of the significand range.
	for _, c := range []uint64{1<<52 + 1, 1<<53 - 1} {
		mustFallBack(c, -2)
	}
}

// TestFastDecimalNearMultiplesOfTen covers X within rounding error of a
// multiple of 10, where the computed integer part may be one below the
// true one: integers and short decimals scaled to 16-17 digits.
func TestFastDecimalNearMultiplesOfTen(t *testing.T) {
	for e := 0; e <= 308; e++ {
		for _, d := range []float64{1, 2, 3, 5, 7, 9, 12, 25, 99, 123, 4096, 65536, 999999, 1234567} {
			for _, f := range []float64{d * math.Pow(10, float64(e)), d * math.Pow(10, float64(-e))} {
				if f == 0 || math.IsInf(f, 0) {
					continue
				}
				checkShortest(t, f)
				checkShortest(t, math.Nextafter(f, 0))
				checkShortest(t, math.Nextafter(f, math.Inf(1)))
				u := math.Float64bits(f)
				if bq := int(u>>52) & 0x7ff; bq != 0 && u&(1<<52-1) != 0 {
					checkFast(t, 1<<52|u&(1<<52-1), bq-1075)
				}
			}
		}
	}
}

// TestBCD8Exhaustive checks bcd8, whose lane divisions are multiplications
// exact only below 10^8, on every input against digits8.
func TestBCD8Exhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("10^8 values")
	}
	for x := uint64(0); x < 1e8; x++ {
		if got := bits.ReverseBytes64(bcd8(x)); got != digits8(x) {
			t.Fatalf("bcd8(%d) reversed = %#x, digits8 %#x", x, got, digits8(x))
		}
	}
}
