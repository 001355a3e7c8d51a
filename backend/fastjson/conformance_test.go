//go:build !isojson_nofastjson

package fastjson

import (
	"testing"

	"github.com/isojson/isojson/conformance"
)

// TestConformance runs the gate every backend passes.
func TestConformance(t *testing.T) {
	conformance.Run(t, Parser{})
}
