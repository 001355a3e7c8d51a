package main

// The backends compiled into the engine. Each registers itself with package
// backend in its init; the engine numbers them in rank order (exports.go).
import (
	_ "github.com/isojson/isojson/backend/scalar"
)
