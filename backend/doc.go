// Package backend defines the tape (the representation of a JSON document
// that parsers produce and the writer and the CPython extension consume), the
// narrow Backend interface every parser implements, the Writer interface
// every writer implements, and the registries that both join.
//
//	tape.go        Tape, Kind, the header word's layout, Class, Allocator
//	tape_units.go  Tape.Units: a ref entry's code units, for readers without unsafe
//	backend.go     Parser, Backend and their registry (Register, Lookup, Default)
//	writer.go      Writer, Output, WriteFlags and the writers' registry
//	errors.go      SyntaxError and the messages every parser reports
//
// The parsers are in the packages below (scalar, simdjson, sonic, fastjson,
// with rescan for the library-backed ones), the writers in writer/ and
// writer/reference; allbackends imports them all.
package backend
