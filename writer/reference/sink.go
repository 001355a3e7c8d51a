package reference

import "github.com/isojson/isojson/backend"

// sink appends to a backend.Output, checking the room before every append:
// when the Output has an Allocator the buffer grows only through it (it may
// be C memory, which append must never replace by Go memory), and out.Buf is
// kept on the live buffer after every growth, as backend.Output requires.
type sink struct {
	out *backend.Output
}

// room makes room for n more bytes.
func (s sink) room(n int) {
	buf := s.out.Buf
	if cap(buf)-len(buf) >= n {
		return
	}
	need := max(len(buf)+n, 2*cap(buf), 64)
	if s.out.Alloc == nil {
		grown := make([]byte, len(buf), need)
		copy(grown, buf)
		s.out.Buf = grown
		return
	}
	s.out.Buf = s.out.Alloc.GrowBytes(buf, need)
	if cap(s.out.Buf)-len(s.out.Buf) < n {
		panic("reference writer: Allocator.GrowBytes returned less than asked")
	}
}

func (s sink) byte(c byte) {
	s.room(1)
	s.out.Buf = append(s.out.Buf, c)
}

func (s sink) string(text string) {
	s.room(len(text))
	s.out.Buf = append(s.out.Buf, text...)
}

func (s sink) bytes(text []byte) {
	s.room(len(text))
	s.out.Buf = append(s.out.Buf, text...)
}
