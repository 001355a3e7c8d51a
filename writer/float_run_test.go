package writer

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// runFloats is a pool for float runs: values the kernel takes, values it
// leaves to appendFloatGo (zeros, NaN, ±Inf, subnormals, powers of two, the
// exact ties fastDigits cannot decide), in every layout.
func runFloats(r *rand.Rand) float64 {
	switch r.IntN(12) {
	case 0:
		return []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 1, 0.5, 1024}[r.IntN(9)]
	case 1:
		c := 1<<52 | r.Uint64N(1<<52-10) + 5
		for c%5 != 3 {
			c++
		}
		return math.Ldexp(float64(c), 2) // an exact tie: fastDigits falls back
	case 2:
		return math.Float64frombits(r.Uint64())
	case 3:
		return float64(r.IntN(100000)) / 100
	}
	return (r.Float64() - 0.5) * pow10f[r.IntN(len(pow10f))]
}

// TestFloatRunDocuments writes documents of float arrays (runs of every
// length, broken by ints and nested arrays, in objects whose float values
// must not run into their keys) from buffers of several sizes, with and
// without the kernel, and compares them with strconv's digits.
func TestFloatRunDocuments(t *testing.T) { eachFloatPath(t, testFloatRunDocuments) }

func testFloatRunDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for doc := range 3000 {
		tp := &backend.Tape{Arena: []byte("k")}
		var want strings.Builder
		var value func(depth int)
		value = func(depth int) {
			switch x := r.IntN(10); {
			case depth < 3 && x < 4:
				n := r.IntN(40)
				if r.IntN(4) == 0 {
					n = r.IntN(400)
				}
				at := tp.OpenContainer(backend.KindArray)
				want.WriteByte('[')
				for j := range n {
					if j > 0 {
						want.WriteByte(',')
					}
					if r.IntN(20) == 0 {
						value(depth + 1)
						continue
					}
					f := runFloats(r)
					tp.AppendNumber(backend.KindFloat, math.Float64bits(f))
					want.WriteString(referenceFloat(f))
				}
				want.WriteByte(']')
				tp.CloseContainer(at, n)
			case depth < 3 && x < 6:
				n := r.IntN(5)
				at := tp.OpenContainer(backend.KindObject)
				want.WriteByte('{')
				for j := range n {
					if j > 0 {
						want.WriteByte(',')
					}
					tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Clean: true, Len: 1, Chars: 1})
					want.WriteString(`"k":`)
					value(depth + 1)
				}
				want.WriteByte('}')
				tp.CloseContainer(at, n)
			case x < 7:
				v := r.Int64()
				tp.AppendNumber(backend.KindInt, uint64(v))
				want.WriteString(strconv.FormatInt(v, 10))
			default:
				f := runFloats(r)
				tp.AppendNumber(backend.KindFloat, math.Float64bits(f))
				want.WriteString(referenceFloat(f))
			}
		}
		value(0)
		for _, size := range []int{0, 7, 64, 1 << 16} {
			got := Append(make([]byte, 0, size), tp, nil, 0)
			if string(got) != want.String() {
				t.Fatalf("document %d (buffer %d):\n got %s\nwant %s", doc, size, got, want.String())
			}
		}
	}
}

