package writer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// ucs2Reference is the specification escapeUCS2 is checked against, built
// from the standard library rather than from the writer's own helpers, so
// that a shared mistake cannot hide: unicode/utf16 joins surrogate pairs and
// turns each lone surrogate into U+FFFD; with escape, orjson's rules apply
// (the two-character escapes, other C0 controls as lowercase \u00XX, all
// else raw UTF-8).
func ucs2Reference(dst []byte, s []uint16, escape bool) []byte {
	return runesReference(dst, utf16.Decode(s), escape)
}

// runesReference appends the code points rs as orjson writes them: with
// escape, the two-character escapes and lowercase \u00XX for other C0
// controls; everything else as UTF-8, where utf8.AppendRune makes U+FFFD of
// a surrogate or a value beyond U+10FFFF.
func runesReference(dst []byte, rs []rune, escape bool) []byte {
	for _, r := range rs {
		if escape {
			switch r {
			case '"':
				dst = append(dst, `\"`...)
				continue
			case '\\':
				dst = append(dst, `\\`...)
				continue
			case '\b':
				dst = append(dst, `\b`...)
				continue
			case '\f':
				dst = append(dst, `\f`...)
				continue
			case '\n':
				dst = append(dst, `\n`...)
				continue
			case '\r':
				dst = append(dst, `\r`...)
				continue
			case '\t':
				dst = append(dst, `\t`...)
				continue
			}
			if r >= 0 && r < 0x20 {
				dst = fmt.Appendf(dst, `\u%04x`, r)
				continue
			}
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// checkUCS2 compares escapeUCS2 with ucs2Reference on s, both ways, with
// the SIMD kernel (where the machine has one) and without.
func checkUCS2(t *testing.T, s []uint16) {
	t.Helper()
	simd := useSSSE3
	defer func() { useSSSE3 = simd }()
	for _, kernel := range []bool{simd, false} {
		useSSSE3 = kernel
		for _, escape := range []bool{false, true} {
			want := ucs2Reference([]byte("x"), s, escape)
			dst := make([]byte, 1, 1+maxEscapeLen*len(s))
			dst[0] = 'x'
			if got := escapeUCS2(dst, s, escape); !bytes.Equal(got, want) {
				t.Fatalf("escapeUCS2(%04x, %v) kernel %v\n got %q\nwant %q", s, escape, kernel, got, want)
			}
		}
	}
}

// ucs2Edges are units at every boundary the fast paths test: escapes, the
// ASCII/2-byte/3-byte limits, surrogates and the ends of the BMP.
var ucs2Edges = []uint16{0, 0x1f, 0x20, '"', '\\', 'a', 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x3042, 0x7fff,
	0x8000, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff}

func TestEscapeUCS2MatchesReference(t *testing.T) {
	// Every pair of edge units at every offset of groups of four and
	// eight, inside runs of each class, so each fast path meets each
	// unit at each lane.
	fills := []uint16{'a', 0xe9, 0x3042}
	for _, fill := range fills {
		for _, a := range ucs2Edges {
			for _, b := range ucs2Edges {
				for at := range 9 {
					s := make([]uint16, 17)
					for i := range s {
						s[i] = fill
					}
					s[at], s[at+1+at%3] = a, b
					checkUCS2(t, s)
				}
			}
		}
	}
	// Random mixes of short runs of each class, every length up to 40.
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 20000 {
		s := make([]uint16, n%41)
		for i := 0; i < len(s); {
			c := ucs2Edges[r.IntN(len(ucs2Edges))]
			for run := r.IntN(9); run > 0 && i < len(s); run-- {
				s[i] = c
				i++
			}
		}
		checkUCS2(t, s)
	}
}

func FuzzEscapeUCS2(f *testing.F) {
	f.Add([]byte("a\x00b\x00\"\x00\xe9\x00\x42\x30\x3d\xd8\x00\xde\x00\xd8"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := make([]uint16, len(b)/2)
		for i := range s {
			s[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
		checkUCS2(t, s)
	})
}

// checkUCS4 compares escapeUCS4 with runesReference on s, both ways.
func checkUCS4(t *testing.T, s []uint32) {
	t.Helper()
	rs := make([]rune, len(s))
	for i, c := range s {
		rs[i] = rune(c)
	}
	for _, escape := range []bool{false, true} {
		want := runesReference([]byte("x"), rs, escape)
		dst := make([]byte, 1, 1+maxEscapeLen*len(s))
		dst[0] = 'x'
		if got := escapeUCS4(dst, s, escape); !bytes.Equal(got, want) {
			t.Fatalf("escapeUCS4(%x, %v)\n got %q\nwant %q", s, escape, got, want)
		}
	}
}

// ucs4Edges are code points at every boundary escapeUCS4 tests, with
// surrogates and values beyond Unicode that only a foreign tape holds.
var ucs4Edges = []uint32{0, 0x1f, 0x20, '"', '\\', 'a', 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdfff, 0xe000,
	0xffff, 0x10000, 0x1f600, 0x10ffff, 0x110000, 0x7fffffff, 0x80000000, 0xffffffff}

func TestEscapeUCS4MatchesReference(t *testing.T) {
	for _, fill := range []uint32{'a', 0xe9, 0x3042, 0x1f600} {
		for _, a := range ucs4Edges {
			for _, b := range ucs4Edges {
				for at := range 5 {
					s := make([]uint32, 9)
					for i := range s {
						s[i] = fill
					}
					s[at], s[at+1+at%3] = a, b
					checkUCS4(t, s[:len(s)-at%2])
				}
			}
		}
	}
}

func FuzzEscapeUCS4(f *testing.F) {
	f.Add([]byte("a\x00\x00\x00\x00\xf6\x01\x00\x00\xf6\x01\x00 \x00\x00\x00\x00\xd8\x00\x00\xff\xff\x10\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := make([]uint32, len(b)/4)
		for i := range s {
			s[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		checkUCS4(t, s)
	})
}

// checkLatin1 compares transcodeLatin1 with runesReference on s.
func checkLatin1(t *testing.T, s []byte) {
	t.Helper()
	rs := make([]rune, len(s))
	for i, c := range s {
		rs[i] = rune(c)
	}
	want := runesReference([]byte("x"), rs, false)
	simd := useSSSE3
	defer func() { useSSSE3 = simd }()
	for _, kernel := range []bool{simd, false} {
		useSSSE3 = kernel
		dst := make([]byte, 1, 1+maxEscapeLen*len(s))
		dst[0] = 'x'
		if got := transcodeLatin1(dst, s); !bytes.Equal(got, want) {
			t.Fatalf("transcodeLatin1(%x) kernel %v\n got %q\nwant %q", s, kernel, got, want)
		}
	}
}

func TestTranscodeLatin1MatchesReference(t *testing.T) {
	// Each edge byte at every lane of a word, in ASCII and Latin-1 runs,
	// at lengths around the word size.
	for _, fill := range []byte{'a', 0xe9} {
		for _, c := range []byte{0, 'a', 0x7f, 0x80, 0xbf, 0xc0, 0xe9, 0xff} {
			for n := range 20 {
				for at := range n {
					s := bytes.Repeat([]byte{fill}, n)
					s[at] = c
					checkLatin1(t, s)
				}
			}
		}
	}
	// Every pattern of ASCII and non-ASCII bytes in a block of 8 (the
	// kernel's shuffles), after 0 to 8 bytes, with a tail of 0 to 9.
	for mask := range 256 {
		for pre := range 9 {
			s := bytes.Repeat([]byte{'b'}, pre)
			for k := range 8 {
				s = append(s, [2]byte{'a', byte(0x80 + 17*k)}[mask>>k&1])
			}
			s = append(s, "\xff\xe9z\x80ab\xc0cd"[:pre]...)
			checkLatin1(t, s)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 5000 {
		s := make([]byte, n%41)
		for i := range s {
			s[i] = byte(r.IntN(256))
		}
		checkLatin1(t, s)
	}
}

// checkUTF8 compares escapeUTF8 with runesReference on the valid UTF-8 s.
func checkUTF8(t *testing.T, s []byte) {
	t.Helper()
	want := runesReference([]byte("x"), []rune(string(s)), true)
	dst := make([]byte, 1, 1+maxEscapeLen*len(s))
	dst[0] = 'x'
	if got := escapeUTF8(dst, s); !bytes.Equal(got, want) {
		t.Fatalf("escapeUTF8(%q)\n got %q\nwant %q", s, got, want)
	}
}

func TestEscapeUTF8MatchesReference(t *testing.T) {
	// Each byte class at every lane of a word and in the tail, alone and
	// in runs (a run of 6-byte escapes fills the reservation exactly).
	for _, c := range []string{"\x00", "\x1f", "\n", "\"", "\\", " ", "a", "\x7f", "é", "日", "😀"} {
		for n := range 20 {
			for at := 0; at <= n; at++ {
				checkUTF8(t, []byte(strings.Repeat("a", at)+c+strings.Repeat("b", n-at)))
				checkUTF8(t, []byte(strings.Repeat(c, n)))
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []rune{0, 1, 0x1f, '\n', '\t', '"', '\\', '/', 'a', 'z', 0x7f, 0xe9, 0x65e5, 0x1f600}
	for n := range 20000 {
		rs := make([]rune, n%41)
		for i := range rs {
			rs[i] = alphabet[r.IntN(len(alphabet))]
		}
		checkUTF8(t, []byte(string(rs)))
	}
}
