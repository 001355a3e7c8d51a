package writer

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/isojson/isojson/backend"
)

// floatArrayTape is a tape of one array of the floats fs.
func floatArrayTape(fs []float64) *backend.Tape {
	tp := &backend.Tape{}
	at := tp.OpenContainer(backend.KindArray)
	for _, f := range fs {
		tp.AppendNumber(backend.KindFloat, math.Float64bits(f))
	}
	tp.CloseContainer(at, len(fs))
	return tp
}

// TestFloatRunChunks writes runs longer than floatRunChunk into a buffer
// with room for all of them, with values the kernel leaves to the Go path
// at, before and after the chunk boundaries, and compares with strconv.
func TestFloatRunChunks(t *testing.T) {
	eachFloatPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(41, 42))
		for _, n := range []int{floatRunChunk - 1, floatRunChunk, floatRunChunk + 1, 3*floatRunChunk + 7} {
			for _, odd := range []int{-1, floatRunChunk - 1, floatRunChunk, floatRunChunk + 1, 2 * floatRunChunk} {
				fs := make([]float64, n)
				parts := make([]string, n)
				for j := range fs {
					fs[j] = (r.Float64() - 0.5) * pow10f[r.IntN(len(pow10f))]
					if j == odd || j == 0 && odd == -1 {
						fs[j] = 0.5 // a power of two: not the kernel's
					}
					parts[j] = referenceFloat(fs[j])
				}
				want := "[" + strings.Join(parts, ",") + "]"
				got := Append(make([]byte, 0, len(want)+64), floatArrayTape(fs), nil, 0)
				if string(got) != want {
					t.Fatalf("%d floats, the odd one at %d: output differs", n, odd)
				}
			}
		}
	})
}

// TestFloatRunPreemptible checks that a long run of floats does not hold
// up a stop-the-world: runtime.ReadMemStats (one) 10 ms into an Append of
// two million floats, into a buffer with room for all of them (so that one
// kernel call could take them all), must return in a small part of the
// Append's time. The assembly kernel cannot be preempted: without
// floatRunChunk, it waits for the rest of the run (85% of the Append, where
// it takes 1-2% with it); a GC's stop-the-world and its stack scan of that
// goroutine wait in the same way.
func TestFloatRunPreemptible(t *testing.T) {
	if testing.Short() || runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two Ps and 100 MB")
	}
	r := rand.New(rand.NewPCG(43, 44))
	fs := make([]float64, 2_000_000)
	for j := range fs {
		fs[j] = (r.Float64() - 0.5) * 1000
	}
	tp := floatArrayTape(fs)
	fs = nil
	buf := make([]byte, 0, 25*2_000_000)
	runtime.GC()
	done := make(chan time.Duration)
	go func() {
		t0 := time.Now()
		Append(buf, tp, nil, 0)
		done <- time.Since(t0)
	}()
	time.Sleep(10 * time.Millisecond)
	t0 := time.Now()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	stw := time.Since(t0)
	took := <-done
	t.Logf("Append %v; a stop-the-world 10 ms into it took %v", took, stw)
	if stw > took/4 && stw > 2*time.Millisecond {
		t.Errorf("a stop-the-world during the Append took %v of its %v: the float run is not preemptible", stw, took)
	}
}
