package writer

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// ucs2Reference is escapeUCS2 one unit at a time, with no word tricks: the
// specification the fast paths are checked against.
func ucs2Reference(dst []byte, s []uint16, escape bool) []byte {
	for i := 0; i < len(s); i++ {
		c := rune(s[i])
		switch {
		case c < 0x80:
			if e := escapes[c]; e != "" && escape {
				dst = append(dst, e...)
			} else {
				dst = append(dst, byte(c))
			}
		case c < 0xd800 || c > 0xdfff:
			dst = appendRune(dst, c)
		case c < 0xdc00 && i+1 < len(s) && s[i+1] >= 0xdc00 && s[i+1] <= 0xdfff:
			dst = appendRune(dst, 0x10000+(c-0xd800)<<10+rune(s[i+1])-0xdc00)
			i++
		default:
			dst = append(dst, replacement...)
		}
	}
	return dst
}

// checkUCS2 compares escapeUCS2 with ucs2Reference on s, both ways.
func checkUCS2(t *testing.T, s []uint16) {
	t.Helper()
	for _, escape := range []bool{false, true} {
		want := ucs2Reference([]byte("x"), s, escape)
		dst := make([]byte, 1, 1+maxEscapeLen*len(s))
		dst[0] = 'x'
		if got := escapeUCS2(dst, s, escape); !bytes.Equal(got, want) {
			t.Fatalf("escapeUCS2(%04x, %v)\n got %q\nwant %q", s, escape, got, want)
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
