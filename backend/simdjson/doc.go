// Package simdjson is the isojson backend over github.com/minio/simdjson-go,
// which finds a document's structure with AVX2 and CLMUL.
//
// The pipeline is: simdjson-go builds its own tape (with strings left in the
// input when they have no escapes), tapeConverter walks that tape once and
// writes the isojson tape (see backend/tape.go), re-reading every string and
// every escaped string's original text through backend/rescan so that the
// result is identical, entry for entry, to backend/scalar's. Whatever
// simdjson-go cannot do or does more loosely than orjson is handed to the
// scalar parser for the whole document, so that errors carry orjson's exact
// message and offset:
//
//   - a document whose root is not an array or object (simdjson-go refuses
//     scalar roots), and any document simdjson-go rejects (for instance one
//     nested deeper than its 128 levels);
//   - a NUL, vertical tab or form feed byte anywhere: simdjson-go takes the
//     last two for whitespace and accepts a literal followed by NUL, and all
//     three are invalid in any JSON position;
//   - "-0" followed by a digit outside strings: simdjson-go accepts floats
//     such as -01.5 (the offsets of all such texts are found before parsing
//     and each must turn out to lie inside a string);
//   - nesting deeper than backend.MaxDepth, which simdjson-go accepts, and
//     inputs over 64 KiB with one '[' or '{' in eight bytes or more, where
//     simdjson-go's unlimited nesting would cost memory and time out of
//     proportion before the depth check sees its tape;
//   - an integer beyond 64 bits, which simdjson-go turns into a float while
//     isojson keeps its digits (BigInt);
//   - a string that is not valid UTF-8, holds a control character or a lone
//     surrogate escape, which simdjson-go accepts or decodes differently.
//
// The package builds on amd64 only; elsewhere, or with the build tag
// isojson_nosimdjson, it is empty and registers nothing.
//
//	simdjson.go  Parser and its registration: which documents suit
//	             simdjson-go, its parse, the fallback
//	convert.go   the converter: simdjson-go's tape → the isojson tape
package simdjson
