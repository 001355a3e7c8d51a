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

// outputs recycles the Go headers wrapping the caller's tape and buffer.
type writeCall struct {
	tape backend.Tape
	out  writer.Output
}

var writeCalls = sync.Pool{New: func() any { return &writeCall{out: writer.Output{Alloc: cAllocator{}}} }}

// isojson_engine_write appends the JSON text of tape t to out, growing out
// with realloc. The tape is read only; its StorageInput refs point into
// input[0:inputLen).
//
//export isojson_engine_write
func isojson_engine_write(t *C.isojson_tape, input *C.uint8_t, inputLen C.size_t, opts C.uint32_t, out *C.isojson_buf, err *C.isojson_error) (rc C.int) {
	w := writeCalls.Get().(*writeCall)
	w.tape.Words = wordsOf(unsafe.Pointer(t.words), int(t.len), int(t.len))
	w.tape.Arena = bytesOf(unsafe.Pointer(t.arena), int(t.arena_len), int(t.arena_len))
	w.out.Buf = bytesOf(unsafe.Pointer(out.data), int(out.len), int(out.cap))
	defer func() {
		out.data = (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(w.out.Buf)))
		out.len, out.cap = C.size_t(len(w.out.Buf)), C.size_t(cap(w.out.Buf))
		w.tape.Words, w.tape.Arena, w.out.Buf = nil, nil, nil
		writeCalls.Put(w)
		if r := recover(); r != nil {
			rc = recovered(r, err)
		}
	}()
	var in []byte
	if input != nil {
		in = unsafe.Slice((*byte)(unsafe.Pointer(input)), int(inputLen))
	}
	w.out.Write(&w.tape, in, writer.Flags(opts))
	return C.ISOJSON_OK
}
