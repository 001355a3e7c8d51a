package main

// The backends compiled into the engine. Each registers itself with package
// backend in its init (the SIMD ones only on architectures where they build,
// and only when not excluded with the isojson_nosimdjson / isojson_nosonic
// build tags); the engine numbers them in rank order (exports.go) and picks
// the lowest-ranked one this CPU supports unless ISOJSON_BACKEND says
// otherwise.
import (
	_ "github.com/isojson/isojson/backend/scalar"
	_ "github.com/isojson/isojson/backend/simdjson"
	_ "github.com/isojson/isojson/backend/sonic"
)
