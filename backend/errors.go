package backend

import "fmt"

// SyntaxError is the first error a parser found: a plain-sentence message and
// the byte offset in the input where it was detected.
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at byte offset %d", e.Msg, e.Offset) }

// The messages parsers use, shared so that every backend reports the same
// error class in the same words (conformance checks it). They follow orjson.
const (
	MsgEmpty          = "Input is a zero-length, empty document"
	MsgUnexpectedChar = "unexpected character"
	MsgUnexpectedEnd  = "unexpected end of data"
	MsgTrailing       = "unexpected content after document"
	MsgDepth          = "depth limit exceeded"
	MsgInvalidNumber  = "invalid number"
	MsgInfinity       = "number is infinity when parsed as double"
	MsgInvalidString  = "invalid string"
	MsgControlChar    = "unexpected control character in string"
	MsgInvalidEscape  = "invalid escaped character in string"
	MsgInvalidUnicode = "invalid escaped sequence in string"
	MsgInvalidUTF8    = "invalid UTF-8 encoding in string"
	MsgSurrogate      = "no low surrogate in string"
	MsgBOM            = "byte order mark (BOM) is not supported"
	MsgLiteral        = "invalid literal"
)
