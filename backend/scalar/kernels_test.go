package scalar

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
)

// scanText is checked against a reference (unicode/utf8) with the SIMD
// kernel on and off (useAVX2; other architectures run the portable path
// only), on text that puts every byte pair and high triple at the kernel's
// block boundaries and random text of up to several blocks.

func isTextEnd(c byte) bool   { return c == '"' || c == '\\' || c < 0x20 }
func isPlain(c byte) bool     { return !isTextEnd(c) && c < 0x80 }
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// withKernels runs f with the kernel off, then on when the CPU has it.
func withKernels(t *testing.T, f func(t *testing.T)) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	useAVX2 = false
	t.Run("portable", f)
	if saved {
		useAVX2 = true
		t.Run("simd", f)
	}
}

// refScanText is scanText by definition.
func refScanText(src []byte, j int) (k, cont int, class backend.Class, ok bool) {
	k = j
	for k < len(src) && !isTextEnd(src[k]) {
		k++
	}
	text := src[j:k]
	if !utf8.Valid(text) {
		return 0, 0, 0, false
	}
	for _, r := range string(text) {
		class = max(class, classOf(r))
	}
	return k, len(text) - utf8.RuneCount(text), class, true
}

func checkScanText(t *testing.T, src []byte, j int) {
	t.Helper()
	k, cont, class, ok := scanText(src, j)
	wk, wcont, wclass, wok := refScanText(src, j)
	if ok != wok || ok && (k != wk || cont != wcont || class != wclass) {
		t.Fatalf("scanText(%q, %d) = %d %d %d %v, want %d %d %d %v", src, j, k, cont, class, ok, wk, wcont, wclass, wok)
	}
}

// TestScanTextPairs puts every pair and (high) triple of bytes across
// the first, second and third block boundaries of long text, where the
// kernel hands over to the DFA or checks a byte against the block before.
// scanText and its kernels (utf8.go, kernels_amd64.s) are the same code with
// and without GOEXPERIMENT=simd (which changes stringSpecial16 only), so the
// simd build's run (make test's second go test -race, where this sweep took
// 200 s of its time) leaves it to the other.
func TestScanTextPairs(t *testing.T) {
	if simdBuild {
		t.Skip("scanText does not depend on GOEXPERIMENT=simd: the run without it sweeps the same code")
	}
	withKernels(t, func(t *testing.T) {
		base := []byte(string(bytes.Repeat([]byte("aé€"), 20)))
		for _, pos := range []int{0, 29, 30, 31, 32, 62, 63, 64, 90} {
			for b1 := 0; b1 < 256; b1++ {
				for b2 := 0; b2 < 256; b2++ {
					src := append(append(append([]byte{}, base[:pos]...), byte(b1), byte(b2)), base[pos:]...)
					src = append(src, '"')
					checkScanText(t, src, 0)
				}
			}
		}
		if testing.Short() {
			return
		}
		high := make([]byte, 0, 130)
		for c := 0x80; c < 0x100; c++ {
			high = append(high, byte(c))
		}
		high = append(high, 'a')
		for _, pos := range []int{30, 31, 32} {
			src := bytes.Repeat([]byte{'a'}, 70)
			src = append(src, '"')
			for _, b1 := range high[:0x80] {
				for _, b2 := range high {
					for _, b3 := range high {
						src[pos], src[pos+1], src[pos+2] = b1, b2, b3
						checkScanText(t, src, 0)
					}
				}
			}
		}
	})
}

// TestScanTextLong: random text of valid characters of every length, cut
// and bad bytes, special bytes, up to several blocks, at many starts.
func TestScanTextLong(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		runes := []rune{'a', 'é', 'ÿ', 'Ā', 'ж', 'あ', '€', '\uFFFF', '😀', '\U0010FFFF', '\U00010000', 'z'}
		for iter := 0; iter < 30000; iter++ {
			var src []byte
			size := r.IntN(200)
			bad := r.IntN(4) == 0
			for len(src) < size {
				switch k := r.IntN(40); {
				case k == 0 && bad:
					src = append(src, byte(0x80+r.IntN(0x80)))
				case k == 1 && bad: // a character cut short
					b := utf8.AppendRune(nil, runes[r.IntN(len(runes))])
					src = append(src, b[:r.IntN(len(b))+1]...)
				case k == 2 && r.IntN(8) == 0:
					src = append(src, "\"\\\x00\x1f"[r.IntN(4)])
				case k < 12:
					src = append(src, byte(0x20+r.IntN(0x5F)))
				default:
					src = utf8.AppendRune(src, runes[r.IntN(len(runes))])
				}
			}
			for j := 0; j <= min(len(src), 40); j++ {
				if j > 0 && src[j-1] >= 0x80 {
					continue // scanText starts between characters
				}
				checkScanText(t, src, j)
			}
		}
	})
}

