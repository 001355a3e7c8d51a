//go:build (amd64 || arm64) && !isojson_nosonic

package sonic

import (
	"testing"

	"github.com/isojson/isojson/conformance"
)

// TestConformance runs the gate every backend passes.
func TestConformance(t *testing.T) {
	conformance.Run(t, Parser{})
}
