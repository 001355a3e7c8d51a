package writer

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

// The writer stores through pointers past the end of what it has written
// (word-sized copies, the SIMD transcoder, the float layout's block moves),
// trusting its reservations to keep every store below cap(buf). In the
// extension that buffer is a Python bytes object, where a store past its
// capacity corrupts the heap without any Go check noticing. These tests put
// a guard zone of known bytes after the capacity of every buffer the writer
// is given and fail when a single guard byte changes.

const (
	guardLen  = 64
	guardByte = 0xa5
)

// guardAlloc hands out buffers whose capacity is exactly what was asked,
// followed by a guard zone, and remembers them all for guardsIntact.
type guardAlloc struct {
	zones [][]byte
}

func (g *guardAlloc) buffer(n int) []byte {
	full := make([]byte, n+guardLen)
	zone := full[n:]
	for i := range zone {
		zone[i] = guardByte
	}
	g.zones = append(g.zones, zone)
	return full[:0:n]
}

func (g *guardAlloc) GrowBytes(old []byte, need int) []byte {
	b := g.buffer(need)[:len(old)]
	copy(b, old)
	return b
}

func (g *guardAlloc) GrowWords(old []uint64, need int) []uint64 {
	panic("the writer grows no tape")
}

func (g *guardAlloc) guardsIntact(t *testing.T, what string) {
	t.Helper()
	for i, zone := range g.zones {
		for j, c := range zone {
			if c != guardByte {
				t.Fatalf("%s: buffer %d of %d: the byte %d past its capacity was overwritten", what, i+1, len(g.zones), j)
			}
		}
	}
}

// writeGuarded writes tp through an Output that starts from a buffer of
// start bytes, with guard zones after every buffer, and returns the text.
func writeGuarded(t *testing.T, what string, tp *backend.Tape, src []byte, flags Flags, start int) []byte {
	t.Helper()
	g := &guardAlloc{}
	o := Output{Buf: g.buffer(start), Alloc: g}
	o.Write(tp, src, flags)
	g.guardsIntact(t, what)
	return o.Buf
}

var allFlags = []Flags{0, Indent2, SortKeys, AppendNewline, Indent2 | SortKeys, Indent2 | AppendNewline,
	SortKeys | AppendNewline, Indent2 | SortKeys | AppendNewline}

// TestWriteStaysWithinCapacity writes documents with every kind of value
// and text, as parsed and as External refs, under every flag combination,
// into buffers that start empty (many growths) and at the exact final
// size, and checks the guard zones and the text.
func TestWriteStaysWithinCapacity(t *testing.T) {
	var names []string
	for _, pattern := range []string{"../testdata/corpus/*.json", "../testdata/JSONTestSuite/test_parsing/y_*.json",
		"../testdata/roundtrip/*.json"} {
		m, _ := filepath.Glob(pattern)
		names = append(names, m...)
	}
	if len(names) < 100 {
		t.Fatalf("only %d test documents found", len(names))
	}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		tp := &backend.Tape{}
		if (scalar.Parser{}).Parse(src, tp) != nil {
			continue
		}
		ext := &backend.Tape{Words: append([]uint64(nil), tp.Words...), Arena: tp.Arena}
		externalRefs(t, ext, src, false)
		for _, flags := range allFlags {
			want := Append(nil, tp, src, flags)
			what := filepath.Base(name)
			for _, start := range []int{0, 1, len(want)} {
				if got := writeGuarded(t, what, tp, src, flags, start); !bytes.Equal(got, want) {
					t.Fatalf("%s flags %d start %d: other text than Append", what, flags, start)
				}
				if got := writeGuarded(t, what+" (External)", ext, nil, flags, start); !bytes.Equal(got, want) {
					t.Fatalf("%s (External) flags %d start %d: other text than the parsed tape", what, flags, start)
				}
			}
		}
	}
}

