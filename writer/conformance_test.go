package writer_test

import (
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/conformance"
	"github.com/isojson/isojson/writer"
)

// TestWriterGate holds the fast writer to the gate every writer passes.
func TestWriterGate(t *testing.T) {
	conformance.RunWriter(t, writer.Fast{})
}

// TestRegistered: the package registers itself as the default writer, and
// its flag values are the ones of the backend.Writer interface.
func TestRegistered(t *testing.T) {
	w, err := backend.LookupWriter(writer.Name)
	if err != nil || w.Writer != (writer.Fast{}) {
		t.Fatalf("LookupWriter(%q) = %v, %v", writer.Name, w, err)
	}
	for _, c := range []struct {
		got  writer.Flags
		want backend.WriteFlags
	}{
		{writer.Indent2, backend.WriteIndent2}, {writer.SortKeys, backend.WriteSortKeys},
		{writer.AppendNewline, backend.WriteAppendNewline}, {writer.BigIntAsFloat, backend.WriteBigIntAsFloat},
	} {
		if uint32(c.got) != uint32(c.want) {
			t.Errorf("writer flag %#x, backend.WriteFlags %#x", c.got, c.want)
		}
	}
}
