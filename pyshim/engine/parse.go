package main

/*
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// tapes recycles the Go header of the tapes that wrap the caller's C memory:
// a Tape handed to a Parser (an interface) escapes, and a pool keeps each
// call free of Go allocation.
var tapes = sync.Pool{New: func() any { return &backend.Tape{Alloc: cAllocator{}} }}

// spareTape is one header in front of the pool, taken and given back with
// one compare-and-swap and one store of spareBusy (both compiled inline),
// where the pool's Get and Put (pinning the P, its per-P lists) cost 116
// instructions a call, 7% of loads(b"[]") (callgrind). A call that overlaps
// another (threads, sub-interpreters) finds it taken and uses the pool as
// before. It is a global, so no pointer to it needs hiding from the
// collector.
var (
	spareTape = backend.Tape{Alloc: cAllocator{}}
	spareBusy atomic.Int32
)

func getTape() *backend.Tape {
	if spareBusy.CompareAndSwap(0, 1) {
		return &spareTape
	}
	return tapes.Get().(*backend.Tape)
}

func putTape(tape *backend.Tape) {
	if tape == &spareTape {
		spareBusy.Store(0)
		return
	}
	tapes.Put(tape)
}

// isojson_engine_parse parses src[0:n) with backend number idx into the
// caller's tape t, which it grows with realloc. It never panics into C.
//
//export isojson_engine_parse
func isojson_engine_parse(idx C.int, src *C.uint8_t, n C.size_t, t *C.isojson_tape, err *C.isojson_error) (rc C.int) {
	catalog()
	if idx < 0 || int(idx) >= len(parsers) || parsers[idx] == nil {
		setMsg(err, "invalid backend index")
		return C.ISOJSON_FAIL
	}
	tape := getTape()
	tape.Words = wordsOf(unsafe.Pointer(t.words), 0, int(t.cap))
	tape.Arena = bytesOf(unsafe.Pointer(t.arena), 0, int(t.arena_cap))
	defer func() {
		// Whatever happened, hand the (possibly reallocated) memory back to
		// the caller so that it is neither leaked nor freed twice.
		t.words = (*C.uint64_t)(unsafe.Pointer(unsafe.SliceData(tape.Words)))
		t.len, t.cap = C.size_t(len(tape.Words)), C.size_t(cap(tape.Words))
		t.arena = (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(tape.Arena)))
		t.arena_len, t.arena_cap = C.size_t(len(tape.Arena)), C.size_t(cap(tape.Arena))
		tape.Words, tape.Arena = nil, nil
		putTape(tape)
		if r := recover(); r != nil {
			rc = recovered(r, err)
		}
	}()
	input := unsafe.Slice((*byte)(unsafe.Pointer(src)), int(n))
	return report(parsers[idx].Parse(input, tape), err)
}
