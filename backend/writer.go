package backend

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// WriteFlags are the orjson option bits a writer acts on; every other bit is
// ignored, so callers pass orjson's options straight through. The values are
// orjson 3.13's (OPT_INDENT_2, OPT_SORT_KEYS, OPT_APPEND_NEWLINE).
type WriteFlags uint32

const (
	WriteIndent2       WriteFlags = 1    // OPT_INDENT_2: two-space indentation, ": " after keys
	WriteSortKeys      WriteFlags = 32   // OPT_SORT_KEYS: members by key, bytewise (UTF-8 order is code point order)
	WriteAppendNewline WriteFlags = 1024 // OPT_APPEND_NEWLINE: a '\n' after the document

	// WriteBigIntAsFloat is not an orjson option (orjson rejects the bit,
	// so it never arrives from Python): BigInt entries are written as the
	// nearest float64, which is what orjson.loads makes of an integer beyond
	// 64 bits, so that a reformatted document equals dumps(loads(doc)).
	WriteBigIntAsFloat WriteFlags = 1 << 30
)

// Output is a buffer a Writer appends to. When Alloc is non-nil the buffer
// grows only through Alloc.GrowBytes (a writer never appends past cap(Buf)),
// so that Buf can be C memory, and Buf is kept on the live buffer at every
// growth, so that a caller that recovers from a panic later in the write (a
// malformed tape) neither uses nor frees freed memory.
//
// Its layout is writer.Output's, so that the fast writer converts the pointer
// instead of copying.
type Output struct {
	Buf   []byte
	Alloc Allocator
}

// Writer turns a tape into JSON text, byte for byte what orjson 3.13's dumps
// writes for the same document.
//
// Write appends the text of t's root value to out (nothing for an empty
// tape). input is the document that StorageInput refs point into (nil if
// there are none). A malformed tape may panic, but never writes past what out
// allows. A Writer must be safe for concurrent use.
type Writer interface {
	Write(out *Output, t *Tape, input []byte, flags WriteFlags)
}

// WriterBackend is a registered writer.
type WriterBackend struct {
	Name string
	// Supported reports whether this CPU and build can run the writer; nil
	// means everywhere.
	Supported func() bool
	// Rank orders the default choice: among supported writers the lowest
	// rank wins. Ranks come from measurement (bench/results).
	Rank   int
	Writer Writer
}

var (
	writersMu sync.RWMutex
	writers   = map[string]*WriterBackend{}
)

// RegisterWriter adds a writer; it panics on a duplicate name.
func RegisterWriter(w *WriterBackend) {
	writersMu.Lock()
	defer writersMu.Unlock()
	if _, ok := writers[w.Name]; ok {
		panic("backend: duplicate registration of writer " + w.Name)
	}
	writers[w.Name] = w
}

// WriterNames lists the compiled-in writers in rank order.
func WriterNames() []string {
	writersMu.RLock()
	all := make([]*WriterBackend, 0, len(writers))
	for _, w := range writers {
		all = append(all, w)
	}
	writersMu.RUnlock()
	sort.Slice(all, func(i, j int) bool {
		if all[i].Rank != all[j].Rank {
			return all[i].Rank < all[j].Rank
		}
		return all[i].Name < all[j].Name
	})
	names := make([]string, len(all))
	for i, w := range all {
		names[i] = w.Name
	}
	return names
}

// LookupWriter returns the writer called name, or an error naming the
// choices when it is unknown or cannot run here.
func LookupWriter(name string) (*WriterBackend, error) {
	writersMu.RLock()
	w := writers[name]
	writersMu.RUnlock()
	if w == nil {
		return nil, fmt.Errorf("unknown writer %q: compiled in are %s", name, strings.Join(WriterNames(), ", "))
	}
	if w.Supported != nil && !w.Supported() {
		return nil, fmt.Errorf("writer %q is not supported on this CPU: compiled in are %s", name, strings.Join(WriterNames(), ", "))
	}
	return w, nil
}

// DefaultWriter returns the supported writer with the lowest rank, or nil
// when none is compiled in.
func DefaultWriter() *WriterBackend {
	for _, n := range WriterNames() {
		if w, err := LookupWriter(n); err == nil {
			return w
		}
	}
	return nil
}

// SupportedWriters lists the compiled-in writers that can run here, in rank
// order.
func SupportedWriters() []string {
	return slices.DeleteFunc(WriterNames(), func(n string) bool { _, err := LookupWriter(n); return err != nil })
}
