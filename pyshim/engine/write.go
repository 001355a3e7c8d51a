package main

/*
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/writer"
)

// writeCall holds the Go headers wrapping one call's tape and output buffer,
// and the fast writer's scratch; recycled so that a call allocates nothing,
// and takes one thing from a pool (the writer's own pool was a second Get
// and Put: about 110 instructions of every short dumps).
type writeCall struct {
	tape    backend.Tape
	out     writer.Output
	grower  callbackGrower // write_into's output growth; out.Alloc points here
	scratch writer.Scratch
}

// A pooled writeCall's out.Alloc is cAllocator (isojson_engine_write's);
// write_into sets its own and puts that back.
var writeCalls = sync.Pool{New: func() any { return &writeCall{out: writer.Output{Alloc: cAllocator{}}} }}

// isojson_engine_write appends the JSON text of tape t to out, growing out
// with realloc. The tape is read only; its StorageInput refs point into
// input[0:inputLen).
//
// Its body is write_into's, less the callback: kept apart rather than shared
// through a helper because every short dumps pays this call (the shared
// version measured ~40 instructions more per call).
//
//export isojson_engine_write
func isojson_engine_write(t *C.isojson_tape, input *C.uint8_t, inputLen C.size_t, opts C.uint32_t, out *C.isojson_buf, err *C.isojson_error) (rc C.int) {
	w := writeCalls.Get().(*writeCall)
	w.tape.Words = wordsOf(unsafe.Pointer(t.words), int(t.len), int(t.len))
	w.tape.Arena = bytesOf(unsafe.Pointer(t.arena), int(t.arena_len), int(t.arena_len))
	w.out.Buf = bytesOf(unsafe.Pointer(out.data), int(out.len), int(out.cap))
	defer func() {
		// The writer keeps w.out.Buf on the live buffer even when it panics
		// later in the call (see writer.Output).
		out.data = (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(w.out.Buf)))
		out.len, out.cap = C.size_t(len(w.out.Buf)), C.size_t(cap(w.out.Buf))
		w.tape.Words, w.tape.Arena, w.out.Buf = nil, nil, nil
		writeCalls.Put(w)
		if r := recover(); r != nil {
			rc = recovered(r, err)
		}
	}()
	if c := chosenWriter.Load(); c == nil {
		w.out.WriteWith(&w.scratch, &w.tape, inputBytes(input, inputLen), writer.Flags(opts))
	} else if !c.write(w, input, inputLen, opts, err) {
		return C.ISOJSON_FAIL
	}
	return C.ISOJSON_OK
}

// isojson_engine_write_into is isojson_engine_write with the output grown by
// the caller's grow(ctx, out, need), so that the caller can hand the engine
// the storage of the object it returns (the extension: a bytes object) and
// skip copying the text out of a buffer of its own.
//
//export isojson_engine_write_into
func isojson_engine_write_into(t *C.isojson_tape, input *C.uint8_t, inputLen C.size_t, opts C.uint32_t, out *C.isojson_buf, grow C.isojson_grow_fn, ctx unsafe.Pointer, err *C.isojson_error) (rc C.int) {
	if grow == nil {
		setMsg(err, "isojson_engine_write_into: no grow function")
		return C.ISOJSON_FAIL
	}
	w := writeCalls.Get().(*writeCall)
	w.grower = callbackGrower{buf: out, grow: grow, ctx: ctx}
	w.out.Alloc = &w.grower
	w.tape.Words = wordsOf(unsafe.Pointer(t.words), int(t.len), int(t.len))
	w.tape.Arena = bytesOf(unsafe.Pointer(t.arena), int(t.arena_len), int(t.arena_len))
	w.out.Buf = bytesOf(unsafe.Pointer(out.data), int(out.len), int(out.cap))
	defer func() {
		r := recover()
		if r == nil {
			out.data = (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(w.out.Buf)))
			out.len, out.cap = C.size_t(len(w.out.Buf)), C.size_t(cap(w.out.Buf))
		} else {
			// A panic in or after a growth: out holds what the callback
			// last returned, which w.out.Buf may not yet (a short growth
			// panics before the writer takes the new buffer).
			out.len = 0
			rc = recovered(r, err)
		}
		w.tape.Words, w.tape.Arena, w.out.Buf, w.out.Alloc = nil, nil, nil, cAllocator{}
		w.grower = callbackGrower{}
		writeCalls.Put(w)
	}()
	if c := chosenWriter.Load(); c == nil {
		w.out.WriteWith(&w.scratch, &w.tape, inputBytes(input, inputLen), writer.Flags(opts))
	} else if !c.write(w, input, inputLen, opts, err) {
		w.out.Buf = w.out.Buf[:0] // out->len is 0 on any error
		return C.ISOJSON_FAIL
	}
	return C.ISOJSON_OK
}

// write writes the call's tape with the chosen writer, which is not the
// fast one, or reports the failed choice.
func (c *writerChoice) write(w *writeCall, input *C.uint8_t, inputLen C.size_t, opts C.uint32_t, err *C.isojson_error) bool {
	if c.w == nil {
		setMsg(err, c.why)
		return false
	}
	// backend.Output has writer.Output's layout: the writer grows w.out in
	// place, through its Allocator, as the fast writer does.
	c.w.Write((*backend.Output)(&w.out), &w.tape, inputBytes(input, inputLen), backend.WriteFlags(opts))
	return true
}

// inputBytes wraps the caller's input document (NULL: none).
func inputBytes(input *C.uint8_t, n C.size_t) []byte {
	if input == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(input)), int(n))
}
