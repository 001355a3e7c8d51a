// Package api is isojson's stable Go surface: orjson's option bits
// (options.go), parsing with the chosen backend into a tape (Parse, Valid),
// orjson-identical output from JSON text (Reformat) and from Go values
// (Marshal) written by the chosen writer, and the choice of parser backend
// (Backends, SetBackend, Backend: backends.go) and of writer (Writers,
// SetWriter, Writer: writers.go).
//
// Errors are *DecodeError for invalid JSON (orjson's message, byte offset,
// 1-based line and column as orjson's JSONDecodeError reports them) and
// *EncodeError for a Go value orjson could not serialize either.
//
//	options.go   Option: orjson's OPT_* bits
//	parse.go     Parse, Valid
//	reformat.go  Reformat: parse, fold repeated keys as a Python dict does, write
//	marshal.go   Marshal: Go values → a tape → the writer
//	backends.go  the choice of parser backend (ISOJSON_BACKEND)
//	writers.go   the choice of writer (ISOJSON_WRITER)
//	errors.go    DecodeError, EncodeError
package api
