package api

import (
	"errors"
	"fmt"

	"github.com/isojson/isojson/backend"
)

// DecodeError is invalid JSON, located as orjson's JSONDecodeError locates
// it.
type DecodeError struct {
	// Offset is the byte offset in the input where the error was found.
	Offset int64
	// Pos is the same place counted in characters (code points), which is
	// what orjson reports as JSONDecodeError.pos, also for bytes input.
	Pos int64
	// Line and Column are 1-based; Column counts characters from the start
	// of the line, as Python's json.JSONDecodeError does.
	Line, Column int
	// Msg is orjson's message, a plain sentence.
	Msg string
}

// Error formats the error as str(orjson.JSONDecodeError) does.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s: line %d column %d (char %d)", e.Msg, e.Line, e.Column, e.Pos)
}

// newDecodeError locates a parser's error in src. Characters are counted
// as UTF-8 lead bytes: the text before the error offset is valid UTF-8
// (invalid UTF-8 anywhere is reported at offset 0).
func newDecodeError(src []byte, err error) error {
	var se *backend.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	off := min(max(se.Offset, 0), int64(len(src)))
	e := &DecodeError{Offset: off, Msg: se.Msg, Line: 1}
	lineStart := int64(0) // character index of the current line's start
	for i, c := range src[:off] {
		if c&0xc0 == 0x80 {
			continue // continuation byte: not a new character
		}
		e.Pos++
		if c == '\n' {
			e.Line++
			lineStart = e.Pos
		}
		_ = i
	}
	e.Column = int(e.Pos-lineStart) + 1
	return e
}

// EncodeError is a value Marshal cannot write, with orjson's wording where
// orjson has the same error.
type EncodeError struct {
	Msg string
}

func (e *EncodeError) Error() string { return e.Msg }
