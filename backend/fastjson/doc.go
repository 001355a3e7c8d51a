// Package fastjson is the isojson backend over github.com/valyala/fastjson,
// whose Parser validates a document and builds a tree of its values (with
// per-parser caches, so a warm parser allocates little).
//
// The pipeline: fastjson parses the input into its tree; the converter walks
// the tree in document order and, with a cursor over the input text, finds
// each value where the tree says the next one is (the tree keeps no offsets),
// writing the isojson tape (backend/tape.go) and taking every string and
// number from the input through backend/rescan, so that the tape is the
// scalar parser's, entry for entry.
//
// Where fastjson is looser than orjson the converter stops and the whole
// document goes to the scalar parser, which produces orjson's exact error:
//
//   - numbers: fastjson takes any run of digits, '.', '-', '+', 'e' and 'E'
//     as a number ("01", "1.", "--1"), and NaN, Inf and Infinity in any case;
//     the converter re-reads the text with JSON's grammar (rescan.NumberEnd)
//     and rejects what overflows to infinity, as orjson does;
//   - strings: fastjson accepts raw control characters and invalid UTF-8 and
//     decodes escapes loosely (a lone surrogate, an unknown escape); the
//     converter checks and decodes every string from its text (rescan);
//   - nesting: fastjson stops at 300 levels, orjson at 1024 (backend.MaxDepth);
//     deeper documents are the scalar parser's;
//   - any error fastjson reports, and any token the cursor does not find where
//     the tree puts it.
//
// The build tag isojson_nofastjson leaves the package empty: it registers
// nothing.
//
//	fastjson.go  Parser and its registration: fastjson's parse, the fallback
//	convert.go   the converter: fastjson's tree and a cursor over the input
//	             → the isojson tape
package fastjson
