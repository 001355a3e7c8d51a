// Package ctiny holds the tiny path of loads to the parser gate. The path is
// C, pyshim/loads/loads_tiny.h: the extension parses a document of at most
// Max bytes with it when it can, without calling the Go engine, and the
// engine parses everything the path gives up on (every error among them).
// This package compiles the same header through cgo, so that the code the
// extension runs is the code tested here:
//
//   - Parser, a backend.Parser that tries the path and falls back to
//     backend/scalar as the extension falls back to the engine, passes
//     conformance.Run;
//   - every tape the path makes is backend/scalar's, word for word
//     (ctiny_test.go: inputs built around the switch, every give-up shape,
//     every short token sequence, random documents, and FuzzTiny).
//
// It is for tests only: nothing registers it as a backend, and the engine
// does not import it.
//
//	ctiny.go      the cgo wrapper: Tape, TapeRoom and Parser
//	loads_tiny.h  a symbolic link to ../../pyshim/loads/loads_tiny.h, the
//	              one source: through a file of the package's own folder,
//	              the go command's build cache sees every change to it (it
//	              does not hash headers included from other folders)
package ctiny
