package api

import (
	"sync"

	"github.com/isojson/isojson/backend"
)

// Parse parses one JSON document into t (which it resets) with the backend
// in use. Strings without escapes point into src (StorageInput), so src must
// stay alive and unchanged while t is read. Invalid JSON gives a
// *DecodeError.
func Parse(src []byte, t *backend.Tape) error {
	t.Reset()
	if err := current().Parser.Parse(src, t); err != nil {
		return newDecodeError(src, err)
	}
	return nil
}

// Valid reports whether src is one JSON document that orjson.loads accepts.
func Valid(src []byte) bool {
	t := tapePool.Get().(*backend.Tape)
	t.Reset()
	err := current().Parser.Parse(src, t)
	putTape(t)
	return err == nil
}

// tapePool reuses tapes between calls; tapes that grew very large are
// dropped so that one huge document does not pin its memory.
var tapePool = sync.Pool{New: func() any { return new(backend.Tape) }}

func putTape(t *backend.Tape) {
	if cap(t.Words) > 1<<20 || cap(t.Arena) > 8<<20 {
		return
	}
	t.Reset()
	tapePool.Put(t)
}
