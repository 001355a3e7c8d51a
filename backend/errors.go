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
// error in the same words (conformance checks it). They are orjson 3.13's
// exact JSONDecodeError messages; the comment says where orjson reports each
// one (its .pos for bytes input). testdata/orjson/errors.json has the full
// table recorded from orjson.
const (
	// The input is b"" (offset 0).
	MsgEmpty = "Input is a zero-length, empty document"
	// The input is only whitespace (offset 0).
	MsgOnlyWhitespace = "input data is empty"
	// The input is not valid UTF-8 anywhere, inside or outside strings; this
	// wins over every other error (offset 0).
	MsgInvalidUTF8 = "str is not valid UTF-8: surrogates not allowed"
	// The input starts with EF BB BF (offset 0).
	MsgBOM = "UTF-8 byte order mark (BOM) is not supported"
	// The input ends inside a value (offset: the input's length).
	MsgUnexpectedEnd = "unexpected end of data"
	// Non-whitespace after the root value (offset of that byte).
	MsgTrailing = "unexpected content after document"
	// The 1025th nested container (offset just past its '[' or '{'). When
	// that '[' or '{' is the input's last byte, orjson reports
	// MsgUnexpectedEnd at the input's length instead (its parser, yyjson,
	// reports any error it finds at the end of the input as the end of
	// data); one byte more, white space included, and it is MsgDepth.
	MsgDepth = "depth limit exceeded"

	// A byte that cannot start a value, an object key or follow a value
	// (offset of that byte).
	MsgExpectedValue      = "unexpected character, expected a JSON value"
	MsgExpectedKey        = "unexpected character, expected a string key"
	MsgExpectedColon      = "unexpected character, expected ':' after key"
	MsgExpectedArrayNext  = "unexpected character, expected ',' or ']'"
	MsgExpectedObjectNext = "unexpected character, expected ',' or '}'"
	// ',' directly followed by ']' or '}' (offset of the comma).
	MsgTrailingComma = "trailing comma is not allowed"

	// A literal that starts like true/false/null but differs (offset of its
	// first byte); a literal cut off by the end of input is MsgUnexpectedEnd.
	MsgInvalidTrue  = "invalid literal, expected 'true'"
	MsgInvalidFalse = "invalid literal, expected 'false'"
	MsgInvalidNull  = "invalid literal, expected 'null'"

	// Number errors (offset of the offending byte, or of the number's first
	// byte for MsgInfinity).
	MsgNoDigitAfterSign     = "no digit after sign"
	MsgNoDigitAfterDot      = "no digit after decimal point"
	MsgNoDigitAfterExponent = "no digit after exponent sign"
	MsgLeadingZero          = "number with leading zero is not allowed"
	MsgInfinity             = "number is infinity when parsed as double"

	// String errors (offset of the control character, or of the backslash
	// that starts the escape or surrogate pair).
	MsgControlChar      = "unexpected control character in string"
	MsgInvalidEscape    = "invalid escaped sequence in string"
	MsgInvalidPairHex   = "invalid escape in string" // bad hex digits in the \u after a high surrogate
	MsgNoLowSurrogate   = "no low surrogate in string"
	MsgBadLowSurrogate  = "invalid low surrogate in string"
	MsgLoneLowSurrogate = "invalid high surrogate in string"
)
