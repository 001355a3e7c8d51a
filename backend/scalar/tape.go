package scalar

import "github.com/isojson/isojson/backend"

// The tape grows only through Tape.ReserveWords and Tape.ReserveArena, which
// honor the tape's Allocator (C memory in the engine). The parser reserves
// room for one entry (at most entryRoom words) before each value and key, so
// the put functions below only reslice and store: they are small enough to
// inline, and never reallocate.

// entryRoom is the largest entry, in words.
const entryRoom = backend.RefWords

func reserveEntry(t *backend.Tape) {
	if cap(t.Words)-len(t.Words) < entryRoom {
		t.ReserveWords(entryRoom)
	}
}

// reserveMember reserves room for an object member's two entries, its key
// and its value: parse goes on from the key to the value with one check.
func reserveMember(t *backend.Tape) {
	if cap(t.Words)-len(t.Words) < 2*entryRoom {
		t.ReserveWords(2 * entryRoom)
	}
}

// The puts extend t.Words by reslicing it in place (t.Words = t.Words[:k]),
// which the compiler turns into a store of the length alone: assigning a
// slice built elsewhere would store the pointer too, and a pointer store to
// the (heap) Tape carries a write barrier check.

// Each put stores its words through a local slice of exactly their number,
// cut from a copy of t.Words (one bounds check, against the capacity; the
// stores need none), and extends t.Words in place BEFORE the stores: after
// them the compiler must assume a store may have changed t.Words (they are
// uint64 stores into memory it cannot tell apart), so the reslice reloaded
// the capacity and checked it a second time.

func put1(t *backend.Tape, a uint64) {
	words := t.Words
	n := len(words)
	w := words[n : n+1 : n+1]
	t.Words = t.Words[:n+1]
	w[0] = a
}

func put2(t *backend.Tape, a, b uint64) {
	words := t.Words
	n := len(words)
	w := words[n : n+2 : n+2]
	t.Words = t.Words[:n+2]
	w[0], w[1] = a, b
}

func put3(t *backend.Tape, a, b, c uint64) {
	words := t.Words
	n := len(words)
	w := words[n : n+3 : n+3]
	t.Words = t.Words[:n+3]
	w[0], w[1], w[2] = a, b, c
}

// arenaByte appends one byte to the arena, in place as the puts; the
// caller has reserved room.
func arenaByte(t *backend.Tape, c byte) {
	n := len(t.Arena)
	t.Arena = t.Arena[:n+1]
	t.Arena[n] = c
}

func reserveArena(t *backend.Tape, n int) {
	if cap(t.Arena)-len(t.Arena) < n {
		t.ReserveArena(n)
	}
}

func appendArena(t *backend.Tape, b []byte) {
	reserveArena(t, len(b))
	n := len(t.Arena)
	t.Arena = t.Arena[:n+len(b)] // in place, as the puts
	copy(t.Arena[n:], b)
}
