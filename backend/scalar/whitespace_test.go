package scalar

import (
	"math/rand/v2"
	"testing"
)

// TestSkipSpace checks skipSpace against a byte loop on runs of every
// length up to 80 around the 8-, 16- and 32-byte windows: indentation
// (a newline and spaces) with any byte after it, and random whitespace.
func TestSkipSpace(t *testing.T) {
	ref := func(src []byte, i int) int {
		for i < len(src) && isSpace[src[i]] {
			i++
		}
		return i
	}
	check := func(src []byte, i int) {
		t.Helper()
		if got, want := skipSpace(src, i), ref(src, i); got != want {
			t.Fatalf("skipSpace(%q, %d) = %d, want %d", src, i, got, want)
		}
	}
	ends := []byte{'"', 'x', '}', '\t', '\n', '\r', 0x0b, 0x0c, 0, 0x80, 0xff}
	// Every line end and indentation style: the line end at src[0] (check
	// src, 1 starts inside it), k bytes of indentation, then e.
	for _, style := range []struct{ eol, fill string }{
		{"\n", " "}, {"\n", "\t"}, {"\r\n", " "}, {"\r\n", "\t"}, {" \n", " "}, {" \n", "\t"},
		{"\n\n", " "}, {"\n", " \t"}, {"\t", " "},
	} {
		for k := 0; k <= 80; k++ {
			for _, e := range ends {
				for _, tail := range []int{0, 1, 7, 31, 40} {
					src := []byte(style.eol)
					for range k {
						src = append(src, style.fill[k%len(style.fill)])
					}
					src = append(src, e)
					for range tail {
						src = append(src, 'y')
					}
					check(src, 0)
					check(src, 1)
					check(src[:len(style.eol)+k], 0) // input ending in the run
				}
			}
		}
	}
	for k := 0; k <= 80; k++ {
		for _, e := range ends {
			for _, tail := range []int{0, 1, 7, 31, 40} {
				src := []byte{'\n'}
				for range k {
					src = append(src, ' ')
				}
				src = append(src, e)
				for range tail {
					src = append(src, 'y')
				}
				check(src, 0)
				check(src, 1)
				check(src[:1+k], 0) // input ending in the run
			}
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	for iter := 0; iter < 200000; iter++ {
		src := make([]byte, r.IntN(90))
		for j := range src {
			switch r.IntN(8) {
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
}
