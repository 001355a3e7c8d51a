package writer

import (
	"bytes"
	"flag"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

var floatStressTime = flag.Duration("float.stress", 300*time.Millisecond, "how long TestFloatKernelStress runs")

// stressFloat is a value for the stress test: half of them ones the kernel
// hands to appendFloatTo with its jump (zeros, subnormals, powers of two,
// exact ties), where the stack may grow behind the jump.
func stressFloat(r *rand.Rand) float64 {
	if r.IntN(2) == 0 {
		return runFloats(r)
	}
	return []float64{0.3, 5e-324, 0.5, 1e23, math.Copysign(0, -1), 2.2250738585072014e-308, 8.41e21}[r.IntN(7)]
}

// atDepth recurses depth frames of about 130 bytes before it runs fn: the
// stress test's goroutines run at every depth from 0 to 160, so that for
// every stack size (8 KiB, 16 KiB) the stack ends within the kernel's
// fallback for some depth, and it grows behind the jump.
//
//go:noinline
func atDepth(depth int, fn func()) int {
	var pad [12]uint64
	pad[depth%12] = uint64(depth)
	if depth > 0 {
		return atDepth(depth-1, fn) + int(pad[depth%12])
	}
	fn()
	return int(pad[0])
}

// TestFloatKernelStress formats floats from many goroutines at once while
// others run the GC and yield in a loop (GOGC=1 and -race make it harder):
// the kernel with its output on the goroutine's stack at every stack depth
// (a stack growth inside the fallback must move the buffer the kernel was
// given, and the frame-less tail jump must still unwind), float runs
// through the walk, and the result is compared with strconv every time. It
// checks that some fallback calls did grow the stack.
func TestFloatKernelStress(t *testing.T) {
	deadline := time.Now().Add(*floatStressTime)
	var stop atomic.Bool
	var moved, calls atomic.Int64
	var bg sync.WaitGroup
	for range 2 {
		bg.Add(1)
		go func() {
			defer bg.Done()
			for !stop.Load() {
				runtime.GC()
				runtime.Gosched()
			}
		}()
	}
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 77))
			ref := make([]byte, 0, 64)
			for iter := 0; time.Now().Before(deadline); iter++ {
				if t.Failed() {
					return
				}
				// A new goroutine: a small stack, which the
				// recursion brings near its end.
				done := make(chan struct{})
				go func() {
					defer close(done)
					atDepth((iter+10*w)%160, func() {
						var out [maxFloatLen]byte
						for k := range 8 {
							f := stressFloat(r)
							if k == 0 {
								f = 0.5 // the fallback first, where the recursion left the stack
							}
							before := uintptr(unsafe.Pointer(&out[0]))
							n := appendFloatKernel(&out[0], math.Float64bits(f))
							if uintptr(unsafe.Pointer(&out[0])) != before {
								moved.Add(1)
							}
							calls.Add(1)
							ref = referenceFloatTo(ref[:0], f)
							if !bytes.Equal(out[:n], ref) {
								t.Errorf("kernel(%v) on the stack = %q, want %q", f, string(out[:n]), string(ref))
								return
							}
						}
					})
				}()
				<-done
				if iter%8 == 0 {
					stressRun(t, r)
				}
				if iter%16 == 0 {
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	stop.Store(true)
	bg.Wait()
	t.Logf("%d kernel calls on the stack, %d moved the stack", calls.Load(), moved.Load())
	if moved.Load() == 0 && !testing.Short() {
		t.Errorf("no kernel call grew the stack: the test does not test what it says")
	}
}

// stressRun writes an array of floats through the walk (appendFloatRun)
// into a small buffer, so that it grows between runs, and compares.
func stressRun(t *testing.T, r *rand.Rand) {
	tp := &backend.Tape{}
	at := tp.OpenContainer(backend.KindArray)
	n := 1 + r.IntN(300)
	parts := make([]string, n)
	for j := range parts {
		f := stressFloat(r)
		if r.IntN(3) != 0 {
			f = (r.Float64() - 0.5) * pow10f[r.IntN(len(pow10f))]
		}
		tp.AppendNumber(backend.KindFloat, math.Float64bits(f))
		parts[j] = referenceFloat(f)
	}
	tp.CloseContainer(at, n)
	want := "[" + strings.Join(parts, ",") + "]"
	if got := Append(make([]byte, 0, r.IntN(100)), tp, nil, 0); string(got) != want {
		t.Errorf("run:\n got %s\nwant %s", got, want)
	}
}
