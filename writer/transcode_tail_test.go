//go:build linux

package writer

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/isojson/isojson/backend"
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

// TestExternalValuesAtPageEnd writes External String values through the
// compact walk (textTo's str path: the kernels called at once, their
// fallbacks) with the text ending at a page followed by an inaccessible
// one and up to 31 bytes before it: escaped UTF-8, Latin-1, UCS2 and UCS4,
// clean and not, of every length to 40. The expected text comes from the
// same strings stored in the arena (text's general path).
func TestExternalValuesAtPageEnd(t *testing.T) {
	page := pageEnd(t)
	r := rand.New(rand.NewPCG(11, 12))
	scripts := []struct {
		w     backend.Width
		runes []rune
	}{
		{backend.WidthUTF8, []rune{'a', ' ', '"', '\\', '\n', 0, 0x1f, 'é', '日'}},
		{backend.WidthUCS1, []rune{'a', ' ', 'é', 0xff, 0x80}},
		{backend.WidthUCS1, []rune{'a', 'é', '"', '\n'}},
		{backend.WidthUCS2, []rune{'a', 0x436, 0x3b1, 0x7ff}},
		{backend.WidthUCS2, []rune{'a', 0x436, 0x4e00, 0xffff}},
		{backend.WidthUCS2, []rune{'a', 0x436, '\\', 0x1f}},
		{backend.WidthUCS4, []rune{'a', 0x1f600, 0x4e00, 'é'}},
		{backend.WidthUCS4, []rune{'a', 0x1f600, '"'}},
	}
	for _, sc := range scripts {
		size := 1
		if sc.w != backend.WidthUTF8 {
			size = 1 << (sc.w - 1)
		}
		for n := 1; n <= 40; n++ {
			rs := make([]rune, n)
			for i := range rs {
				rs[i] = sc.runes[r.IntN(len(sc.runes))]
			}
			s := string(rs)
			clean := !strings.ContainsAny(s, "\"\\\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f")
			var text []byte
			if sc.w == backend.WidthUTF8 {
				text = []byte(s)
			} else {
				text = make([]byte, size*n)
				for i, c := range rs {
					switch size {
					case 1:
						text[i] = byte(c)
					case 2:
						*(*uint16)(unsafe.Pointer(&text[2*i])) = uint16(c)
					default:
						*(*uint32)(unsafe.Pointer(&text[4*i])) = uint32(c)
					}
				}
			}
			want := "[" + quoteJSON(s) + "]"
			for back := 0; back < 32; back += size {
				end := len(page) - back
				src := page[end-len(text) : end]
				copy(src, text)
				tp := &backend.Tape{}
				at := tp.OpenContainer(backend.KindArray)
				tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageExternal, Width: sc.w,
					Len: len(text) / size, Chars: n, Clean: clean, Where: uint64(uintptr(unsafe.Pointer(&src[0])))})
				tp.CloseContainer(at, 1)
				if got := string(Append(nil, tp, nil, 0)); got != want {
					t.Fatalf("width %d, %q, %d bytes before the page's end:\n got %s\nwant %s", sc.w, s, back, got, want)
				}
			}
		}
	}
}
