package api

import (
	"sync/atomic"

	"github.com/isojson/isojson/backend"
	_ "github.com/isojson/isojson/backend/scalar" // the portable parser, always available
)

// chosen is the backend SetBackend picked; nil means backend.Default().
var chosen atomic.Pointer[backend.Backend]

// Backends lists the compiled-in backends that can run on this CPU, the
// default first (rank order).
func Backends() []string { return backend.Supported() }

// SetBackend makes the backend called name the one Parse, Valid and
// Reformat use; "" restores the default for this CPU. The error names the
// choices when name is unknown or cannot run here.
func SetBackend(name string) error {
	if name == "" {
		chosen.Store(nil)
		return nil
	}
	b, err := backend.Lookup(name)
	if err != nil {
		return err
	}
	chosen.Store(b)
	return nil
}

// Backend returns the name of the backend in use.
func Backend() string { return current().Name }

func current() *backend.Backend {
	if b := chosen.Load(); b != nil {
		return b
	}
	return backend.Default()
}
