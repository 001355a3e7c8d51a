package writer

import (
	"bytes"
	"flag"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// floatSweep32 runs TestAppendFloatSweep32: every float32 converted to
// float64 (2^32 values, minutes on two cores), compared with strconv.
//
//	go test -run TestAppendFloatSweep32 ./writer/ -args -float.sweep32
var floatSweep32 = flag.Bool("float.sweep32", false, "compare appendFloat with strconv on every float32-representable double")

// referenceFloatTo is referenceFloat without allocations (it appends to
// dst), fast enough for sweeps of billions of values.
func referenceFloatTo(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if math.Signbit(f) {
		dst = append(dst, '-')
		f = -f
	}
	if f == 0 {
		return append(dst, "0.0"...)
	}
	var tmp [32]byte
	s := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64) // d[.ddd]e±xx
	e := bytes.IndexByte(s, 'e')
	var digits [24]byte
	nd := copy(digits[:], s[:1])
	if e > 1 {
		nd += copy(digits[nd:], s[2:e])
	}
	x := 0
	for _, c := range s[e+2:] {
		x = x*10 + int(c-'0')
	}
	if s[e+1] == '-' {
		x = -x
	}
	p := x + 1
	d := digits[:nd]
	switch {
	case p > 16 || p <= -5:
		dst = append(dst, d[0])
		if nd > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e', s[e+1])
		return strconv.AppendInt(dst, int64(abs(x)), 10)
	case p <= 0:
		dst = append(dst, "0."...)
		for range -p {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	case p >= nd:
		dst = append(dst, d...)
		for range p - nd {
			dst = append(dst, '0')
		}
		return append(dst, ".0"...)
	}
	dst = append(dst, d[:p]...)
	dst = append(dst, '.')
	return append(dst, d[p:]...)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestReferenceFloatTo checks the sweeps' reference against referenceFloat
// on every layout, digit count and exponent width, and random bits.
func TestReferenceFloatTo(t *testing.T) {
	fs := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 1e-5, 1e-6, 0.3,
		1e15, 1e16, 1e17, 123456789012345678, 1.5e300, -2.5e-300, 1e100, 12.25, -7}
	r := rand.New(rand.NewPCG(51, 52))
	for range 100000 {
		fs = append(fs, math.Float64frombits(r.Uint64()), (r.Float64()-0.5)*pow10f[r.IntN(len(pow10f))])
	}
	for _, f := range fs {
		if got, want := string(referenceFloatTo(nil, f)), referenceFloat(f); got != want {
			t.Fatalf("referenceFloatTo(%v) = %q, want %q", f, got, want)
		}
	}
}

// sweepBits compares appendFloatBits (the kernel on amd64) and, for runs,
// appendFloatRun with strconv on the bits gen(j) for j in [0, n), spread
// over the CPUs; it stops at the first few mismatches.
func sweepBits(t *testing.T, n uint64, gen func(j uint64) uint64) {
	workers := uint64(runtime.GOMAXPROCS(0))
	var bad atomic.Int32
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, maxFloatLen)
			ref := make([]byte, 0, 64)
			for j := w; j < n; j += workers {
				u := gen(j)
				got := appendFloatBits(buf[:0], u)
				ref = referenceFloatTo(ref[:0], math.Float64frombits(u))
				if !bytes.Equal(got, ref) {
					t.Errorf("appendFloatBits(%#016x) = %q, want %q", u, got, ref)
					if bad.Add(1) > 10 {
						return
					}
				}
				if j&(1<<24-1) == 0 && bad.Load() > 10 {
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestAppendFloatSweep32 compares appendFloat with strconv on every
// float32 value widened to float64 (short decimals of every magnitude from
// 1e-45 to 3e38: the 1-9 digit outputs the random bit patterns rarely hit).
func TestAppendFloatSweep32(t *testing.T) {
	if !*floatSweep32 {
		t.Skip("set -float.sweep32 to run")
	}
	sweepBits(t, 1<<32, func(j uint64) uint64 {
		return math.Float64bits(float64(math.Float32frombits(uint32(j))))
	})
}

// TestAppendFloatNearPow10 compares appendFloat with strconv on the 4096
// doubles on either side of every power of ten (where the digit count and
// the layout change, and where m carries into another decade) and of the
// 1e16 and 1e17 boundaries of the fixed notation, with both signs.
//
// With -test.short (scripts/cross-test under qemu, where it took 88 s on s390x) 512
// patterns each side instead of 4,096.
func TestAppendFloatNearPow10(t *testing.T) {
	side := uint64(4096)
	if testing.Short() {
		side = 512
	}
	var centers []uint64
	for e := -323; e <= 308; e++ {
		f, err := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		if err != nil {
			t.Fatal(err)
		}
		centers = append(centers, math.Float64bits(f))
	}
	for _, f := range []float64{9.999999999999999e15, 9.999999999999999e16, 1e-5, 9.999999999999999e-6} {
		centers = append(centers, math.Float64bits(f))
	}
	n := uint64(len(centers)) * 2 * side * 2
	sweepBits(t, n, func(j uint64) uint64 {
		sign := j & 1 << 63
		j >>= 1
		u := centers[j/(2*side)] + j%(2*side) - side
		return u | sign
	})
}

// TestAppendFloatBands compares appendFloat with strconv on random bit
// patterns inside the bands where the layout or the digit count changes:
// 1e15 to 1e17 (the last fixed-notation integers, "1e+16" on), 1e-6 to
// 1e-4 ("0.0000x" against "1e-6"), the subnormals (all on the Go path,
// behind the kernel's jump) and the smallest normals; -float.band sets
// how many per band.
func TestAppendFloatBands(t *testing.T) {
	bands := [][2]float64{{1e15, 1e17}, {1e-6, 1e-4}, {0, 2.2250738585072014e-308},
		{2.2250738585072014e-308, 1e-300}, {1e300, math.MaxFloat64}}
	n := uint64(*floatBandN)
	sweepBits(t, n*uint64(len(bands)), func(j uint64) uint64 {
		b := bands[j%uint64(len(bands))]
		lo, hi := math.Float64bits(b[0]), math.Float64bits(b[1])
		x := j * 0x9e3779b97f4a7c15 // a Weyl sequence over the band
		x ^= x >> 29
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 32
		return lo + x%(hi-lo+1) | (j>>3&1)<<63
	})
}

var floatBandN = flag.Int("float.band", 200000, "random values per band in TestAppendFloatBands")