// TestTranscodeStaysWithinCapacity gives the transcoders exactly the
// reservation they ask for (maxEscapeLen bytes a unit) followed by a guard
// zone, on random text of every class and length, escaping or not.
func TestTranscodeStaysWithinCapacity(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pick := func() rune {
		switch r.IntN(6) {
		case 0:
			return rune(r.IntN(0x20)) // controls: escaped
		case 1:
			return []rune{'"', '\\', 'a', 0x7f}[r.IntN(4)]
		case 2:
			return rune(0x80 + r.IntN(0x780)) // 2-byte
		case 3:
			return rune(0x800 + r.IntN(0xd000)) // 3-byte, below the surrogates
		case 4:
			return rune(0x10000 + r.IntN(0x100000)) // 4-byte
		}
		return rune(0x20 + r.IntN(0x60)) // plain ASCII
	}
	simd := useSSSE3
	defer func() { useSSSE3 = simd }()
	for n := 0; n < 3000; n++ {
		size := r.IntN(80)
		var rs []rune
		for range size {
			rs = append(rs, pick())
		}
		var u2 []uint16
		for _, c := range rs {
			if c < 0x10000 {
				u2 = append(u2, uint16(c))
			}
		}
		u4 := make([]uint32, len(rs))
		for i, c := range rs {
			u4[i] = uint32(c)
		}
		var l1 []byte
		for _, c := range rs {
			if c < 0x100 {
				l1 = append(l1, byte(c))
			}
		}
		for _, escape := range []bool{false, true} {
			for _, kernel := range []bool{simd, false} {
				useSSSE3 = kernel
				g := &guardAlloc{}
				got := escapeUCS2(g.buffer(maxEscapeLen*len(u2)), u2, escape)
				g.guardsIntact(t, "escapeUCS2")
				if want := ucs2Reference(nil, u2, escape); !bytes.Equal(got, want) {
					t.Fatalf("escapeUCS2(%04x, %v): %q, want %q", u2, escape, got, want)
				}
			}
			g := &guardAlloc{}
			got := escapeUCS4(g.buffer(maxEscapeLen*len(u4)), u4, escape)
			g.guardsIntact(t, "escapeUCS4")
			if want := runesReference(nil, rs, escape); !bytes.Equal(got, want) {
				t.Fatalf("escapeUCS4(%x, %v): %q, want %q", u4, escape, got, want)
			}
			g = &guardAlloc{}
			if escape {
				got = escapeLatin1(g.buffer(maxEscapeLen*len(l1)), l1)
			} else {
				got = transcodeLatin1(g.buffer(maxEscapeLen*len(l1)), l1)
			}
			g.guardsIntact(t, "Latin-1")
			if !utf8.Valid(got) {
				t.Fatalf("Latin-1 %x (escape %v) gives invalid UTF-8 %q", l1, escape, got)
			}
		}
	}
}

// TestMemberRoomWithinCapacity writes members whose key and string value
// together nearly fill the room the compact walk reserves per member
// (keys of up to and past shortText bytes, some with an escape that takes
// the key's long path; clean values around midText bytes, which are
// copied with no room check of their own), from every start size, so
// that a reservation one byte short meets a guard zone.
func TestMemberRoomWithinCapacity(t *testing.T) {
	text := func(n int, c byte) string { return string(bytes.Repeat([]byte{c}, n)) }
	for _, keyLen := range []int{0, 1, 3, 8, 16, 24, 30, 31, 32, 33, 40} {
		for _, escaped := range []bool{false, true} {
			key := text(keyLen, 'k')
			if escaped && keyLen > 0 {
				key = key[:keyLen-1] + `\n`
			}
			for _, valueLen := range []int{31, 32, 33, 48, 63, 64, 65, 70, 96, 127, 128, 129, 140} {
				v := text(valueLen, 'v')
				src := []byte(`{"` + key + `":"` + v + `","` + key + `":["` + v + `"],"` + key + `":"` + v + `"}`)
				tp := &backend.Tape{}
				if err := (scalar.Parser{}).Parse(src, tp); err != nil {
					t.Fatal(err)
				}
				ext := &backend.Tape{Words: append([]uint64(nil), tp.Words...), Arena: tp.Arena}
				externalRefs(t, ext, src, false)
				for _, flags := range []Flags{0, Indent2} {
					want := Append(nil, tp, src, flags)
					for start := 0; start <= len(want)+1; start++ {
						what := fmt.Sprintf("key %d (escaped %v) value %d flags %d start %d", keyLen, escaped, valueLen, flags, start)
						if got := writeGuarded(t, what, tp, src, flags, start); !bytes.Equal(got, want) {
							t.Fatalf("%s: other text than Append", what)
						}
						if got := writeGuarded(t, what+" (External)", ext, nil, flags, start); !bytes.Equal(got, want) {
							t.Fatalf("%s (External): other text than the parsed tape", what)
						}
					}
				}
			}
		}
	}
}
