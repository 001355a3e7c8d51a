package api

import (
	"os"
	"sync/atomic"

	_ "github.com/isojson/isojson/allbackends" // every parser and writer, where its build tags allow
	"github.com/isojson/isojson/backend"
)

// EnvBackend is the environment variable that chooses the backend of the
// Python extension; Go programs apply it with SetBackendFromEnv.
const EnvBackend = "ISOJSON_BACKEND"

// SetBackendFromEnv applies $ISOJSON_BACKEND as the Python extension does:
// unset or empty keeps the default for this CPU, an unknown or unsupported
// name is an error naming the choices. Go code is never configured behind
// its back, so nothing reads the variable unless this is called.
func SetBackendFromEnv() error { return SetBackend(os.Getenv(EnvBackend)) }

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
