package main

/*
#include <stdlib.h>
#include <string.h>
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"
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
