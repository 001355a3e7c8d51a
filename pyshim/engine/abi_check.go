package main

/*
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"
*/
import "C"

import (
	"github.com/isojson/isojson/api"
	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/writer"
)

// The C mirror in isojson_engine.h of what the engine shares with the
// extension, held against its Go definitions when the engine is compiled:
// the tape layout (backend/tape.go), orjson's option bits (api/options.go,
// and the three the writer reads, writer/writer.go). Each line indexes a
// one-element array with the difference of the two sides, a constant that
// must be 0: any other value is out of range (or overflows the Go type),
// which the compiler rejects, so a change on one side that the other misses
// fails the build at that line. (The return codes need no check: the Go
// side returns the header's own C.ISOJSON_OK...)
var (
	// The header word.
	_ = [1]struct{}{}[C.ISOJSON_KIND_SHIFT-backend.KindShift]
	_ = [1]struct{}{}[C.ISOJSON_STORAGE_SHIFT-backend.StorageShift]
	_ = [1]struct{}{}[C.ISOJSON_CLASS_SHIFT-backend.ClassShift]
	_ = [1]struct{}{}[C.ISOJSON_WIDTH_SHIFT-backend.WidthShift]
	_ = [1]struct{}{}[C.ISOJSON_CLEAN_BIT-backend.CleanBit]
	_ = [1]struct{}{}[C.ISOJSON_LEN_MASK-backend.LenMask]
	_ = [1]struct{}{}[C.ISOJSON_PAYLOAD_MASK-backend.PayloadMask]

	// Kinds: each one, and that the C enum ends where Go's does.
	_ = [1]struct{}{}[C.ISOJSON_NULL-backend.KindNull]
	_ = [1]struct{}{}[C.ISOJSON_FALSE-backend.KindFalse]
	_ = [1]struct{}{}[C.ISOJSON_TRUE-backend.KindTrue]
	_ = [1]struct{}{}[C.ISOJSON_INT-backend.KindInt]
	_ = [1]struct{}{}[C.ISOJSON_UINT-backend.KindUint]
	_ = [1]struct{}{}[C.ISOJSON_FLOAT-backend.KindFloat]
	_ = [1]struct{}{}[C.ISOJSON_ARRAY-backend.KindArray]
	_ = [1]struct{}{}[C.ISOJSON_OBJECT-backend.KindObject]
	_ = [1]struct{}{}[C.ISOJSON_STRING-backend.KindString]
	_ = [1]struct{}{}[C.ISOJSON_BIGINT-backend.KindBigInt]
	_ = [1]struct{}{}[C.ISOJSON_RAW-backend.KindRaw]
	_ = [1]struct{}{}[C.ISOJSON_KIND_LAST-backend.KindMax]

	// Storage, Class and Width.
	_ = [1]struct{}{}[C.ISOJSON_INPUT-backend.StorageInput]
	_ = [1]struct{}{}[C.ISOJSON_ARENA-backend.StorageArena]
	_ = [1]struct{}{}[C.ISOJSON_EXTERNAL-backend.StorageExternal]
	_ = [1]struct{}{}[C.ISOJSON_ASCII-backend.ClassASCII]
	_ = [1]struct{}{}[C.ISOJSON_LATIN1-backend.ClassLatin1]
	_ = [1]struct{}{}[C.ISOJSON_BMP-backend.ClassBMP]
	_ = [1]struct{}{}[C.ISOJSON_ASTRAL-backend.ClassAstral]
	_ = [1]struct{}{}[C.ISOJSON_UTF8-backend.WidthUTF8]
	_ = [1]struct{}{}[C.ISOJSON_UCS1-backend.WidthUCS1]
	_ = [1]struct{}{}[C.ISOJSON_UCS2-backend.WidthUCS2]
	_ = [1]struct{}{}[C.ISOJSON_UCS4-backend.WidthUCS4]

	// orjson's option bits.
	_ = [1]struct{}{}[C.ISOJSON_OPT_INDENT_2-api.OptIndent2]
	_ = [1]struct{}{}[C.ISOJSON_OPT_NAIVE_UTC-api.OptNaiveUTC]
	_ = [1]struct{}{}[C.ISOJSON_OPT_NON_STR_KEYS-api.OptNonStrKeys]
	_ = [1]struct{}{}[C.ISOJSON_OPT_OMIT_MICROSECONDS-api.OptOmitMicroseconds]
	_ = [1]struct{}{}[C.ISOJSON_OPT_SERIALIZE_NUMPY-api.OptSerializeNumpy]
	_ = [1]struct{}{}[C.ISOJSON_OPT_SORT_KEYS-api.OptSortKeys]
	_ = [1]struct{}{}[C.ISOJSON_OPT_STRICT_INTEGER-api.OptStrictInteger]
	_ = [1]struct{}{}[C.ISOJSON_OPT_UTC_Z-api.OptUTCZ]
	_ = [1]struct{}{}[C.ISOJSON_OPT_PASSTHROUGH_SUBCLASS-api.OptPassthroughSubclass]
	_ = [1]struct{}{}[C.ISOJSON_OPT_PASSTHROUGH_DATETIME-api.OptPassthroughDatetime]
	_ = [1]struct{}{}[C.ISOJSON_OPT_APPEND_NEWLINE-api.OptAppendNewline]
	_ = [1]struct{}{}[C.ISOJSON_OPT_PASSTHROUGH_DATACLASS-api.OptPassthroughDataclass]
	_ = [1]struct{}{}[C.ISOJSON_OPT_SERIALIZE_DATACLASS-api.OptSerializeDataclass]
	_ = [1]struct{}{}[C.ISOJSON_OPT_SERIALIZE_UUID-api.OptSerializeUUID]
	_ = [1]struct{}{}[C.ISOJSON_OPT_MAX-api.OptAll]
	_ = [1]struct{}{}[C.ISOJSON_OPT_INDENT_2-writer.Indent2]
	_ = [1]struct{}{}[C.ISOJSON_OPT_SORT_KEYS-writer.SortKeys]
	_ = [1]struct{}{}[C.ISOJSON_OPT_APPEND_NEWLINE-writer.AppendNewline]
)
