package scalar

import "github.com/isojson/isojson/backend"

// The tape grows only through Tape.ReserveWords and Tape.ReserveArena, which
// honor the tape's Allocator (C memory in the engine); these inlinable checks
// keep that call off the common path, so append never reallocates.

func reserveWords(t *backend.Tape, n int) {
	if cap(t.Words)-len(t.Words) < n {
		t.ReserveWords(n)
	}
}

func reserveArena(t *backend.Tape, n int) {
	if cap(t.Arena)-len(t.Arena) < n {
		t.ReserveArena(n)
	}
}

func appendArena(t *backend.Tape, b []byte) {
	reserveArena(t, len(b))
	t.Arena = append(t.Arena, b...)
}
