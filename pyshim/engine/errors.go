package main

/*
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// setMsg copies msg into err->msg, cut to fit and NUL-terminated.
func setMsg(err *C.isojson_error, msg string) {
	if err == nil {
		return
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(&err.msg[0])), len(err.msg))
	n := copy(buf[:len(buf)-1], msg)
	buf[n] = 0
}

// report turns the result of a parse or write into a return code, filling
// err for anything but success.
func report(e error, err *C.isojson_error) C.int {
	if e == nil {
		return C.ISOJSON_OK
	}
	var se *backend.SyntaxError
	if errors.As(e, &se) {
		if err != nil {
			err.offset = C.int64_t(se.Offset)
		}
		setMsg(err, se.Msg)
		return C.ISOJSON_SYNTAX
	}
	if err != nil {
		err.offset = 0
	}
	setMsg(err, e.Error())
	return C.ISOJSON_FAIL
}

// recovered converts a panic that escaped a backend or the writer into a
// return code, so that a bug in Go surfaces as a Python exception rather than
// a crashed interpreter. It is called from a deferred function.
func recovered(r any, err *C.isojson_error) C.int {
	if _, ok := r.(errNoMemory); ok {
		setMsg(err, "out of memory")
		return C.ISOJSON_NOMEM
	}
	setMsg(err, fmt.Sprintf("internal error in the isojson engine: %v", r))
	return C.ISOJSON_FAIL
}
