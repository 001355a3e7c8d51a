// Package conformance holds the gates isojson's backends pass. Every parser
// backend's tests call Run(t, parser), which checks the parser against JSONTestSuite,
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
//	short_ints.go integers of a digit or two, and the shapes beside them,
//	              before each byte that ends a number, with and without a space
//	testdata.go   locating the repository's testdata
//	race_on.go    raceBuild, true under go test -race (race_off.go: false): the
//	              Concurrent checks go over the corpus once there, 3 times else
//
// Every writer backend's tests call RunWriter(t, writer), which checks the
// writer against orjson's golden vectors (testdata/golden: 327,497 floats,
// strings in every layout a tape holds them, documents under every option
// set), hand-written expectations for every tape kind, depth, round trips of
// the corpus and random documents, output growth and concurrency
// (docs/writer-backends.md):
//
//	writer_run.go    RunWriter and its corpus-driven parts, Write
//	writer_kinds.go  hand-built tapes of every kind with orjson's text
//	layouts.go       Layouts and TextStore: a text in every storage and width
//	sorted.go        a tape's document with its objects' keys sorted
//
// The differential tests of both kinds are in conformance/difffuzz.
package conformance
