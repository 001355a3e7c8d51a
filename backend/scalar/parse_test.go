package scalar_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

func parse(t *testing.T, src string) *backend.Tape {
	t.Helper()
	var tape backend.Tape
	if err := (scalar.Parser{}).Parse([]byte(src), &tape); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return &tape
}

func TestRegistered(t *testing.T) {
	b, err := backend.Lookup("scalar")
	if err != nil {
		t.Fatal(err)
	}
	if b.Rank != 100 || b.Parser != (scalar.Parser{}) {
		t.Errorf("registered as %+v", b)
	}
}

// TestTapeLayout pins the exact words of a small document.
func TestTapeLayout(t *testing.T) {
	src := `{"a":[true,null,-5,1.5],"\n":"x"}`
	tape := parse(t, src)
	h := func(k backend.Kind, payload uint64) uint64 { return backend.Header(k, payload) }
	str := func(s backend.Storage, clean bool, n int) uint64 {
		return backend.RefHeader(backend.KindString, s, backend.ClassASCII, backend.WidthUTF8, clean, n)
	}
	want := []uint64{
		h(backend.KindObject, 2), 19,
		str(backend.StorageInput, true, 1), 2, 1, // "a"
		h(backend.KindArray, 4), 13,
		h(backend.KindTrue, 0),
		h(backend.KindNull, 0),
		h(backend.KindInt, 0), uint64(1<<64 - 5),
		h(backend.KindFloat, 0), 0x3FF8000000000000,
		str(backend.StorageArena, false, 1), 0, 1, // "\n" unescaped, needs escaping again
		str(backend.StorageInput, true, 1), 30, 1, // "x"
	}
	if len(tape.Words) != len(want) {
		t.Fatalf("%d words %x, want %d %x", len(tape.Words), tape.Words, len(want), want)
	}
	for i := range want {
		if tape.Words[i] != want[i] {
			t.Errorf("word %d: %#x, want %#x", i, tape.Words[i], want[i])
		}
	}
	if !bytes.Equal(tape.Arena, []byte("\n")) {
		t.Errorf("arena %q", tape.Arena)
	}
}

func TestStringMetadata(t *testing.T) {
	for _, c := range []struct {
		src     string
		storage backend.Storage
		class   backend.Class
		clean   bool
		chars   int
	}{
		{`"abc"`, backend.StorageInput, backend.ClassASCII, true, 3},
		{`"é"`, backend.StorageInput, backend.ClassLatin1, true, 1},
		{`"\u00ff"`, backend.StorageArena, backend.ClassLatin1, true, 1},
		{`"Ā"`, backend.StorageInput, backend.ClassBMP, true, 1},
		{`"aé€"`, backend.StorageInput, backend.ClassBMP, true, 3},
		{`"😀é"`, backend.StorageInput, backend.ClassAstral, true, 2},
		{`"\ud83d\ude00"`, backend.StorageArena, backend.ClassAstral, true, 1},
		{`"a\/b"`, backend.StorageArena, backend.ClassASCII, true, 3},
		{`"a\"b"`, backend.StorageArena, backend.ClassASCII, false, 3},
		{`"\u001f"`, backend.StorageArena, backend.ClassASCII, false, 1},
		{`"\u005c"`, backend.StorageArena, backend.ClassASCII, false, 1},
		{`"\u0041"`, backend.StorageArena, backend.ClassASCII, true, 1},
		{"\"\x7f\"", backend.StorageInput, backend.ClassASCII, true, 1},
	} {
		r := parse(t, c.src).Ref(0)
		if r.Storage != c.storage || r.Class != c.class || r.Clean != c.clean || r.Chars != c.chars || r.Width != backend.WidthUTF8 {
			t.Errorf("%s: %+v", c.src, r)
		}
	}
}

func TestBigIntPointsIntoInput(t *testing.T) {
	src := `[-123456789012345678901234567890]`
	tape := parse(t, src)
	r := tape.Ref(2)
	if tape.Kind(2) != backend.KindBigInt || r.Storage != backend.StorageInput || r.Where != 1 || r.Len != len(src)-2 {
		t.Fatalf("%v %+v", tape.Kind(2), r)
	}
}

// TestNoAllocations: parsing into a warm tape allocates nothing.
func TestNoAllocations(t *testing.T) {
	for _, name := range corpus {
		src := readCorpus(t, name)
		var tape backend.Tape
		p := scalar.Parser{}
		if err := p.Parse(src, &tape); err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(20, func() {
			tape.Reset()
			if err := p.Parse(src, &tape); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per parse", name, allocs)
		}
	}
}

// TestAllocatorHonored: a tape with an Allocator grows only through it.
func TestAllocatorHonored(t *testing.T) {
	src := readCorpus(t, "twitter")
	a := &countingAllocator{}
	tape := backend.Tape{Alloc: a}
	if err := (scalar.Parser{}).Parse(src, &tape); err != nil {
		t.Fatal(err)
	}
	if a.words == 0 || a.bytes == 0 {
		t.Fatalf("allocator not used: %+v", a)
	}
	if cap(tape.Words) != a.lastWords || cap(tape.Arena) != a.lastBytes {
		t.Errorf("tape grew outside the allocator: caps %d/%d, allocator gave %d/%d", cap(tape.Words), cap(tape.Arena), a.lastWords, a.lastBytes)
	}
}

type countingAllocator struct{ words, bytes, lastWords, lastBytes int }

func (a *countingAllocator) GrowWords(old []uint64, need int) []uint64 {
	a.words++
	w := make([]uint64, len(old), 2*need)
	copy(w, old)
	a.lastWords = cap(w)
	return w
}

func (a *countingAllocator) GrowBytes(old []byte, need int) []byte {
	a.bytes++
	b := make([]byte, len(old), 2*need)
	copy(b, old)
	a.lastBytes = cap(b)
	return b
}

// TestDeepInputBoundedWork: ten million '[' stop at the depth limit with a
// tape of at most 1024 containers.
func TestDeepInputBoundedWork(t *testing.T) {
	src := bytes.Repeat([]byte{'['}, 10_000_000)
	var tape backend.Tape
	err := (scalar.Parser{}).Parse(src, &tape)
	if se, ok := err.(*backend.SyntaxError); !ok || se.Msg != backend.MsgDepth || se.Offset != 1025 {
		t.Fatalf("%v", err)
	}
	if len(tape.Words) > 2*backend.MaxDepth {
		t.Errorf("%d words", len(tape.Words))
	}
}

// TestWhitespaceRuns covers every length of whitespace run around the
// 8- and 16-byte windows, at the end of input and before a value.
func TestWhitespaceRuns(t *testing.T) {
	for n := 0; n < 40; n++ {
		for _, ws := range []string{" ", "\n", "\t", "\r", "\n  "} {
			run := strings.Repeat(ws, n)
			for _, src := range []string{run + "1" + run, "[" + run + "1" + run + "," + run + "2" + run + "]" + run} {
				var tape backend.Tape
				if err := (scalar.Parser{}).Parse([]byte(src), &tape); err != nil {
					t.Fatalf("%q: %v", src, err)
				}
			}
			if n > 0 {
				var tape backend.Tape
				err := (scalar.Parser{}).Parse([]byte(run), &tape)
				if se, ok := err.(*backend.SyntaxError); !ok || se.Msg != backend.MsgOnlyWhitespace {
					t.Fatalf("%q: %v", run, err)
				}
			}
		}
	}
}
