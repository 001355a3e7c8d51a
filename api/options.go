package api

// Option is a set of orjson's OPT_* flags, with orjson 3.13's exact values,
// so that an option integer means the same in Go, in isojson and in orjson.
// The C extension's mirror of these bits (ISOJSON_OPT_* in
// pyshim/engine/isojson_engine.h) is checked against them when the engine
// is built (pyshim/engine/abi_check.go).
type Option uint32

const (
	OptIndent2              Option = 1 << 0  // OPT_INDENT_2
	OptNaiveUTC             Option = 1 << 1  // OPT_NAIVE_UTC
	OptNonStrKeys           Option = 1 << 2  // OPT_NON_STR_KEYS
	OptOmitMicroseconds     Option = 1 << 3  // OPT_OMIT_MICROSECONDS
	OptSerializeNumpy       Option = 1 << 4  // OPT_SERIALIZE_NUMPY
	OptSortKeys             Option = 1 << 5  // OPT_SORT_KEYS
	OptStrictInteger        Option = 1 << 6  // OPT_STRICT_INTEGER
	OptUTCZ                 Option = 1 << 7  // OPT_UTC_Z
	OptPassthroughSubclass  Option = 1 << 8  // OPT_PASSTHROUGH_SUBCLASS
	OptPassthroughDatetime  Option = 1 << 9  // OPT_PASSTHROUGH_DATETIME
	OptAppendNewline        Option = 1 << 10 // OPT_APPEND_NEWLINE
	OptPassthroughDataclass Option = 1 << 11 // OPT_PASSTHROUGH_DATACLASS
	OptSerializeDataclass   Option = 0       // OPT_SERIALIZE_DATACLASS: always on, kept for compatibility
	OptSerializeUUID        Option = 0       // OPT_SERIALIZE_UUID: always on, kept for compatibility
	// OptAll is every defined bit; orjson rejects an option with other bits.
	OptAll = OptIndent2 | OptNaiveUTC | OptNonStrKeys | OptOmitMicroseconds | OptSerializeNumpy | OptSortKeys |
		OptStrictInteger | OptUTCZ | OptPassthroughSubclass | OptPassthroughDatetime | OptAppendNewline | OptPassthroughDataclass
)
