package scalar

import (
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
)

// fail builds the error for a problem found at off. orjson validates the
// whole input as UTF-8 before parsing, so an invalid byte anywhere wins over
// any syntax error, and is reported at offset 0. The parser validates the
// UTF-8 inside strings as it scans (bytes >= 0x80 outside strings are syntax
// errors), so the whole-input check is only needed here, on the error path.
//
//go:noinline
func fail(src []byte, off int, msg string) error {
	if !utf8.Valid(src) {
		return &backend.SyntaxError{Offset: 0, Msg: backend.MsgInvalidUTF8}
	}
	return &backend.SyntaxError{Offset: int64(off), Msg: msg}
}

// failEnd reports input that stops inside a value.
//
//go:noinline
func failEnd(src []byte) error { return fail(src, len(src), backend.MsgUnexpectedEnd) }

// failUTF8 is returned as soon as a string holds invalid UTF-8: the whole
// input is then invalid, so no other error can take precedence.
func failUTF8() error { return &backend.SyntaxError{Offset: 0, Msg: backend.MsgInvalidUTF8} }
