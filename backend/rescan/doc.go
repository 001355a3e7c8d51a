// Package rescan decodes strings and numbers from the input text exactly as
// backend/scalar does, for the backends built on third-party libraries
// (backend/simdjson, backend/sonic, backend/fastjson).
//
// Those libraries find a document's structure fast but decode its scalars
// more loosely than the conformance gate allows: they accept invalid UTF-8
// and raw control characters in strings, replace lone surrogates with U+FFFD,
// turn integers beyond 64 bits into floats, and do not report where an
// escaped string came from. A backend therefore takes only the structure from
// its library and re-reads every string and number here, from the input
// bytes, with the same decisions and the same tape entries as the scalar
// parser. Whenever these functions report a problem the backend discards its
// tape and lets the scalar parser produce orjson's exact error.
//
//	string.go  InputString, StringEnd, Unescape: strings checked and decoded
//	number.go  NumberEnd, AppendNumber: JSON's number grammar, int64, uint64,
//	           BigInt digits and correctly rounded floats
package rescan
