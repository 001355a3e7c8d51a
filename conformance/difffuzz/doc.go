// Package difffuzz holds isojson's differential tests: every compiled-in
// backend that runs here must agree with the reference of its kind on every
// input.
//
// Parsers (Compare, FuzzDifferential): each decides every input exactly as
// backend/scalar does: the same accept or reject, the same error message and
// offset, and the same tape, word for word.
//
// Writers (CompareWriters, FuzzWriters): each writes every tape exactly as
// writer/reference does, byte for byte, under every option set: the tapes of
// mutated documents, and the same documents with their texts moved into
// every layout dumps produces (External UTF-8, CPython's 1-, 2- and 4-byte
// strings, Raw).
//
// The fuzz targets are driven by mutated documents; the tests run the same
// comparisons over the repository's test data.
//
// It sits under conformance because it imports it (conformance.Check,
// Equal, Write, Layouts): beside the backends it would be an import running
// back up the tree.
//
//	compare.go  Compare: the parsers against backend/scalar
//	writers.go  CompareWriters, CompareWritersOn: the writers against
//	            writer/reference, in every text layout
package difffuzz