// TestParseSameWithKernels: the corpus gives the same tape either way.
func TestParseSameWithKernels(t *testing.T) {
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	for _, name := range []string{"twitter", "citm_catalog", "canada", "github"} {
		src := readCorpusInternal(t, name)
		var a, b backend.Tape
		useAVX2 = false
		if err := (Parser{}).Parse(src, &a); err != nil {
			t.Fatal(err)
		}
		useAVX2 = saved
		if err := (Parser{}).Parse(src, &b); err != nil {
			t.Fatal(err)
		}
		if !slicesEqual(a.Words, b.Words) || !bytes.Equal(a.Arena, b.Arena) {
			t.Errorf("%s: tapes differ", name)
		}
	}
}

func slicesEqual(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func readCorpusInternal(t *testing.T, name string) []byte {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestASCIIBlocks checks the plain-text kernel at every length to 100 with
// any byte at every position (none, on architectures without a kernel).
func TestASCIIBlocks(t *testing.T) {
	want := func(b []byte) int {
		size := asciiBlockSize // a variable: 0 is a constant division by zero
		if size == 0 {
			return 0
		}
		full := len(b) / size * size
		for i, c := range b[:full] {
			if isTextEnd(c) || c >= 0x80 {
				return i
			}
		}
		return full
	}
	for n := 0; n <= 100; n++ {
		for pos := 0; pos <= n; pos++ {
			for c := 0; c < 256; c++ {
				b := bytes.Repeat([]byte{'x'}, n+3)
				if pos < n {
					b[pos+3] = byte(c)
				}
				if got, w := asciiBlocks(b, 3), want(b[3:]); got != w {
					t.Fatalf("asciiBlocks(%q, 3) = %d, want %d", b, got, w)
				}
				if pos == n {
					break
				}
			}
		}
	}
}

// BenchmarkUTF8BlocksShort calls the UTF-8 kernel on the text of a short
// string (its closing quote in the first block), as scanText does for each
// short non-ASCII string: the kernel's fixed cost per call. A legacy SSE
// instruction among its VEX ones (MOVD, once) made this ~1 µs on the
// development machine instead of ~10 ns.
func BenchmarkUTF8BlocksShort(b *testing.B) {
	if !useAVX2 {
		b.Skip("no AVX2")
	}
	src := []byte(`é123", "café124", "café125", "café126", "café127"]`)
	for b.Loop() {
		utf8Blocks(src)
	}
}

// TestUTF8BlocksEnd checks the kernel's stop (the first block holding a
// '"', '\\' or control byte, which it checks before its set-up when that is
// the first block) at every length to 100 with each kind of byte at every
// position of valid text: the blocks before it are counted, no more.
func TestUTF8BlocksEnd(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 kernel on this CPU")
	}
	text := bytes.Repeat([]byte("aé€😀"), 20) // 1- to 4-byte characters
	for n := 0; n <= 100; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, c := range []byte{'"', '\\', 0, 0x1f, ' ', 'a', 0x7f} {
				b := append([]byte{}, text[:n]...)
				if pos < n {
					b[pos] = c // may cut a character: the bytes before it stay valid
				}
				k, cont, maxb, bad := utf8Blocks(b)
				wk := n / 32 * 32
				if pos < n && isTextEnd(c) {
					wk = min(wk, pos/32*32)
				}
				wcont, wmax := 0, 0
				for _, x := range b[:wk] {
					if x&0xC0 == 0x80 {
						wcont++
					}
					wmax = max(wmax, int(x))
				}
				if k != wk || k > 0 && (cont != wcont || maxb != wmax) || k == 0 && (cont|maxb != 0 || bad) {
					t.Fatalf("utf8Blocks(%q) = %d %d %#x %v, want %d %d %#x", b, k, cont, maxb, bad, wk, wcont, wmax)
				}
				if pos == n {
					break
				}
			}
		}
	}
}
