package scalar_test

import (
	"testing"

	"github.com/isojson/isojson/backend/scalar"
	"github.com/isojson/isojson/conformance"
)

func TestConformance(t *testing.T) { conformance.Run(t, scalar.Parser{}) }
