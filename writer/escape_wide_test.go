package writer

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// wideSpares are the bytes of capacity past the reservation the tests give
// escapeUTF8Wide: none (the SSE2 kernel and the words), and around the
// one-pass kernel's escapeSlack.
var wideSpares = []int{0, escapeSlack - 1, escapeSlack, escapeSlack + 1, 64}

// checkUTF8Wide compares escapeUTF8Wide with runesReference on the valid
// UTF-8 s, with a reservation of maxEscapeLen a byte and each of
// wideSpares more, followed by guard bytes that must stay untouched.
func checkUTF8Wide(t *testing.T, s []byte) {
	t.Helper()
	want := runesReference([]byte("x"), []rune(string(s)), true)
	checkGuarded(t, "escapeUTF8Wide", escapeUTF8Wide, s, 0, want)
	if len(s) == 0 {
		return
	}
	// quotedEscapeUTF8 (text's path for escaped UTF-8), with its 2 bytes.
	want = append(append(append([]byte("x"), '"'), want[1:]...), '"')
	checkGuarded(t, "quotedEscapeUTF8", quotedEscapeUTF8, s, 2, want)
}

// checkGuarded calls escape(dst, s) with dst holding "x" and room for exactly
// maxEscapeLen bytes a byte of s, extra more and each of wideSpares, and
// fails unless it returns want and leaves the guard bytes after that room as
// they were.
func checkGuarded(t *testing.T, name string, escape func(dst, s []byte) []byte, s []byte, extra int, want []byte) {
	t.Helper()
	for _, spare := range wideSpares {
		room := 1 + maxEscapeLen*len(s) + extra + spare
		mem := make([]byte, room+32)
		for i := range mem {
			mem[i] = 0xa5
		}
		dst := mem[:1:room]
		dst[0] = 'x'
		if got := escape(dst, s); !bytes.Equal(got, want) {
			t.Fatalf("%s(%q) spare %d\n got %q\nwant %q", name, s, spare, got, want)
		}
		for i, b := range mem[room:] {
			if b != 0xa5 {
				t.Fatalf("%s(%q) spare %d wrote %d bytes past its reservation", name, s, spare, i+1)
			}
		}
	}
}

// wideKernels runs f with each combination of the kernels on and off
// (the one-pass SSSE3 kernel, the SSE2 block kernel), restoring them.
func wideKernels(f func()) {
	sse2, ssse3 := useEscapeSSE2, useSSSE3
	defer func() { useEscapeSSE2, useSSSE3 = sse2, ssse3 }()
	for _, k := range [][2]bool{{sse2, ssse3}, {sse2, false}, {false, false}} {
		useEscapeSSE2, useSSSE3 = k[0], k[1]
		f()
	}
}

func TestEscapeUTF8WideMatchesReference(t *testing.T) {
	wideKernels(func() {
		// Each byte class at every position of two blocks and the tail,
		// alone, in runs (a run of 6-byte escapes fills the reservation
		// exactly) and between runs of escapes (every escape of a block
		// from its mask).
		for _, c := range []string{"\x00", "\x1f", "\x20", "\n", "\r", "\"", "\\", "!", "#", "[", "]", "a", "\x7f", "é", "日", "😀"} {
			for n := range 40 {
				for at := 0; at <= n; at++ {
					checkUTF8Wide(t, []byte(strings.Repeat("a", at)+c+strings.Repeat("b", n-at)))
					checkUTF8Wide(t, []byte(strings.Repeat("\n", at)+c+strings.Repeat("\"", n-at)))
				}
				checkUTF8Wide(t, []byte(strings.Repeat(c, n)))
			}
		}
		r := rand.New(rand.NewPCG(7, 8))
		alphabet := []rune{0, 1, 0x1f, '\n', '\r', '"', '\\', '/', 'a', 'z', 'a', 'z', 0x7f, 0xe9, 0x65e5, 0x1f600}
		for n := range 20000 {
			rs := make([]rune, n%97)
			for i := range rs {
				rs[i] = alphabet[r.IntN(len(alphabet))]
			}
			checkUTF8Wide(t, []byte(string(rs)))
		}
	})
}
