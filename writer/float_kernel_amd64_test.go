package writer

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// floatLayoutCases are values at every decimal point position from 10^-8
// to 10^19 with 1, 2, 9, 15, 16 and 17 significant digits, their
// neighbours, and both signs: each layout (integer, point inside, "0.000",
// exponent) with each digit count and trailing zeros in each group of eight.
func floatLayoutCases() []float64 {
	var fs []float64
	for _, digits := range []string{"1", "12", "5", "123456789", "100000001", "123456789012345",
		"1234567890123456", "12345678901234567", "10000000000000001", "9007199254740993", "4503599627370497",
		"1000000010000000", "12340000", "99999999999999999"} {
		for e := -30; e <= 30; e++ {
			f, err := strconv.ParseFloat(digits+"e"+strconv.Itoa(e), 64)
			if err != nil {
				panic(err)
			}
			for _, g := range []float64{f, math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1))} {
				fs = append(fs, g, -g)
			}
		}
	}
	for e := -1074; e <= 1023; e++ {
		f := math.Ldexp(1, e)
		fs = append(fs, f, math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1)), -f)
	}
	return append(fs, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64,
		math.SmallestNonzeroFloat64, 2.2250738585072014e-308, 1e-324, 1e308, 1.7976931348623157e308)
}

// TestFloatKernelMatchesGo compares the kernel with appendFloatGo and with
// strconv (referenceFloat) on the layout cases, random bit patterns and
// random 16-17 digit values of every magnitude, and checks that it takes
// exactly the values of fastDigits' path: the normal values with a
// non-zero fraction field that fastDigits decides (a kernel that gave
// everything back to the Go path would pass the comparisons).
func TestFloatKernelMatchesGo(t *testing.T) {
	check := func(f float64) bool {
		u := math.Float64bits(f)
		got := string(appendFloatBits(make([]byte, 0, maxFloatLen), u))
		want := string(appendFloatGo(make([]byte, 0, maxFloatLen), u))
		if got != want || got != referenceFloat(f) {
			t.Fatalf("kernel(%v) (bits %#016x) = %q, Go %q, strconv %q", f, u, got, want, referenceFloat(f))
		}
		taken := kernelTakes(u)
		fast := false
		if bq := int(u>>52) & 0x7ff; bq != 0 && bq != 0x7ff && u<<12 != 0 {
			_, _, _, fast = fastDigits(1<<52|u&(1<<52-1), bq-1075)
		}
		if taken != fast {
			t.Fatalf("kernel(%v) (bits %#016x): taken %v, fastDigits decided %v", f, u, taken, fast)
		}
		return taken
	}
	for _, f := range floatLayoutCases() {
		check(f)
	}
	r := rand.New(rand.NewPCG(21, 22))
	taken := 0
	const n = 1_000_000
	for range n {
		check(math.Float64frombits(r.Uint64()))
		if check(r.Float64() * pow10f[r.IntN(len(pow10f))]) {
			taken++
		}
		check(-r.Float64() * 200)
	}
	if taken < n*95/100 { // fastDigits leaves the exact ties, a few percent of these
		t.Errorf("the kernel took %d of %d random 16-17 digit values", taken, n)
	}
}

// kernelTakes reports whether the kernel formats u itself rather than
// handing it to appendFloatTo (whose output is the same).
func kernelTakes(u uint64) bool {
	floatKernelProbe = true
	defer func() { floatKernelProbe = false }()
	var buf [maxFloatLen]byte
	return appendFloatKernel(&buf[0], u) != 0
}

// TestFloatKernelStoresInBounds checks that the kernel's stores stay within
// the maxFloatLen bytes it is given: a guard pattern after them must
// survive every layout.
func TestFloatKernelStoresInBounds(t *testing.T) {
	var buf [maxFloatLen + 16]byte
	for _, f := range floatLayoutCases() {
		for i := range buf {
			buf[i] = 0xa5
		}
		n := appendFloatKernel(&buf[0], math.Float64bits(f))
		if n == 0 {
			t.Fatalf("kernel(%v) wrote nothing", f)
		}
		if n > 24 {
			t.Fatalf("kernel(%v) wrote %d bytes", f, n)
		}
		for i := maxFloatLen; i < len(buf); i++ {
			if buf[i] != 0xa5 {
				t.Fatalf("kernel(%v) stored at byte %d, past maxFloatLen", f, i)
			}
		}
	}
}

// hasFloatKernel: appendFloatRun is the kernel's loop, which leaves every
// value to the walk when useFloatSSE2 is off.
const hasFloatKernel = true
