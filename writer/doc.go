// Package writer turns a tape (package backend) into JSON text that is byte
// for byte what orjson 3.13's dumps writes for the same document: compact or
// with OPT_INDENT_2, keys in insertion order or sorted (OPT_SORT_KEYS), with
// or without OPT_APPEND_NEWLINE.
//
// The pipeline per value is: read the tape entry's header, then
//
//   - literals and integers: fixed bytes, digits eight at a time in one
//     register (number.go);
//   - floats: the shortest round-trip digits from one 64×128-bit product
//     (float_shortest.go), falling back to the exact Schubfach
//     (schubfach.go, table pow10_table.go from gen_pow10.go) when that
//     product is too close to a rounding boundary to decide, then laid out
//     as orjson does (float_layout.go, number.go);
//   - strings: text the producer marked clean is copied (short text with a
//     few overlapping word moves); UTF-8 that needs escaping goes through an
//     SSE2 kernel or eight bytes at a time (escape*.go); CPython's
//     UCS1/UCS2/UCS4 layouts are transcoded a machine word at a time, UCS2
//     also by an SSSE3 kernel (transcode*.go, text.go);
//   - containers: the compact walk (writer.go) and the indented one
//     (indent.go) are each one loop with an explicit stack of open
//     containers; only a Go caller that asks the writer to sort keys takes
//     the general recursive walk (sort.go, with a reused scratch slice: the
//     extension sorts in C before the write).
//
// Every store past the written length stays within the capacity the writer
// reserved (guard_test.go checks it with guard zones): the output may be a
// Python bytes object, where a stray store would corrupt the heap.
//
// Output grows either on the Go heap (Append) or through a
// backend.Allocator (Output), which is how the engine library writes
// straight into C memory for the CPython extension.
//
// Files by concern (a _amd64 file's kernel is in the .s of the same name; an
// _other file is its portable stand-in, which the tests also run on amd64):
//
//	writer.go          Output, Append, the encoder and the compact walk
//	indent.go          the OPT_INDENT_2 walk
//	sort.go            OPT_SORT_KEYS for Go callers: the recursive walk
//	register.go        the registration as the writer backend "fast"
//	leaf_run.go        runs of null, booleans, integers and empty containers
//	number.go          integers: digits eight at a time in a register
//	float_run.go       runs of floats in an array, in bounded chunks
//	float_shortest.go  the shortest round-trip digits, one 64×128-bit product
//	schubfach.go       the exact fallback (pow10_table.go, made by gen_pow10.go)
//	pow10_table.go     the powers of ten both float paths use
//	gen_pow10.go       go generate: writes pow10_table.go
//	float_layout.go    digits laid out as orjson writes a float
//	float_kernel_amd64.go/.s  one float, and runs of them, in assembly;
//	                   float_kernel_other.go elsewhere
//	text.go            string, BigInt and Raw entries: which path writes them
//	escape.go          UTF-8 escaped a word at a time
//	escape_sse2_amd64.go/.s   the SSE2 escaping kernel; escape_wide_other.go
//	transcode.go       CPython's UCS1/UCS2/UCS4 → UTF-8, a word at a time
//	transcode_amd64.go/.s     the SSSE3 UCS2 and Latin-1 kernels;
//	                   transcode_kernel_other.go elsewhere
//	transcode_le.go    unaligned word loads and stores (little-endian);
//	                   transcode_other.go the portable ones
package writer
