// Package reference is isojson's reference writer: a tape (package backend)
// turned into the JSON text orjson 3.13's dumps writes, in plain portable Go
// (no unsafe, no assembly, no code shared with the fast writer in package
// writer), written to be read and believed rather than to be fast. The two
// writers check each other: the writer gate (conformance.RunWriter) holds
// both to orjson's golden vectors, and the differential fuzz
// (conformance/difffuzz) to each other's bytes.
//
// It registers itself as the writer backend "reference" (ISOJSON_WRITER=
// reference in the extension, api.SetWriter in Go); it is never the default
// while the fast writer is compiled in. The build tag isojson_noreference
// leaves it out.
//
// The pipeline: the value at the tape's root is written recursively
// (value.go), straight into the caller's output, which grows only through its
// Allocator (sink.go), as the fast writer's does. Its parts:
//
//	writer.go    Writer
//	register.go  the registration (left out by the tag isojson_noreference)
//	sink.go      the output: a room check before every append
//	value.go     the walk: literals, integers, containers, indentation, members
//	sort.go      OPT_SORT_KEYS: members ordered by their keys' UTF-8 bytes
//	text.go      strings, keys, Raw, BigInt: code units to UTF-8, escaping
//	float.go     floats: strconv's shortest round-trip digits, laid out as orjson
package reference
