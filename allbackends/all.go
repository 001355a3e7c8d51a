// Package allbackends registers every backend isojson has, parsers and
// writers, by importing their packages (each registers itself in its init
// where its build tags and GOARCH allow). It is the one list: api, the engine
// (pyshim/engine), the benchmarks and the differential fuzz import it, and
// list_test.go checks that the README, docs/internals.md and the Python tests
// name the same backends. It stands at the top of the module, not under
// backend/, because it imports the writers (writer/, writer/reference), which
// import backend: below backend it would be an import running back up.
//
// Parsers (backend.Names):
//
//	scalar     pure Go, every GOARCH (always in)
//	simdjson   amd64 with AVX2 and CLMUL; tag isojson_nosimdjson leaves it out
//	sonic      amd64 and arm64; tag isojson_nosonic leaves it out
//	fastjson   every GOARCH; tag isojson_nofastjson leaves it out
//
// Writers (backend.WriterNames):
//
//	fast       package writer, the default (always in)
//	reference  package writer/reference; tag isojson_noreference leaves it out
package allbackends

import (
	_ "github.com/isojson/isojson/backend/fastjson"
	_ "github.com/isojson/isojson/backend/scalar"
	_ "github.com/isojson/isojson/backend/simdjson"
	_ "github.com/isojson/isojson/backend/sonic"
	_ "github.com/isojson/isojson/writer"
	_ "github.com/isojson/isojson/writer/reference"
)
