package api

import (
	"os"
	"sync"
	"sync/atomic"

	"github.com/isojson/isojson/backend"
)

// EnvWriter is the environment variable that chooses the writer of the
// Python extension; Go programs apply it with SetWriterFromEnv.
const EnvWriter = "ISOJSON_WRITER"

// SetWriterFromEnv applies $ISOJSON_WRITER as the Python extension does:
// unset or empty keeps the default, an unknown or unsupported name is an
// error naming the choices.
func SetWriterFromEnv() error { return SetWriter(os.Getenv(EnvWriter)) }

// chosenWriter is the writer SetWriter picked; nil means the default.
var chosenWriter atomic.Pointer[backend.WriterBackend]

// defaultWriter is resolved once: writers register in their packages' init.
var defaultWriter = sync.OnceValue(backend.DefaultWriter)

// Writers lists the compiled-in writers that can run here, the default first
// (rank order): "fast" (package writer) and "reference" (writer/reference)
// write the same bytes; the reference one is plain Go written to be obviously
// right, the fast one is the default.
func Writers() []string { return backend.SupportedWriters() }

// SetWriter makes the writer called name the one Reformat and Marshal use;
// "" restores the default. The error names the choices when name is unknown
// or cannot run here.
func SetWriter(name string) error {
	if name == "" {
		chosenWriter.Store(nil)
		return nil
	}
	w, err := backend.LookupWriter(name)
	if err != nil {
		return err
	}
	chosenWriter.Store(w)
	return nil
}

// Writer returns the name of the writer in use.
func Writer() string { return currentWriter().Name }

func currentWriter() *backend.WriterBackend {
	if w := chosenWriter.Load(); w != nil {
		return w
	}
	return defaultWriter()
}

// appendJSON appends the text of tape t (StorageInput refs into input) to
// dst with the writer in use.
func appendJSON(dst []byte, t *backend.Tape, input []byte, flags backend.WriteFlags) []byte {
	o := backend.Output{Buf: dst}
	currentWriter().Writer.Write(&o, t, input, flags)
	return o.Buf
}
