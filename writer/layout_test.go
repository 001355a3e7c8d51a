package writer

import (
	"bytes"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// countingAlloc grows buffers like C realloc would and remembers the
// buffers it handed out, so that a test can tell whether the writer ever
// grew a buffer behind its back (by appending past cap).
type countingAlloc struct {
	grows int
	last  *byte
}

func (a *countingAlloc) GrowWords(old []uint64, need int) []uint64 {
	w := make([]uint64, len(old), need)
	copy(w, old)
	return w
}

func (a *countingAlloc) GrowBytes(old []byte, need int) []byte {
	a.grows++
	b := make([]byte, len(old), need)
	copy(b, old)
	a.last = unsafe.SliceData(b)
	return b
}

func TestOutputGrowsOnlyThroughAlloc(t *testing.T) {
	long := strings.Repeat("\"é\n", 30000)
	doc := `{"a":[1,2.5e300,"` + strings.Repeat("x", 5000) + `",{"b":null}],"c":` + quoteJSON(long) + `}`
	tp, err := tapeOf([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, flags := range []Flags{0, Indent2 | SortKeys | AppendNewline} {
		a := &countingAlloc{}
		o := Output{Buf: make([]byte, 3, 4), Alloc: a}
		start := unsafe.SliceData(o.Buf)
		o.Write(tp, nil, flags)
		want := append([]byte{0, 0, 0}, Append(nil, tp, nil, flags)...)
		if !bytes.Equal(o.Buf, want) {
			t.Fatalf("flags %d: Output differs from Append", flags)
		}
		if a.grows == 0 || unsafe.SliceData(o.Buf) != a.last || unsafe.SliceData(o.Buf) == start {
			t.Fatalf("flags %d: buffer not grown through Alloc (%d grows)", flags, a.grows)
		}
	}
}

func quoteJSON(s string) string {
	tp := &backend.Tape{Arena: []byte(s)}
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Len: len(s)})
	return string(Append(nil, tp, nil, 0))
}

// externalKey appends a String ref to s stored in CPython's layout of the
// given width; keep holds the memory.
func externalKey(tp *backend.Tape, s string, w backend.Width, keep *[][]byte) {
	if w == backend.WidthUTF8 {
		b := []byte(s)
		*keep = append(*keep, b)
		tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageExternal, Len: len(b),
			Where: uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))})
		return
	}
	size := 1 << (w - 1)
	n := utf8.RuneCountInString(s)
	b := make([]byte, size*n+4)
	i := 0
	for _, r := range s {
		switch size {
		case 1:
			b[i] = byte(r)
		case 2:
			*(*uint16)(unsafe.Pointer(&b[i])) = uint16(r)
		default:
			*(*uint32)(unsafe.Pointer(&b[i])) = uint32(r)
		}
		i += size
	}
	*keep = append(*keep, b)
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageExternal, Width: w, Len: n,
		Where: uint64(uintptr(unsafe.Pointer(&b[0]))), Chars: n})
}

