//go:build cgo

package main

import (
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/writer"
)

func TestWritersCatalog(t *testing.T) {
	names := backend.WriterNames()
	if got := engineWriters(); got != strings.Join(names, ",") || names[0] != writer.Name {
		t.Fatalf("isojson_engine_writers = %q, registry has %q", got, names)
	}
	for i, n := range names {
		if writerName(i) != n {
			t.Errorf("writer_name(%d) = %q, want %q", i, writerName(i), n)
		}
		if j, msg := writerIndex(n); j != i {
			t.Errorf("writer(%q) = %d %q, want %d", n, j, msg, i)
		}
	}
	if writerName(len(names)) != "" || writerName(-1) != "" {
		t.Error("writer_name out of range is not NULL")
	}
	if def, msg := writerIndex(""); def != 0 {
		t.Errorf("default writer = %d (%s), want 0 (%s)", def, msg, names[0])
	}
	i, msg := writerIndex("no-such-writer")
	if i != -1 || !strings.Contains(msg, "no-such-writer") || !strings.Contains(msg, strings.Join(names, ", ")) {
		t.Errorf("unknown writer: %d %q: want -1 and a message naming the choices %q", i, msg, names)
	}
	if useWriter(len(names), "") != -1 || useWriter(-2, "") != -1 {
		t.Error("use_writer accepts an index out of range")
	}
}

// Through the C ABI, every writer chosen with use_writer writes
// writer.Append's bytes, with write and write_into; a failed choice makes
// every write fail with its message and leaves no text.
func TestUseWriterThroughABI(t *testing.T) {
	c := newCCall()
	defer c.free()
	defer useWriter(0, "")
	idx, _ := backendIndex("")
	b := backend.Default()
	for i, name := range backend.WriterNames() {
		if useWriter(i, "") != 0 {
			t.Fatalf("use_writer(%d) failed", i)
		}
		for doc, src := range corpus(t) {
			c.setInput(src)
			if rc, msg, _ := c.parse(idx); rc != 0 {
				t.Fatalf("%s: %s", doc, msg)
			}
			var tape backend.Tape
			if err := b.Parser.Parse(src, &tape); err != nil {
				t.Fatal(err)
			}
			for _, flags := range []uint32{0, 1, 32, 1 | 32 | 1024} {
				want := writer.Append(nil, &tape, src, writer.Flags(flags))
				if rc := c.write(flags); rc != 0 || string(c.output()) != string(want) {
					t.Fatalf("writer %s, %s, flags %d: write rc %d, the text differs from writer.Append", name, doc, flags, rc)
				}
				if rc, msg, _ := c.writeInto(flags, 64, 0); rc != 0 || string(c.output()) != string(want) {
					t.Fatalf("writer %s, %s, flags %d: write_into rc %d %q, the text differs", name, doc, flags, rc, msg)
				}
			}
		}
	}
	c.setInput([]byte(`[1,"x"]`))
	c.parse(idx)
	useWriter(-1, "ISOJSON_WRITER: unknown writer \"x\"")
	if rc := c.write(0); rc != 3 || !strings.Contains(c.errMsg(), `unknown writer "x"`) {
		t.Errorf("write after a failed choice: rc %d %q", rc, c.errMsg())
	}
	if rc, msg, _ := c.writeInto(0, 64, 0); rc != 3 || msg != `ISOJSON_WRITER: unknown writer "x"` || c.out.len != 0 {
		t.Errorf("write_into after a failed choice: rc %d %q, %d bytes", rc, msg, c.out.len)
	}
	useWriter(0, "")
	if rc := c.write(0); rc != 0 || string(c.output()) != `[1,"x"]` {
		t.Errorf("the default writer again: rc %d %q", rc, c.output())
	}
}

// With the default writer chosen explicitly, as the extension does at load,
// a write allocates nothing.
func TestWriteAllocatesNothingWithTheDefault(t *testing.T) {
	c := newCCall()
	defer c.free()
	c.setInput(corpus(t)["github"])
	idx, _ := backendIndex("")
	c.parse(idx)
	useWriter(0, "")
	c.write(0)
	if n := testing.AllocsPerRun(50, func() { c.write(0) }); n != 0 {
		t.Errorf("write allocates %v times per call", n)
	}
}
