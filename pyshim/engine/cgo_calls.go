package main

/*
#include <stdlib.h>
#include <string.h>
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"

// The tests' isojson_grow_fn: realloc, filling the new room with 0xAA so that
// a writer that reads unwritten bytes or loses what it wrote shows up; or
// refuse (mode 1); or leave one byte less than asked (mode 2).
typedef struct isojson_test_grow { int mode; int calls; } isojson_test_grow;

static int isojson_test_grow_fn(void *ctx, isojson_buf *out, size_t need)
{
	isojson_test_grow *g = ctx;
	g->calls++;
	if (g->mode == 1)
		return 1;
	size_t cap = g->mode == 2 ? need - 1 : need;
	uint8_t *p = realloc(out->data, cap ? cap : 1);
	if (p == NULL)
		return 1;
	memset(p + out->len, 0xAA, cap - out->len);
	out->data = p;
	out->cap = cap;
	return 0;
}

static isojson_grow_fn isojson_test_grow_ptr(void) { return isojson_test_grow_fn; }
*/
import "C"

import (
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// This file drives the exported functions the way the C extension does (C
// memory in, C memory out) for the package's Go tests and benchmarks, which
// cannot use cgo themselves.

// cCall holds the C memory of a sequence of calls, reused across them like
// the extension's per-thread scratch.
type cCall struct {
	tape *C.isojson_tape
	out  *C.isojson_buf
	err  *C.isojson_error
	src  unsafe.Pointer
	n    int
}

func newCCall() *cCall {
	return &cCall{
		tape: (*C.isojson_tape)(C.calloc(1, C.size_t(unsafe.Sizeof(C.isojson_tape{})))),
		out:  (*C.isojson_buf)(C.calloc(1, C.size_t(unsafe.Sizeof(C.isojson_buf{})))),
		err:  (*C.isojson_error)(C.calloc(1, C.size_t(unsafe.Sizeof(C.isojson_error{})))),
	}
}

// setInput copies src into C memory (the engine never sees Go memory).
func (c *cCall) setInput(src []byte) {
	C.free(c.src)
	c.src = C.malloc(C.size_t(len(src) + 1))
	if len(src) > 0 {
		C.memcpy(c.src, unsafe.Pointer(&src[0]), C.size_t(len(src)))
	}
	c.n = len(src)
}

// parse calls isojson_engine_parse and returns its code, and the error
// message and offset when it fails.
func (c *cCall) parse(idx int) (rc int, msg string, off int64) {
	rc = int(isojson_engine_parse(C.int(idx), (*C.uint8_t)(c.src), C.size_t(c.n), c.tape, c.err))
	if rc != C.ISOJSON_OK {
		return rc, C.GoString(&c.err.msg[0]), int64(c.err.offset)
	}
	return rc, "", 0
}

// goTape copies the C tape into Go memory for comparison.
func (c *cCall) goTape() *backend.Tape {
	t := &backend.Tape{}
	t.Words = append(t.Words, unsafe.Slice((*uint64)(unsafe.Pointer(c.tape.words)), int(c.tape.len))...)
	if c.tape.arena_len > 0 {
		t.Arena = append(t.Arena, unsafe.Slice((*byte)(unsafe.Pointer(c.tape.arena)), int(c.tape.arena_len))...)
	}
	return t
}

// input returns a Go copy of the C input.
func (c *cCall) input() []byte { return C.GoBytes(c.src, C.int(c.n)) }

// write calls isojson_engine_write on the current tape into an emptied
// output buffer.
func (c *cCall) write(opts uint32) int {
	c.out.len = 0
	return int(isojson_engine_write(c.tape, (*C.uint8_t)(c.src), C.size_t(c.n), C.uint32_t(opts), c.out, c.err))
}

// writeInto calls isojson_engine_write_into on the current tape into an
// emptied output buffer of capacity startCap (0xAA-filled), growing it with
// the test callback in mode (0 realloc, 1 refuse, 2 short). It returns the
// code, the error message and the number of grow calls.
func (c *cCall) writeInto(opts uint32, startCap int, mode int) (rc int, msg string, grows int) {
	C.free(unsafe.Pointer(c.out.data))
	c.out.data, c.out.len, c.out.cap = nil, 0, 0
	if startCap > 0 {
		c.out.data = (*C.uint8_t)(C.malloc(C.size_t(startCap)))
		C.memset(unsafe.Pointer(c.out.data), 0xAA, C.size_t(startCap))
		c.out.cap = C.size_t(startCap)
	}
	g := (*C.isojson_test_grow)(C.calloc(1, C.size_t(unsafe.Sizeof(C.isojson_test_grow{}))))
	defer C.free(unsafe.Pointer(g))
	g.mode = C.int(mode)
	c.err.msg[0] = 0
	rc = int(isojson_engine_write_into(c.tape, (*C.uint8_t)(c.src), C.size_t(c.n), C.uint32_t(opts), c.out,
		C.isojson_test_grow_ptr(), unsafe.Pointer(g), c.err))
	if rc != C.ISOJSON_OK {
		msg = C.GoString(&c.err.msg[0])
	}
	return rc, msg, int(g.calls)
}

// setTape replaces the C tape's words with words (for hand-built tapes).
func (c *cCall) setTape(words []uint64) {
	C.free(unsafe.Pointer(c.tape.words))
	c.tape.words = (*C.uint64_t)(C.malloc(C.size_t(8 * len(words))))
	copy(unsafe.Slice((*uint64)(unsafe.Pointer(c.tape.words)), len(words)), words)
	c.tape.len, c.tape.cap = C.size_t(len(words)), C.size_t(len(words))
	c.tape.arena_len = 0
}

// outCap is the capacity of the output buffer as the last call left it.
func (c *cCall) outCap() int { return int(c.out.cap) }

// writeIntoNoGrow calls isojson_engine_write_into with a NULL grow function.
func (c *cCall) writeIntoNoGrow() (int, string) {
	c.out.len = 0
	rc := int(isojson_engine_write_into(c.tape, (*C.uint8_t)(c.src), C.size_t(c.n), 0, c.out, nil, nil, c.err))
	return rc, C.GoString(&c.err.msg[0])
}

// output returns a Go copy of the last write's bytes.
func (c *cCall) output() []byte { return C.GoBytes(unsafe.Pointer(c.out.data), C.int(c.out.len)) }

func (c *cCall) free() {
	C.free(unsafe.Pointer(c.tape.words))
	C.free(unsafe.Pointer(c.tape.arena))
	C.free(unsafe.Pointer(c.out.data))
	C.free(unsafe.Pointer(c.tape))
	C.free(unsafe.Pointer(c.out))
	C.free(unsafe.Pointer(c.err))
	C.free(c.src)
}

// backendIndex resolves a backend name like the extension does.
func backendIndex(name string) (int, string) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var e C.isojson_error
	i := int(isojson_engine_backend(cs, &e))
	if i < 0 {
		return i, C.GoString(&e.msg[0])
	}
	return i, ""
}

