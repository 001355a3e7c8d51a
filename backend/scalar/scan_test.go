package scalar

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// The inline scans (scan_simd_amd64.go with GOEXPERIMENT=simd, else
// scan_other.go) against byte loops: every byte value at every position of
// the window, with other bytes before and after it.

// TestStringSpecial16: the lowest flag is the first byte that ends plain
// ASCII string content, or there is none.
func TestStringSpecial16(t *testing.T) {
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

// TestNotSpace32: the lowest flag is the first byte other than ' '.
func TestNotSpace32(t *testing.T) {
	for pos := 0; pos <= 32; pos++ {
		for c := 0; c < 256; c++ {
			b := bytes.Repeat([]byte{' '}, 40)
			if pos < 32 {
				b[5+pos] = byte(c)
			}
			b[5+32] = 'x' // beyond the window
			want := 32
			for k, x := range b[5 : 5+32] {
				if x != ' ' {
					want = k
					break
				}
			}
			if got := bits.TrailingZeros32(notSpace32(b, 5)); got != want {
				t.Fatalf("notSpace32(%q, 5): first non-space %d, want %d", b, got, want)
			}
			if pos == 32 {
				break
			}
		}
	}
}

// TestSkipBreak: skipSpace(src, skipBreak(src, i)) is skipSpace(src, i),
// and skipBreak skips only whitespace, with the scans on and off: lines of
// every indentation around the 32-byte window, and random whitespace.
func TestSkipBreak(t *testing.T) {
	for _, on := range []bool{true, false} {
		restore := setSIMD(on)
		check := func(src []byte, i int) {
			t.Helper()
			k := skipBreak(src, i)
			if k < i || k > len(src) {
				t.Fatalf("simd %v: skipBreak(%q, %d) = %d, outside the input", on, src, i, k)
			}
			for _, c := range src[i:k] {
				if !isSpace[c] {
					t.Fatalf("simd %v: skipBreak(%q, %d) = %d skips %q", on, src, i, k, c)
				}
			}
			if got, want := skipSpace(src, k), skipSpace(src, i); got != want {
				t.Fatalf("simd %v: skipSpace(src, skipBreak(%q, %d)) = %d, want %d", on, src, i, got, want)
			}
		}
		for k := 0; k <= 70; k++ {
			for _, e := range []byte{'"', '}', ']', '1', '\t', '\n', '\r', ' ', 0, 0x80} {
				for _, lead := range []string{"\n", " ", "\r\n", "\t", ",", "\n\n"} {
					for _, tail := range []int{0, 1, 31, 40} {
						src := []byte(lead)
						src = append(src, bytes.Repeat([]byte{' '}, k)...)
						src = append(src, e)
						src = append(src, bytes.Repeat([]byte{'y'}, tail)...)
						check(src, 0)
						check(src[:len(src)-tail-1], 0) // input ending in the run
					}
				}
			}
		}
		r := rand.New(rand.NewPCG(13, 14))
		for iter := 0; iter < 100000; iter++ {
			src := make([]byte, r.IntN(80))
			for j := range src {
				switch r.IntN(10) {
				case 0:
					src[j] = byte(r.IntN(256))
				case 1:
					src[j] = "\t\n\r"[r.IntN(3)]
				default:
					src[j] = ' '
				}
			}
			for i := 0; i <= min(len(src), 3); i++ {
				check(src, i)
			}
		}
		restore()
	}
}
