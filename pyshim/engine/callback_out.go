package main

/*
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"

// Go cannot call a C function pointer itself.
static int isojson_call_grow(isojson_grow_fn grow, void *ctx, isojson_buf *out, size_t need)
{
	return grow(ctx, out, need);
}
*/
import "C"

import "unsafe"

// callbackGrower is the backend.Allocator of isojson_engine_write_into: the
// output grows through the caller's callback (a Go→C call, ~45 ns: the
// caller sizes the buffer so that this is rare), never with realloc, because
// the buffer is the storage of an object the caller owns.
type callbackGrower struct {
	buf  *C.isojson_buf
	grow C.isojson_grow_fn
	ctx  unsafe.Pointer
}

// errShortGrow is panicked when the callback reports success but leaves less
// room than asked: a bug in the caller, reported as ISOJSON_FAIL.
type errShortGrow struct{}

func (errShortGrow) Error() string { return "isojson_engine_write_into: grow returned less than asked" }

func (g *callbackGrower) GrowBytes(old []byte, need int) []byte {
	if need <= cap(old) {
		return old
	}
	// The callback keeps out->data[0:out->len): tell it how much is written.
	g.buf.data = (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(old)))
	g.buf.len, g.buf.cap = C.size_t(len(old)), C.size_t(cap(old))
	if C.isojson_call_grow(g.grow, g.ctx, g.buf, C.size_t(need)) != 0 {
		panic(errNoMemory{})
	}
	if g.buf.data == nil || int(g.buf.cap) < need {
		panic(errShortGrow{})
	}
	return bytesOf(unsafe.Pointer(g.buf.data), len(old), int(g.buf.cap))
}

// GrowWords is never called: the writer grows only its output.
func (g *callbackGrower) GrowWords(old []uint64, need int) []uint64 {
	panic("isojson_engine_write_into: the writer grew tape words")
}
