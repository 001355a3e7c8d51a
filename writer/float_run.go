package writer

import (
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// The kernels read tape words with these constants built in.
var (
	_ = [1]int{}[backend.KindFloat-6]
	_ = [1]int{}[backend.KindShift-56]
	_ = [1]int{}[backend.NumberWords-2]
)

// floatRunChunk bounds the Floats of one floatRun call. The amd64 kernel
// is assembly, where the runtime cannot preempt: one call over a run of
// millions of floats (a long list, the output buffer grown large) made any
// stop-the-world (a GC's start or end, ReadMemStats), and so every thread
// calling the engine, wait for the rest of the run (55-100 ms into a
// 2M-float list), and a GC's scan of this goroutine's stack too. 1024
// floats take about 25 us; the walk then writes the comma and calls
// floatRun again, whose prologue is where a pending preemption is taken.
// (Bounding appendFloatRun inside the loop below is not enough: the loop
// has no prologue, and asynchronous preemption almost always lands in the
// kernel, where the runtime refuses it.)
const floatRunChunk = 1024

// floatRun writes the Float at i and, in an array, the Floats that directly
// follow it, comma-separated, and returns buf and the index after the last:
// the compact walk's float case. top is the walk's innermost container
// (end<<1 | isObject; huge at the root). A list of floats (canada.json's
// coordinate pairs, a numpy row) then costs one call instead of a turn of
// the walk a member, up to floatRunChunk Floats. The walk has reserved
// room for the first float.
func (e *encoder) floatRun(buf []byte, i, top int) ([]byte, int) {
	words := e.words
	end := min(top>>1, len(words))
	if top&1 != 0 {
		end = i + backend.NumberWords // an object's next entry is a key
	}
	end = min(end, i+floatRunChunk*backend.NumberWords)
	for {
		l := len(buf)
		n, next := appendFloatRun((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), l)), cap(buf)-l,
			unsafe.SliceData(words), i, end)
		buf = buf[:l+n]
		if next >= end || backend.KindOf(words[next]) != backend.KindFloat {
			return buf, next
		}
		// The kernel stopped before a Float: one it does not take, or for
		// room. The walk reserved room for the run's first Float; a later
		// one had room unless fewer than 1+maxFloatLen bytes are left.
		if next == i {
			buf = appendFloatLeft(buf, words[i+1])
		} else if cap(buf)-len(buf) >= 1+maxFloatLen {
			buf = append(buf, ',')
			buf = appendFloatLeft(buf, words[next+1])
		} else {
			buf = e.room(buf, 1+maxFloatLen)
			buf = append(buf, ',')
			buf = appendFloatBits(buf, words[next+1])
		}
		i = next + backend.NumberWords
		if i >= end || backend.KindOf(words[i]) != backend.KindFloat {
			return buf, i
		}
		buf = e.room(buf, 1+maxFloatLen)
		buf = append(buf, ',')
	}
}

// appendFloatLeft writes a Float that appendFloatRun left with room to
// spare. With the kernel on, that is one whose fast path failed (short
// decimals: prices, 0.5, 48.85; zero; powers of two), and it goes straight
// to appendFloatRare, where appendFloatBits would take it after the kernel
// and then appendFloatGo had each tried the fast path again (about 120
// instructions a value). With it off (tests, other architectures), the
// run kernel leaves every value, and appendFloatBits is the portable path.
func appendFloatLeft(buf []byte, u uint64) []byte {
	if useFloatSSE2 {
		return appendFloatRare(buf, u)
	}
	return appendFloatBits(buf, u)
}
