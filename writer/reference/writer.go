package reference

import "github.com/isojson/isojson/backend"

// Name is the reference writer's name in the registry.
const Name = "reference"

// Writer is the reference writer. The zero value is ready; it keeps no
// state between calls and is safe for concurrent use.
type Writer struct{}

// Write implements backend.Writer: the text of t's root value, appended to
// out. The text is built first on the Go heap, so out changes only once, at
// the end, and a malformed tape that panics leaves out as it was.
func (Writer) Write(out *backend.Output, t *backend.Tape, input []byte, flags backend.WriteFlags) {
	if len(t.Words) == 0 {
		return
	}
	w := walk{t: t, input: input, flags: flags}
	w.value(0, 0)
	if flags&backend.WriteAppendNewline != 0 {
		w.buf = append(w.buf, '\n')
	}
	appendOutput(out, w.buf)
}

// appendOutput appends text to out, growing it through its Allocator when it
// has one (the buffer may be C memory, which append must never replace by Go
// memory).
func appendOutput(out *backend.Output, text []byte) {
	need := len(out.Buf) + len(text)
	if need > cap(out.Buf) && out.Alloc != nil {
		out.Buf = out.Alloc.GrowBytes(out.Buf, need)
		if cap(out.Buf) < need {
			panic("reference writer: Allocator.GrowBytes returned less than asked")
		}
	}
	out.Buf = append(out.Buf, text...)
}
