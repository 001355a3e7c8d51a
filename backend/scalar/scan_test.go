package scalar

import (
	"bytes"
	"math/bits"
	"testing"
)

// The inline scan (scan_simd_amd64.go with GOEXPERIMENT=simd, else
// scan_other.go) against a byte loop: every byte value at every position of
// the window, with other bytes before and after it.

// TestStringSpecial16: the lowest flag is the first byte that ends plain
// ASCII string content, or there is none; copyFirst gives the same flags
// and copies the 16 bytes.
func TestStringSpecial16(t *testing.T) {
	if simdBuild && !simdAvailable {
		t.Skip("the vector stringSpecial16 needs AVX2, which this CPU lacks")
	}
	for pos := 0; pos <= 16; pos++ {
		for c := 0; c < 256; c++ {
			for _, fill := range []byte{'a', ' ', '~', '!', '#', '[', ']'} {
				b := bytes.Repeat([]byte{fill}, 40)
				if pos < 16 {
					b[3+pos] = byte(c)
				}
				b[3+16] = '"' // beyond the window: never seen
				want := 16
				for k, x := range b[3 : 3+16] {
					if isTextEnd(x) || x >= 0x80 {
						want = k
						break
					}
				}
				m := stringSpecial16(b, 3)
				var dst [16]byte
				if cm := loadSpecials16().copyFirst(&dst, b, 3); cm != m || string(dst[:]) != string(b[3:3+16]) {
					t.Fatalf("copyFirst(%q, 3) = %#x, copied %q; stringSpecial16 %#x", b, cm, dst, m)
				}
				got := 16
				if m != 0 {
					got = bits.TrailingZeros(m)
				}
				if got != want {
					t.Fatalf("stringSpecial16(%q, 3) = %#x: first special %d, want %d", b, m, got, want)
				}
				if pos == 16 {
					break
				}
			}
		}
	}
}
