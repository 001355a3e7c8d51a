// Command isojson_engine is the Go half of the isojson CPython extension,
// built as a C shared library:
//
//	go build -buildmode=c-shared -o libisojson_engine.so ./pyshim/engine
//
// It exports exactly the C ABI declared in isojson_engine.h and knows nothing
// of CPython: the extension dlopen()s it at first use (pyshim/engine_loader.c)
// and calls it once per loads or dumps.
//
// Files by concern:
//
//	exports.go     the //export functions: version, backends, choice of backend
//	writers.go     the writers and the choice of one (isojson_engine_use_writer)
//	parse.go       isojson_engine_parse: input → backend → tape in C memory
//	write.go       isojson_engine_write(_into): tape → JSON bytes in C memory
//	scheduler.go   isojson_engine_yield: keeps the runtime's sysmon thread asleep
//	cmemory.go     the backend.Allocator that grows buffers with C realloc
//	callback_out.go  the one that grows write_into's output through the caller
//	errors.go      panics and errors → return codes and isojson_error
//	cgo_calls.go   the C-memory call sequence the Go tests use (tests cannot use cgo)
//	backends.go    the backends compiled in (allbackends)
//	abi_check.go   isojson_engine.h's tape layout and option bits held against
//	               backend/tape.go and api/options.go at compile time
//
// Memory rule: every buffer that crosses the ABI is C memory; the engine only
// wraps it as Go slices for the duration of one call and grows it with
// realloc (or the caller's callback), so no Go pointer ever reaches C (cgo's pointer-passing rules) and
// the caller reads the result after the call returns.
package main

// main is required by -buildmode=c-shared and never runs.
func main() {}
