// Package scalar is isojson's portable parser: pure Go, no assembly, correct
// on every GOARCH (little- and big-endian), and the reference the faster
// backends are checked against.
//
// It reads a JSON document in one pass into a backend.Tape, deciding exactly
// as orjson 3.13 decides (strict RFC 8259, UTF-8 only, 1024 levels) and
// reporting orjson's error message and byte offset. The pipeline:
//
//	parse.go         the structural state machine (explicit stack, no recursion)
//	whitespace.go    skipping space, \t, \n, \r (eight spaces at a time)
//	string.go        strings: SWAR scan of plain runs, UTF-8 validation with
//	                 code point count and class, unescaping into the arena
//	number.go        numbers: int64, uint64, big integer digits, floats
//	eisel_lemire.go  correctly rounded float conversion without rescanning
//	errors.go        orjson's error precedence (invalid UTF-8 first)
//	swar.go          eight-bytes-at-a-time helpers
//
// The parser allocates nothing per value: it appends to the caller's tape
// (reused between calls) and keeps its container stack in a pooled slice.
package scalar