// TestFloatRunRoom calls appendFloatRun with every room from maxFloatLen up:
// it must write whole floats only, stop when the next one and its comma
// might not fit, say where it stopped, and store nothing past room.
func TestFloatRunRoom(t *testing.T) {
	eachFloatPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(33, 34))
		tp := &backend.Tape{}
		at := tp.OpenContainer(backend.KindArray)
		var parts []string
		for j := range 16 {
			// The point after 15 digits and a minus sign: the kernel's
			// stores reach furthest (33 bytes). The last few from the
			// pool, with values the kernel does not take.
			f := -(1e14 + r.Float64()*9e14)
			if j >= 12 {
				f = runFloats(r)
			}
			tp.AppendNumber(backend.KindFloat, math.Float64bits(f))
			parts = append(parts, referenceFloat(f))
		}
		tp.CloseContainer(at, len(parts))
		end := len(tp.Words)
		for room := maxFloatLen; room < 600; room++ {
			buf := make([]byte, room+64)
			for i := range buf {
				buf[i] = 0xa5
			}
			n, next := appendFloatRun(&buf[0], room, unsafe.SliceData(tp.Words), 2, end)
			k := (next - 2) / backend.NumberWords
			if next < 2 || (next-2)%backend.NumberWords != 0 || k > len(parts) {
				t.Fatalf("room %d: next %d", room, next)
			}
			if want := strings.Join(parts[:k], ","); string(buf[:n]) != want {
				t.Fatalf("room %d: wrote %q, want %q (next %d)", room, buf[:n], want, next)
			}
			if k < len(parts) && (k == 0 || room-n >= 1+maxFloatLen) && (useFloatSSE2 || !hasFloatKernel) {
				// It stopped with room left: only before a value the
				// kernel does not take. (With the kernel switched off,
				// the amd64 run leaves every value to the walk.)
				if u := tp.Words[next+1]; kernelTakes(u) {
					t.Fatalf("room %d: stopped after %d floats before %v with %d bytes left", room, k, math.Float64frombits(u), room-n)
				}
			}
			for i := room; i < len(buf); i++ {
				if buf[i] != 0xa5 {
					t.Fatalf("room %d: stored at byte %d", room, i)
				}
			}
		}
	})
}

// FuzzFloatRun writes arrays of three floats from fuzzed bits (a run through
// the kernel, each value alone, and in an object, where floats do not run)
// and compares them with strconv's digits.
func FuzzFloatRun(f *testing.F) {
	for _, s := range [][3]float64{{0.3, -1e-7, 123.456}, {1e16, 5e-324, math.NaN()}, {-0.0, 1e22, 2.5e-5}} {
		f.Add(math.Float64bits(s[0]), math.Float64bits(s[1]), math.Float64bits(s[2]))
	}
	f.Fuzz(func(t *testing.T, a, b, c uint64) {
		tp := &backend.Tape{Arena: []byte("k")}
		outer := tp.OpenContainer(backend.KindArray)
		at := tp.OpenContainer(backend.KindArray)
		var parts []string
		for _, u := range []uint64{a, b, c} {
			tp.AppendNumber(backend.KindFloat, u)
			parts = append(parts, referenceFloat(math.Float64frombits(u)))
		}
		tp.CloseContainer(at, 3)
		obj := tp.OpenContainer(backend.KindObject)
		for _, u := range []uint64{a, b} {
			tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Clean: true, Len: 1, Chars: 1})
			tp.AppendNumber(backend.KindFloat, u)
		}
		tp.CloseContainer(obj, 2)
		tp.CloseContainer(outer, 2)
		want := "[[" + strings.Join(parts, ",") + `],{"k":` + parts[0] + `,"k":` + parts[1] + "}]"
		if got := string(Append(nil, tp, nil, 0)); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	})
}

// TestFloatRareWritesWhatFastPathWrites pins what appendFloatLeft relies
// on: appendFloatRare writes every value appendFloatGo's fast path takes
// with the same bytes, so a value the kernel left may go to it directly,
// whichever of the two the kernel's test stood for.
func TestFloatRareWritesWhatFastPathWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	check := func(u uint64) {
		fast := string(appendFloatGo(make([]byte, 0, maxFloatLen), u))
		rare := string(appendFloatRare(make([]byte, 0, maxFloatLen), u))
		if fast != rare {
			t.Fatalf("%#x (%v): appendFloatGo %q, appendFloatRare %q", u, math.Float64frombits(u), fast, rare)
		}
	}
	for n := 0; n < 300000; n++ {
		check(r.Uint64())
		f := (r.Float64() - 0.5) * math.Pow10(r.IntN(40)-20)
		check(math.Float64bits(f))
		check(math.Float64bits(math.Round(f*1e4) / 1e4)) // short decimals
	}
}
