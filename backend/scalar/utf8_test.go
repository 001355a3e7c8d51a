package scalar

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
)

// TestScanText checks scanText against unicode/utf8 on random text built
// from ASCII, valid characters of every length, special bytes and random
// bytes (cut sequences, surrogates, overlong forms), at every alignment.
func TestScanText(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	runes := []rune{'a', 'é', 'ÿ', 'Ā', 'ж', 'あ', '€', '\uFFFF', '😀', '\U0010FFFF', '\U00010000'}
	for iter := 0; iter < 100000; iter++ {
		var src []byte
		for size := r.IntN(40); len(src) < size; {
			switch r.IntN(12) {
			case 0:
				src = append(src, byte(r.IntN(256)))
			case 1:
				src = append(src, "\"\\\x00\x1f\x7f"[r.IntN(5)])
			case 2, 3:
				src = append(src, byte(0x20+r.IntN(0x5F)))
			case 4: // a character cut short
				b := utf8.AppendRune(nil, runes[r.IntN(len(runes))])
				src = append(src, b[:r.IntN(len(b))+1]...)
			default:
				src = utf8.AppendRune(src, runes[r.IntN(len(runes))])
			}
		}
		for j := 0; j <= min(len(src), 9); j++ {
			wantK := len(src)
			for i := j; i < len(src); i++ {
				if c := src[i]; c == '"' || c == '\\' || c < 0x20 {
					wantK = i
					break
				}
			}
			text := src[j:wantK]
			k, cont, class, ok := scanText(src, j)
			if ok != utf8.Valid(text) {
				t.Fatalf("scanText(%q, %d): ok %v", src, j, ok)
			}
			if !ok {
				continue
			}
			wantClass := backend.ClassASCII
			for _, c := range string(text) {
				wantClass = max(wantClass, classOf(c))
			}
			if k != wantK || cont != len(text)-utf8.RuneCount(text) || class != wantClass {
				t.Fatalf("scanText(%q, %d) = %d, %d, %d; want %d, %d, %d", src, j, k, cont, class,
					wantK, len(text)-utf8.RuneCount(text), wantClass)
			}
		}
	}
}

// TestTextSpecial checks every byte value in every position.
func TestTextSpecial(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			var b [8]byte
			for i := range b {
				b[i] = 'a' + byte(i)
				if i%2 == 1 {
					b[i] = 0xE3 // non-ASCII neighbours must not leak flags
				}
			}
			b[pos] = byte(c)
			m := textSpecial(load64(b[:], 0))
			want := c == '"' || c == '\\' || c < 0x20
			if got := m != 0; got != want || want && m != 0x80<<(8*pos) {
				t.Fatalf("textSpecial with %#x at %d = %#x", c, pos, m)
			}
		}
	}
}
