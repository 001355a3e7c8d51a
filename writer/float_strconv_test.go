package writer

import (
	"flag"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// floatRandomN sets how many random bit patterns TestAppendFloatStrconvLong
// compares with strconv; 0 (the default) skips it so that the ordinary run
// stays fast. Run it with
//
//	go test -run TestAppendFloatStrconvLong ./writer/ -args -float.random 20000000
var floatRandomN = flag.Int("float.random", 0, "random float64 bit patterns TestAppendFloatStrconvLong compares with strconv (0 skips)")

var pow10f = [...]float64{1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17}

// TestAppendFloatStrconvLong compares appendFloat with the strconv-built
// referenceFloat on -float.random random bit patterns and as many random
// values in the fixed-notation range (spread over the CPUs) and on every subnormal below 2^20 ulps, every power of two and of
// ten, and their neighbours: the release check for a change to
// shortestDecimal or the layout, too slow for every run.
func TestAppendFloatStrconvLong(t *testing.T) {
	n := *floatRandomN
	if n <= 0 {
		t.Skip("set -float.random N to run")
	}
	check := func(buf []byte, f float64) bool {
		got := appendFloat(buf[:0], f)
		if want := referenceFloat(f); string(got) != want {
			t.Errorf("appendFloat(%v) (bits %#016x) = %q, want %q", f, math.Float64bits(f), got, want)
			return false
		}
		return true
	}
	buf := make([]byte, 0, maxFloatLen)
	near := func(f float64) {
		check(buf, f)
		check(buf, math.Nextafter(f, 0))
		check(buf, math.Nextafter(f, math.Inf(1)))
	}
	for e := -1074; e <= 1023; e++ {
		near(math.Ldexp(1, e))
	}
	for e := -323; e <= 308; e++ {
		f, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		near(f)
	}
	for b := uint64(1); b < 1<<20; b++ {
		check(buf, math.Float64frombits(b))
		check(buf, math.Float64frombits(1<<52-b)) // just below the smallest normal
	}
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 0x5eed))
			buf := make([]byte, 0, maxFloatLen)
			for range n / workers {
				if !check(buf, math.Float64frombits(r.Uint64())) {
					return
				}
				// Random bits are mostly far from 1; also 16-17 digit
				// values in the fixed-notation range 10^-6 .. 10^17.
				if !check(buf, r.Float64()*pow10f[r.IntN(len(pow10f))]) {
					return
				}
			}
		}()
	}
	wg.Wait()
}