func TestSortKeysMixedLayouts(t *testing.T) {
	var keep [][]byte
	tp := &backend.Tape{}
	at := tp.OpenContainer(backend.KindObject)
	keys := []struct {
		s string
		w backend.Width
	}{
		{"😀", backend.WidthUCS4}, {"\uffff", backend.WidthUCS2}, {"z", backend.WidthUTF8}, {"é", backend.WidthUCS1},
		{"ab", backend.WidthUCS1}, {"€", backend.WidthUCS2}, {"a", backend.WidthUTF8}, {"é\u0100", backend.WidthUCS2},
		{"éa", backend.WidthUTF8}, {"\U00010000", backend.WidthUTF8}, {"a\U0001f600", backend.WidthUCS4},
		{"a\uffff", backend.WidthUCS2},
	}
	for n, k := range keys {
		externalKey(tp, k.s, k.w, &keep)
		tp.AppendNumber(backend.KindInt, uint64(n))
	}
	tp.CloseContainer(at, len(keys))
	got := string(Append(nil, tp, nil, SortKeys))
	runtime.KeepAlive(keep)
	// sorted() of the same Python str keys.
	want := `{"a":6,"ab":4,"a` + "\uffff" + `":11,"a😀":10,"z":2,"é":3,"éa":8,"é` + "\u0100" + `":7,"€":5,"` + "\uffff" + `":1,"` + "\U00010000" + `":9,"😀":0}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDeepIndent(t *testing.T) {
	const depth = 1500 // deeper than indentText covers
	tp := &backend.Tape{}
	var at []int
	for range depth {
		at = append(at, tp.OpenContainer(backend.KindArray))
	}
	tp.AppendScalar(backend.KindNull)
	for k := len(at) - 1; k >= 0; k-- {
		tp.CloseContainer(at[k], 1)
	}
	var want strings.Builder
	for d := range depth {
		want.WriteString("[\n" + strings.Repeat("  ", d+1))
	}
	want.WriteString("null")
	for d := depth - 1; d >= 0; d-- {
		want.WriteString("\n" + strings.Repeat("  ", d) + "]")
	}
	if got := string(Append(nil, tp, nil, Indent2)); got != want.String() {
		t.Errorf("deep indent differs (len %d, want %d)", len(got), want.Len())
	}
}

func TestRefKinds(t *testing.T) {
	input := []byte(`xx"a\b"12345678901234567890123`)
	tp := &backend.Tape{}
	at := tp.OpenContainer(backend.KindArray)
	// StorageInput, not clean: escaped.
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageInput, Len: 5, Where: 2})
	// Clean: quoted, never escaped. Raw and BigInt: verbatim.
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageInput, Len: 2, Where: 0, Clean: true})
	tp.AppendRef(backend.KindRaw, backend.Ref{Storage: backend.StorageInput, Len: 5, Where: 2})
	tp.AppendRef(backend.KindBigInt, backend.Ref{Storage: backend.StorageInput, Len: 23, Where: 7})
	tp.CloseContainer(at, 4)
	want := `["\"a\\b\"","xx","a\b",12345678901234567890123]`
	if got := string(Append(nil, tp, input, 0)); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := Append([]byte("keep"), &backend.Tape{}, nil, AppendNewline); string(got) != "keep" {
		t.Errorf("empty tape wrote %q", got)
	}
}

func TestLoneSurrogateReplaced(t *testing.T) {
	units := []uint16{'a', 0xd800, 'b', 0xdc00, 0xd83d, 0xde00}
	tp := &backend.Tape{}
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageExternal, Width: backend.WidthUCS2,
		Len: len(units), Where: uint64(uintptr(unsafe.Pointer(&units[0])))})
	got := Append(nil, tp, nil, 0)
	runtime.KeepAlive(units)
	if !utf8.Valid(got) || string(got) != "\"a\uFFFDb\uFFFD😀\"" {
		t.Errorf("got %q", got)
	}
}

func TestSortKeysLarge(t *testing.T) {
	// More than 32 members (the merge sort path), shared 8-byte prefixes,
	// repeated keys (which keep their order), and keys shorter than 8 bytes
	// that differ only by a trailing NUL.
	r := []string{"prefix__", "prefix__a", "prefix__\x00", "", "\x00", "a", "a\x00", "é", "prefix_", "zz", "€€€€€€€€"}
	var doc strings.Builder
	var keys []string
	doc.WriteString("{")
	for n := range 300 {
		k := r[n*7%len(r)] + strings.Repeat("k", n%3)
		if n > 0 {
			doc.WriteString(",")
		}
		doc.WriteString(quoteJSON(k) + ":" + strconv.Itoa(n))
		keys = append(keys, k)
	}
	doc.WriteString("}")
	tp, err := tapeOf([]byte(doc.String()))
	if err != nil {
		t.Fatal(err)
	}
	order := make([]int, len(keys))
	for n := range order {
		order[n] = n
	}
	sort.SliceStable(order, func(a, b int) bool { return keys[order[a]] < keys[order[b]] })
	var want strings.Builder
	want.WriteString("{")
	for n, k := range order {
		if n > 0 {
			want.WriteString(",")
		}
		want.WriteString(quoteJSON(keys[k]) + ":" + strconv.Itoa(k))
	}
	want.WriteString("}")
	if got := string(Append(nil, tp, nil, SortKeys)); got != want.String() {
		t.Errorf("got  %s\nwant %s", got, want.String())
	}
}

func TestUCS2PairAcrossChunks(t *testing.T) {
	units := make([]uint16, escapeChunk+10)
	for i := range units {
		units[i] = 'a'
	}
	units[escapeChunk-1], units[escapeChunk] = 0xd83d, 0xde00
	tp := &backend.Tape{}
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageExternal, Width: backend.WidthUCS2,
		Len: len(units), Where: uint64(uintptr(unsafe.Pointer(&units[0])))})
	got := string(Append(nil, tp, nil, 0))
	runtime.KeepAlive(units)
	want := `"` + strings.Repeat("a", escapeChunk-1) + "😀" + strings.Repeat("a", 9) + `"`
	if got != want {
		t.Errorf("pair split across chunks: got ...%q", got[escapeChunk-4:escapeChunk+8])
	}
}

// TestConcurrentWrites runs writers on many goroutines at once (the engine
// is called from any thread and from sub-interpreters): pooled scratch must
// never be shared.
func TestConcurrentWrites(t *testing.T) {
	docs := []string{
		`{"b":[1,2,{"z":1,"a":[3,{"y":2,"x":1}]}],"a":"é\n","c":1.5}`,
		`[{"k3":1,"k1":2,"k2":[{"q":1,"p":2}]},{"b":null,"a":true}]`,
	}
	var tapes []*backend.Tape
	var want [][]byte
	for _, d := range docs {
		tp, err := tapeOf([]byte(d))
		if err != nil {
			t.Fatal(err)
		}
		tapes = append(tapes, tp)
		want = append(want, Append(nil, tp, nil, Indent2|SortKeys))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for n := range 2000 {
				k := (g + n) % len(tapes)
				buf = Append(buf[:0], tapes[k], nil, Indent2|SortKeys)
				if !bytes.Equal(buf, want[k]) {
					errs <- string(buf)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent write differs: %s", e)
	}
}

// TestOutputBufLiveAfterPanic: a malformed tape panics mid-write; o.Buf
// must then be the buffer the allocator last returned (the engine's deferred
// recovery hands it back to C, which frees it).
func TestOutputBufLiveAfterPanic(t *testing.T) {
	tp := &backend.Tape{}
	at := tp.OpenContainer(backend.KindArray)
	tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Len: 4000})
	tp.Words = append(tp.Words, 0) // kind 0: not a valid entry
	tp.CloseContainer(at, 2)
	tp.Arena = make([]byte, 4000)
	a := &countingAlloc{}
	o := Output{Buf: make([]byte, 0, 8), Alloc: a}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("no panic for an invalid entry")
			}
		}()
		o.Write(tp, nil, 0)
	}()
	if a.grows == 0 || unsafe.SliceData(o.Buf) != a.last {
		t.Errorf("o.Buf is not the allocator's last buffer after a panic (%d grows)", a.grows)
	}
}

// TestExternalKeysEveryLength writes keys of every length the short key
// path covers and past it, from External memory with nothing after the
// text, clean and with escapes, compact and indented (the indented walk
// stores the key's ": " after its short copy).
func TestExternalKeysEveryLength(t *testing.T) {
	var keep [][]byte
	tp := &backend.Tape{}
	at := tp.OpenContainer(backend.KindObject)
	var pairs [][2]string
	members := 0
	for n := range 37 {
		for _, text := range []string{strings.Repeat("k", n), strings.Repeat("\"", n)} {
			if n == 0 && text == "" && members > 0 {
				continue
			}
			b := []byte(text)
			where := uintptr(unsafe.Pointer(&zeroText))
			if n > 0 {
				where = uintptr(unsafe.Pointer(&b[0]))
			}
			keep = append(keep, b)
			tp.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageExternal, Len: n, Chars: n,
				Clean: !strings.Contains(text, `"`), Where: uint64(where)})
			tp.AppendNumber(backend.KindInt, uint64(n))
			pairs = append(pairs, [2]string{quoteJSON(text), strconv.Itoa(n)})
			members++
		}
	}
	tp.CloseContainer(at, members)
	for _, flags := range []Flags{0, Indent2} {
		open, colon, comma, end := "{", ":", ",", "}"
		if flags == Indent2 {
			open, colon, comma, end = "{\n  ", ": ", ",\n  ", "\n}"
		}
		var want strings.Builder
		want.WriteString(open)
		for m, kv := range pairs {
			if m > 0 {
				want.WriteString(comma)
			}
			want.WriteString(kv[0] + colon + kv[1])
		}
		want.WriteString(end)
		got := string(Append(nil, tp, nil, flags))
		if got != want.String() {
			t.Errorf("flags %d:\ngot  %s\nwant %s", flags, got, want.String())
		}
	}
	runtime.KeepAlive(keep)
}
