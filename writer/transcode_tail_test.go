//go:build linux

package writer

import (
	"bytes"
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"
)

// The SSSE3 kernels take the last 1 to 7 units of clean text as one more
// block, loaded past the string's end when that load stays on one page and
// the output buffer has 32 bytes free past the output (transcode_amd64.s).
// These tests put the text at the end of a page followed by an inaccessible
// one (a load past the page faults), at every offset from that end, with
// every amount of spare capacity around the kernel's limit and guard zones
// after it, at every length around 8 and 16 units and for every script.

// pageEnd maps two pages, the second inaccessible, and returns the first.
func pageEnd(t *testing.T) []byte {
	t.Helper()
	size := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 2*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatalf("mmap of two anonymous pages: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	if err := syscall.Mprotect(m[size:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect of the guard page: %v", err)
	}
	return m[:size]
}

// tailScripts are the unit classes of the text rows: ASCII, Latin-1,
// 2-byte (Cyrillic, Greek), 3-byte (CJK and its punctuation), and the
// units that stop the kernel (escapes, surrogates).
var tailScripts = [][]uint16{
	{'a', ' ', 'Z', '0', 0x7f},
	{'c', 'a', 'f', 0xe9, 0xe0, 0xff, 0x80},
	{0x430, 0x44f, 0x451, 0x410, ' ', 'x'},
	{0x3b1, 0x3c9, 0x3ac, 0x394, ' ', 0x7ff},
	{0x4e00, 0x4e03, 0x3002, 0x3001, 0xffff, 0x800, ' '},
	{0x430, 0x4e00, 'a', 0xe9},
	{'a', 0x430, '"', '\\', 0x1f, 0xd83d, 0xde00, 0xdc00, 0x4e00},
}

func TestTranscodeTailAtPageEnd(t *testing.T) {
	page := pageEnd(t)
	simd := useSSSE3
	defer func() { useSSSE3 = simd }()
	r := rand.New(rand.NewPCG(7, 8))
	for si, script := range tailScripts {
		for n := 1; n <= 40; n++ {
			for rep := range 4 {
				s := make([]uint16, n)
				for i := range s {
					s[i] = script[r.IntN(len(script))]
				}
				if rep == 0 {
					for i := range s {
						s[i] = script[i%len(script)]
					}
				}
				// UCS2 at the page's end and 2 to 30 bytes before it.
				for back := 0; back <= 30; back += 2 {
					end := len(page) - back
					src := unsafe.Slice((*uint16)(unsafe.Pointer(&page[end-2*n])), n)
					copy(src, s)
					checkUCS2Room(t, src, si)
				}
				// Latin-1, from the units that fit in a byte.
				var l1 []byte
				for _, c := range s {
					if c < 0x100 {
						l1 = append(l1, byte(c))
					}
				}
				for back := range 16 {
					end := len(page) - back
					src := page[end-len(l1) : end]
					copy(src, l1)
					checkLatin1Room(t, src, si)
				}
			}
		}
	}
}

// checkUCS2Room compares escapeUCS2 with ucs2Reference on s with spare
// capacity from none to past the kernel's 32 bytes, kernel on and off.
func checkUCS2Room(t *testing.T, s []uint16, script int) {
	t.Helper()
	simd := useSSSE3
	for _, kernel := range []bool{simd, false} {
		useSSSE3 = kernel
		for _, escape := range []bool{false, true} {
			want := ucs2Reference(nil, s, escape)
			for _, spare := range []int{0, 1, 8, 17, 30, 31, 32, 33, 64} {
				g := &guardAlloc{}
				got := escapeUCS2(g.buffer(maxEscapeLen*len(s)+spare), s, escape)
				g.guardsIntact(t, "escapeUCS2")
				if !bytes.Equal(got, want) {
					t.Fatalf("script %d: escapeUCS2(%04x, %v) kernel %v spare %d\n got %q\nwant %q",
						script, s, escape, kernel, spare, got, want)
				}
			}
		}
	}
	useSSSE3 = simd
}

// checkLatin1Room is checkUCS2Room for transcodeLatin1.
func checkLatin1Room(t *testing.T, s []byte, script int) {
	t.Helper()
	rs := make([]rune, len(s))
	for i, c := range s {
		rs[i] = rune(c)
	}
	want := runesReference(nil, rs, false)
	simd := useSSSE3
	for _, kernel := range []bool{simd, false} {
		useSSSE3 = kernel
		for _, spare := range []int{0, 1, 8, 17, 30, 31, 32, 33, 64} {
			g := &guardAlloc{}
			got := transcodeLatin1(g.buffer(maxEscapeLen*len(s)+spare), s)
			g.guardsIntact(t, "transcodeLatin1")
			if !bytes.Equal(got, want) {
				t.Fatalf("script %d: transcodeLatin1(%x) kernel %v spare %d\n got %q\nwant %q",
					script, s, kernel, spare, got, want)
			}
		}
	}
	useSSSE3 = simd
}

// The one-pass escape kernel (escapeUTF8SSSE3) loads the last 1 to 15
// bytes of a string as a block when the 16 bytes stay on one page: the text
// at the page's end and up to 31 bytes before it, every length to 40, clean
// and with escapes at the start, the end and throughout.
func TestEscapeUTF8TailAtPageEnd(t *testing.T) {
	page := pageEnd(t)
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := []byte("ab \"\\\n\x00\x1f/\x7f")
	wideKernels(func() {
		for n := 1; n <= 40; n++ {
			for rep := range 6 {
				s := make([]byte, n)
				for i := range s {
					switch {
					case rep == 0:
						s[i] = 'a'
					case rep == 1:
						s[i] = '"'
					case rep == 2 && i == n-1, rep == 3 && i == 0:
						s[i] = '\n'
					case rep <= 3:
						s[i] = 'x'
					default:
						s[i] = alphabet[r.IntN(len(alphabet))]
					}
				}
				for back := range 32 {
					end := len(page) - back
					src := page[end-n : end]
					copy(src, s)
					checkUTF8Wide(t, src)
				}
			}
		}
	})
}
