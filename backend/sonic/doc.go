// Package sonic is the isojson backend over github.com/bytedance/sonic, whose
// SIMD scanner (AVX2 or SSE on amd64, NEON on arm64) walks the document and
// reports each value to a visitor (sonic's public ast.Preorder API).
//
// The pipeline: the input is copied once into a wrapper "[" + input + ",0]",
// ast.Preorder walks it, and tapeVisitor writes the isojson tape (see
// backend/tape.go) from the callbacks, taking every string and number from
// the input text through backend/rescan so that the result is identical,
// entry for entry, to backend/scalar's. The wrapper exists because Preorder
// stops after the first value and says nothing about what follows it: the
// document is accepted only when the wrapper array holds exactly the
// document and then the sentinel 0 at its known place, which proves that the
// whole input is one value with nothing after it.
//
// Where sonic is looser than orjson the visitor stops the walk and the whole
// document goes to the scalar parser, which produces orjson's exact error:
//
//   - content after the document, or no document (the wrapper check);
//   - a raw control character or invalid UTF-8 in a string, which sonic
//     accepts; a lone surrogate escape, which sonic turns into U+FFFD (the
//     visitor re-decodes every escaped string from its original text);
//   - numbers: sonic only delimits them (VisitorOptions.OnlyNumber) and the
//     text is parsed here, so that integers beyond 64 bits keep their digits,
//     integers and floats that are infinite as float64 are rejected as orjson
//     does, and floats round as strconv.ParseFloat does;
//   - nesting deeper than backend.MaxDepth;
//   - any error sonic reports.
//
// The package builds on amd64 and arm64 only; elsewhere, or with the build
// tag isojson_nosonic, it is empty and registers nothing.
//
//	sonic.go    Parser and its registration: the wrapper, the walk, the fallback
//	visitor.go  tapeVisitor: sonic's callbacks → the isojson tape
package sonic
