package writer

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestAppendFloatLayout(t *testing.T) { eachFloatPath(t, testAppendFloatLayout) }

func testAppendFloatLayout(t *testing.T) {
	// Expected bytes measured on orjson 3.13.0.
	for _, c := range []struct {
		f    float64
		want string
	}{
		{1, "1.0"}, {0.1, "0.1"}, {1e16, "1e+16"}, {1e-7, "1e-7"}, {1e15, "1000000000000000.0"},
		{math.Copysign(0, -1), "-0.0"}, {0, "0.0"}, {5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"}, {1e22, "1e+22"}, {123456789.123, "123456789.123"},
		{1e-5, "0.00001"}, {1.5e-5, "0.000015"}, {1.234e-5, "0.00001234"}, {1e-6, "1e-6"}, {2.5e-7, "2.5e-7"},
		{9999999999999998, "9999999999999998.0"}, {1.2345e15, "1234500000000000.0"}, {1.2345e16, "1.2345e+16"},
		{1.23e22, "1.23e+22"}, {math.NaN(), "null"}, {math.Inf(1), "null"}, {math.Inf(-1), "null"},
		{-1.5, "-1.5"}, {123.456, "123.456"}, {0.001, "0.001"},
	} {
		if got := string(appendFloat(make([]byte, 0, maxFloatLen), c.f)); got != c.want {
			t.Errorf("appendFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestAppendInt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(v int64) {
		if got, want := string(appendInt(make([]byte, 0, 25), v)), strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendInt(%d) = %q", v, got)
		}
	}
	checkU := func(v uint64) {
		if got, want := string(appendUint(make([]byte, 0, 24), v)), strconv.FormatUint(v, 10); got != want {
			t.Fatalf("appendUint(%d) = %q", v, got)
		}
	}
	for _, v := range []int64{0, 1, -1, 9, 10, 99, 100, math.MaxInt64, math.MinInt64} {
		check(v)
	}
	checkU(math.MaxUint64)
	for p := uint64(1); p < 1e19; p *= 10 {
		checkU(p - 1)
		checkU(p)
		checkU(p + 1)
	}
	for range 200_000 {
		v := r.Uint64() >> r.IntN(64)
		checkU(v)
		check(int64(v))
		check(-int64(v))
	}
}

func BenchmarkAppendFloat(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	fs := make([]float64, 1024)
	for i := range fs {
		// canada.json-like: 15-17 significant digits, magnitude 1-100.
		fs[i] = (r.Float64() - 0.5) * 200
	}
	buf := make([]byte, 0, 64)
	i := 0
	loopCPU(b, 0, func() { buf = appendFloat(buf[:0], fs[i&1023]); i++ })
}

func BenchmarkAppendInt(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	vs := make([]int64, 1024)
	for i := range vs {
		vs[i] = int64(r.Uint64() >> r.IntN(64))
	}
	buf := make([]byte, 0, 64)
	i := 0
	loopCPU(b, 0, func() { buf = appendInt(buf[:0], vs[i&1023]); i++ })
}

func BenchmarkShortestDecimal(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	fs := make([]float64, 1024)
	for i := range fs {
		fs[i] = r.Float64() * 100
	}
	var sink uint64
	i := 0
	loopCPU(b, 0, func() { m, _ := shortestDecimal(fs[i&1023]); sink += m; i++ })
	_ = sink
}

func BenchmarkStrconvAppendFloat(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	fs := make([]float64, 1024)
	for i := range fs {
		fs[i] = (r.Float64() - 0.5) * 200
	}
	buf := make([]byte, 0, 64)
	i := 0
	loopCPU(b, 0, func() { buf = strconv.AppendFloat(buf[:0], fs[i&1023], 'g', -1, 64); i++ })
}

// referenceFloat is appendFloat's layout built from strconv's shortest
// digits, the slow and obvious way.
func referenceFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, exp, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	p := x + 1 // value = 0.digits × 10^p
	switch {
	case p > 16 || p <= -5:
		if len(digits) > 1 {
			mant = digits[:1] + "." + digits[1:]
		}
		if x >= 0 {
			return sign + mant + "e+" + strconv.Itoa(x)
		}
		return sign + mant + "e-" + strconv.Itoa(-x)
	case p <= 0:
		return sign + "0." + strings.Repeat("0", -p) + digits
	case p >= len(digits):
		return sign + digits + strings.Repeat("0", p-len(digits)) + ".0"
	}
	return sign + digits[:p] + "." + digits[p:]
}

// TestAppendFloatRandom checks every digit count and decimal point
// position against referenceFloat.
func TestAppendFloatRandom(t *testing.T) { eachFloatPath(t, testAppendFloatRandom) }

func testAppendFloatRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	check := func(f float64) {
		t.Helper()
		if got, want := string(appendFloat(make([]byte, 0, maxFloatLen), f)), referenceFloat(f); got != want {
			t.Fatalf("appendFloat(%b) = %q, want %q", f, got, want)
		}
	}
	for range 300_000 {
		check(math.Float64frombits(r.Uint64()))
		// 1 to 17 significant digits, the point anywhere from 10^-25 to 10^25.
		digits := r.Uint64N(100_000_000_000_000_000) >> r.IntN(57)
		f, _ := strconv.ParseFloat(strconv.FormatUint(digits, 10)+"e"+strconv.Itoa(r.IntN(50)-25), 64)
		check(f)
		check(-f)
	}
}
