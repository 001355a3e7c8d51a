package reference_test

import (
	"testing"

	"github.com/isojson/isojson/conformance"
	"github.com/isojson/isojson/writer/reference"
)

// TestWriterGate holds the reference writer to the gate every writer passes.
func TestWriterGate(t *testing.T) {
	conformance.RunWriter(t, reference.Writer{})
}
