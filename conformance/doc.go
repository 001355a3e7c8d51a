// Package conformance is the gate every isojson parser backend passes: its
// tests call Run(t, parser), which checks the parser against JSONTestSuite,
// the roundtrip and transform corpora, orjson 3.13's error messages and
// offsets (testdata/orjson/errors.json), number and UTF-8 edge cases, depth
// limits and seeded random documents written back by package writer.
//
// Error positions: SyntaxError.Offset is a byte offset; orjson's
// JSONDecodeError.pos counts code points (even for bytes input), and the
// extension converts, so the orjson table is compared in code points.
//
//	decisions.go  accept/reject for each of the 318 JSONTestSuite cases
//	equal.go      Equal: two tapes hold the same document
//	check.go      Check: a tape is well formed (counts, ends, string metadata)
//	format.go     Format: a tape as readable text, for messages and tables
//	reference.go  a tape against encoding/json's token stream
//	random.go     seeded random JSON documents
//	run.go        Run and its corpus-driven parts
//	edge.go       numbers, strings, invalid UTF-8, depth; the table of
//	              orjson errors isojson does not reproduce (errorExceptions)
//	testdata.go   locating the repository's testdata
package conformance
