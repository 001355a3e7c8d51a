package reference

import "github.com/isojson/isojson/backend"

// Name is the reference writer's name in the registry.
const Name = "reference"

// Writer is the reference writer. The zero value is ready; it keeps no
// state between calls and is safe for concurrent use.
type Writer struct{}

// Write implements backend.Writer: the text of t's root value, appended to
// out as it is produced (sink.go), so that the output grows only through
// out's Allocator when it has one and no copy of the text is made on the Go
// heap (a document as large as memory allows must fail as the fast writer
// fails, through the Allocator, not in the Go runtime).
func (Writer) Write(out *backend.Output, t *backend.Tape, input []byte, flags backend.WriteFlags) {
	if len(t.Words) == 0 {
		return
	}
	w := walk{t: t, input: input, flags: flags, out: sink{out: out}}
	w.value(0, 0)
	if flags&backend.WriteAppendNewline != 0 {
		w.out.byte('\n')
	}
}
