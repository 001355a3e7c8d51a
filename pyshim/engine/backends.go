package main

// The backends compiled into the engine, parsers and writers: every one that
// allbackends registers for this GOARCH and these build tags (the tags
// isojson_nosimdjson, isojson_nosonic, isojson_nofastjson and
// isojson_noreference leave one out). The engine numbers each kind in rank
// order (exports.go) and picks the lowest-ranked one this CPU supports unless
// ISOJSON_BACKEND or ISOJSON_WRITER says otherwise.
import _ "github.com/isojson/isojson/allbackends"
