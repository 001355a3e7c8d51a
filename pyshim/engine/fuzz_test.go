//go:build cgo

package main

import (
	"errors"
	"testing"

	"github.com/isojson/isojson/backend"
)

// FuzzEngineParse: for any input, every backend gives through the C ABI (C
// memory, realloc growth, reused buffers) exactly what it gives in Go: the
// same tape, or the same error message and offset; never a panic.
func FuzzEngineParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"é\n",null,true,false]}`, `[`, `"\ud800"`, `[1e400]`, `{"a" 1}`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	c := newCCall()
	f.Cleanup(c.free)
	f.Fuzz(func(t *testing.T, src []byte) {
		c.setInput(src)
		for _, name := range backend.Supported() {
			idx, _ := backendIndex(name)
			b, _ := backend.Lookup(name)
			rc, msg, off := c.parse(idx)
			var want backend.Tape
			err := b.Parser.Parse(src, &want)
			if err != nil {
				var se *backend.SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("%s: not a SyntaxError: %v", name, err)
				}
				if rc != 1 || msg != se.Msg || off != se.Offset {
					t.Fatalf("%s: ABI rc %d %q@%d, Go %q@%d", name, rc, msg, off, se.Msg, se.Offset)
				}
				continue
			}
			if rc != 0 {
				t.Fatalf("%s: ABI rc %d %q, Go accepted", name, rc, msg)
			}
			got := c.goTape()
			if len(got.Words) != len(want.Words) || string(got.Arena) != string(want.Arena) {
				t.Fatalf("%s: tapes differ", name)
			}
			for i := range got.Words {
				if got.Words[i] != want.Words[i] {
					t.Fatalf("%s: word %d differs", name, i)
				}
			}
		}
	})
}
