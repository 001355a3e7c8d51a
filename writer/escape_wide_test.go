package writer

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// checkUTF8Wide compares escapeUTF8Wide with runesReference on the valid
// UTF-8 s, with a reservation of exactly maxEscapeLen a byte followed by
// guard bytes that must stay untouched.
func checkUTF8Wide(t *testing.T, s []byte) {
	t.Helper()
	want := runesReference([]byte("x"), []rune(string(s)), true)
	room := 1 + maxEscapeLen*len(s)
	mem := make([]byte, room+32)
	for i := range mem {
		mem[i] = 0xa5
	}
	dst := mem[:1:room]
	dst[0] = 'x'
	if got := escapeUTF8Wide(dst, s); !bytes.Equal(got, want) {
		t.Fatalf("escapeUTF8Wide(%q)\n got %q\nwant %q", s, got, want)
	}
	for i, b := range mem[room:] {
		if b != 0xa5 {
			t.Fatalf("escapeUTF8Wide(%q) wrote %d bytes past its reservation", s, i+1)
		}
	}
}

func TestEscapeUTF8WideMatchesReference(t *testing.T) {
	for _, kernel := range []bool{true, false} {
		simd := useEscapeSSE2
		useEscapeSSE2 = kernel
		// Each byte class at every position of two blocks and the tail,
		// alone and in runs (a run of 6-byte escapes fills the reservation
		// exactly).
		for _, c := range []string{"\x00", "\x1f", "\x20", "\n", "\r", "\"", "\\", "!", "#", "[", "]", "a", "\x7f", "é", "日", "😀"} {
			for n := range 40 {
				for at := 0; at <= n; at++ {
					checkUTF8Wide(t, []byte(strings.Repeat("a", at)+c+strings.Repeat("b", n-at)))
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
		useEscapeSSE2 = simd
	}
}