func backendName(i int) string {
	p := isojson_engine_backend_name(C.int(i))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

func engineBackends() string { return C.GoString(isojson_engine_backends()) }

// isojsonWriteIntoAgain repeats write_into into the buffer already there
// (for benchmarks: no allocation between calls).
func isojsonWriteIntoAgain(c *cCall) int {
	var g C.isojson_test_grow
	return int(isojson_engine_write_into(c.tape, (*C.uint8_t)(c.src), C.size_t(c.n), 0, c.out,
		C.isojson_test_grow_ptr(), unsafe.Pointer(&g), c.err))
}

// writerIndex resolves a writer name like the extension does.
func writerIndex(name string) (int, string) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var e C.isojson_error
	i := int(isojson_engine_writer(cs, &e))
	if i < 0 {
		return i, C.GoString(&e.msg[0])
	}
	return i, ""
}

func writerName(i int) string {
	p := isojson_engine_writer_name(C.int(i))
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

func engineWriters() string { return C.GoString(isojson_engine_writers()) }

// useWriter calls isojson_engine_use_writer (why: the failure message for -1).
func useWriter(i int, why string) int {
	cs := C.CString(why)
	defer C.free(unsafe.Pointer(cs))
	return int(isojson_engine_use_writer(C.int(i), cs))
}

// errMsg is the message the last failed call left.
func (c *cCall) errMsg() string { return C.GoString(&c.err.msg[0]) }

// rcSyntax is ISOJSON_SYNTAX, for the tests.
const rcSyntax = int(C.ISOJSON_SYNTAX)
