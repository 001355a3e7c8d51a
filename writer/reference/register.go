//go:build !isojson_noreference

package reference

import "github.com/isojson/isojson/backend"

// The registration, which the build tag isojson_noreference leaves out (the
// package still builds, and Writer still works when called directly).
func init() {
	backend.RegisterWriter(&backend.WriterBackend{Name: Name, Rank: rank, Writer: Writer{}})
}

// rank keeps the reference writer behind the fast one (100): it is there to
// check, not to be chosen by default (it takes 7 to 15 times the fast
// writer's instructions on the corpus documents: writer/register.go).
const rank = 1000
