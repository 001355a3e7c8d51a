package writer

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// strconvDecimal returns the shortest digits (no trailing zeros) and the
// exponent of the last digit, from strconv's 'e' format.
func strconvDecimal(f float64) (string, int) {
	s := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	digits = strings.TrimRight(digits, "0")
	return digits, e - (len(digits) - 1)
}

func schubfachDecimal(f float64) (string, int) {
	m, e := shortestDecimal(math.Abs(f))
	for m%10 == 0 {
		m /= 10
		e++
	}
	return strconv.FormatUint(m, 10), e
}

func checkShortest(t *testing.T, f float64) {
	t.Helper()
	if f == 0 {
		return
	}
	wd, we := strconvDecimal(f)
	gd, ge := schubfachDecimal(f)
	if wd != gd || we != ge {
		t.Fatalf("%v (bits %#016x): got %se%d, strconv %se%d", f, math.Float64bits(f), gd, ge, wd, we)
	}
}

func TestShortestDecimalEdges(t *testing.T) {
	for _, f := range []float64{
		5e-324, 1e-323, 1.5e-323, 2.2250738585072014e-308, 2.225073858507201e-308, math.MaxFloat64,
		1, 0.1, 0.3, 1e16, 1e15, 1e22, 1e23, 9007199254740992, 9007199254740993, 9007199254740991,
		123456789.123, 1e-7, 2.5, 0.5, 1 << 60, 5e-310, math.SmallestNonzeroFloat64 * 3,
	} {
		checkShortest(t, f)
	}
	// Every power of two and every power of ten, and their neighbours.
	for e := -1074; e <= 1023; e++ {
		f := math.Ldexp(1, e)
		checkShortest(t, f)
		checkShortest(t, math.Nextafter(f, 0))
		checkShortest(t, math.Nextafter(f, math.Inf(1)))
	}
	// The smallest subnormals, where the digit count is smallest.
	for b := uint64(1); b < 200_000; b++ {
		checkShortest(t, math.Float64frombits(b))
	}
	for e := -323; e <= 308; e++ {
		f, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		checkShortest(t, f)
		checkShortest(t, math.Nextafter(f, 0))
		checkShortest(t, math.Nextafter(f, math.Inf(1)))
	}
}

// TestShortestDecimalRandom compares with strconv on random bit patterns
// over the whole range (2 million in -short mode off, 200k with -short).
func TestShortestDecimalRandom(t *testing.T) {
	n := 2_000_000
	if testing.Short() {
		n = 200_000
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range n {
		f := math.Float64frombits(r.Uint64())
		checkShortest(t, math.Float64frombits(r.Uint64()&(1<<52-1))) // subnormal
		if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
			continue
		}
		checkShortest(t, f)
	}
	// Short decimals (the common case in JSON) parsed back.
	for range n / 4 {
		digits := r.Uint64N(1_000_000_000)
		e := int(r.IntN(40)) - 20
		f, _ := strconv.ParseFloat(strconv.FormatUint(digits, 10)+"e"+strconv.Itoa(e), 64)
		if f != 0 {
			checkShortest(t, f)
		}
	}
}
