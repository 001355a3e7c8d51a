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
package api
