package scalar

import (
	"github.com/isojson/isojson/backend"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func word(s string) uint64 {
	var b [8]byte
	copy(b[:], s)
	return load64(b[:], 0)
}

func TestDigitHelpers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := "0123456789/:.eE-+ \"\x00\xff\x80\xb9\xba\x2f\x3a\x30\x39"
	for k := 0; k < 200000; k++ {
		var b [8]byte
		for j := range b {
			switch r.IntN(4) {
			case 0:
				b[j] = byte(r.IntN(256))
			case 1:
				b[j] = alphabet[r.IntN(len(alphabet))]
			default:
				b[j] = byte('0' + r.IntN(10))
			}
		}
		want := true
		for _, c := range b {
			want = want && c >= '0' && c <= '9'
		}
		w := load64(b[:], 0)
		if want {
			v, _ := strconv.ParseUint(string(b[:]), 10, 64)
			if got := eightDigits(w); got != v {
				t.Fatalf("eightDigits(%q) = %d", b, got)
			}
		}
		k := 0
		for k < 8 && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if got := leadingDigits(w); got != k {
			t.Fatalf("leadingDigits(%q) = %d, want %d", b, got, k)
		}
		if k < 8 {
			v, _ := strconv.ParseUint("0"+string(b[:k]), 10, 64)
			if got := digitsValue(w, k); got != v {
				t.Fatalf("digitsValue(%q, %d) = %d, want %d", b, k, got, v)
			}
		}
	}
}

// checkStringSpecial fails t unless stringSpecial's mask of the word b has
// its lowest set byte at the first byte that ends plain ASCII text (a
// quote, a backslash, a control or non-ASCII byte), and none without one.
func checkStringSpecial(t *testing.T, b [8]byte) {
	t.Helper()
	want := 8
	for j, c := range b {
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			want = j
			break
		}
	}
	m := stringSpecial(load64(b[:], 0))
	got := 8
	if m != 0 {
		got = bits.TrailingZeros64(m) >> 3
	}
	if got != want {
		t.Fatalf("stringSpecial(%q): first special at %d, want %d", b, got, want)
	}
}

// TestStringSpecialExhaustive: every byte value at every position of the
// word, after a run of any one plain byte (where a borrow could start) and
// before random bytes, is found exactly when it ends plain ASCII text.
func TestStringSpecialExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			for fill := byte(0x20); fill < 0x80; fill++ {
				if fill == '"' || fill == '\\' {
					continue
				}
				var b [8]byte
				for j := range b {
					switch {
					case j < pos:
						b[j] = fill
					case j == pos:
						b[j] = byte(c)
					default:
						b[j] = byte(r.IntN(256))
					}
				}
				checkStringSpecial(t, b)
			}
		}
	}
}

func TestStringSpecial(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 200000; k++ {
		var b [8]byte
		for j := range b {
			switch r.IntN(4) {
			case 0:
				b[j] = byte(r.IntN(256))
			default:
				b[j] = byte(0x20 + r.IntN(0x60))
			}
		}
		checkStringSpecial(t, b)
	}
}

// TestEiselLemire checks the fast path against strconv on random mantissas
// and exponents: when it answers, the answer is strconv's, bit for bit.
func TestEiselLemire(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	answered := 0
	for k := 0; k < 300000; k++ {
		man := r.Uint64() >> r.IntN(64)
		for man >= 1e19 {
			man /= 10
		}
		exp := r.IntN(700) - 350
		f, ok := eiselLemire(man, exp, k&1 == 1)
		if !ok {
			continue
		}
		answered++
		s := strconv.FormatUint(man, 10) + "e" + strconv.Itoa(exp)
		if k&1 == 1 {
			s = "-" + s
		}
		want, _ := strconv.ParseFloat(s, 64)
		if math.Float64bits(f) != math.Float64bits(want) {
			t.Fatalf("%s: %v, strconv %v", s, f, want)
		}
	}
	if answered < 200000 {
		t.Errorf("only %d of 300000 answered", answered)
	}
}

// TestNumbersAgainstStrconv parses random number texts through the whole
// number scanner.
func TestNumbersAgainstStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var p Parser
	tape := new(backend.Tape)
	for k := 0; k < 100000; k++ {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		if r.IntN(3) == 0 {
			b.WriteByte('0')
		} else {
			b.WriteByte(byte('1' + r.IntN(9)))
			for n := r.IntN(25); n > 0; n-- {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		b.WriteByte('.')
		for n := 1 + r.IntN(25); n > 0; n-- {
			if r.IntN(4) == 0 {
				b.WriteByte('0')
			} else {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		if r.IntN(2) == 0 {
			b.WriteString("e" + strconv.Itoa(r.IntN(640)-320))
		}
		s := b.String()
		want, err := strconv.ParseFloat(s, 64)
		tape.Reset()
		perr := p.Parse([]byte(s), tape)
		if math.IsInf(want, 0) {
			if perr == nil {
				t.Fatalf("%s: accepted, strconv gives %v (%v)", s, want, err)
			}
			continue
		}
		if perr != nil {
			t.Fatalf("%s: %v", s, perr)
		}
		if got := tape.Float(0); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%s: %v, strconv %v", s, got, want)
		}
	}
}

// TestConstantHeaders checks the constants the hot paths use instead of
// calls.
func TestConstantHeaders(t *testing.T) {
	for _, n := range []int{0, 1, 77, 1 << 40} {
		want := backend.RefHeader(backend.KindString, backend.StorageInput, backend.ClassASCII, backend.WidthUTF8, true, n)
		if got := asciiHeader | uint64(n)&backend.LenMask; got != want {
			t.Errorf("ASCII header of length %d: %#x, want %#x", n, got, want)
		}
	}
	for lit, w := range map[string]uint32{"true": wordTrue, "alse": wordAlse, "null": wordNull} {
		if got := load32([]byte(lit), 0); got != w {
			t.Errorf("load32(%q) = %#x, want %#x", lit, got, w)
		}
	}
}
