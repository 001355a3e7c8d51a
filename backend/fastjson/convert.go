//go:build !isojson_nofastjson

package fastjson

import (
	"bytes"

	"github.com/valyala/fastjson"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/rescan"
)

// converter walks fastjson's tree and the input text together.
type converter struct {
	src []byte
	pos int // the cursor: where the next token is searched from
	t   *backend.Tape
}

// convert writes the tape of the document src, whose tree fastjson built as
// root. It reports false when the document needs the scalar parser (see the
// package documentation); t then holds garbage.
func convert(root *fastjson.Value, src []byte, t *backend.Tape) bool {
	c := converter{src: src, t: t}
	t.ReserveWords(len(src)/4 + 8)
	if !c.value(root, 0) {
		return false
	}
	c.space()
	return c.pos == len(src)
}

// space moves the cursor past JSON whitespace (fastjson skips only these
// four bytes, so a document it accepted has no other between tokens).
func (c *converter) space() {
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// token moves the cursor past whitespace and the byte b, and reports
// whether b was there.
func (c *converter) token(b byte) bool {
	c.space()
	if c.pos < len(c.src) && c.src[c.pos] == b {
		c.pos++
		return true
	}
	return false
}

// literal moves the cursor past whitespace and the text lit.
func (c *converter) literal(lit string) bool {
	c.space()
	if !bytes.HasPrefix(c.src[c.pos:], []byte(lit)) {
		return false
	}
	c.pos += len(lit)
	return true
}

// value appends the value v, which the cursor must find next, at nesting
// depth (containers already open).
func (c *converter) value(v *fastjson.Value, depth int) bool {
	switch v.Type() {
	case fastjson.TypeObject:
		return c.object(v, depth)
	case fastjson.TypeArray:
		return c.array(v, depth)
	case fastjson.TypeString:
		return c.string()
	case fastjson.TypeNumber:
		return c.number()
	case fastjson.TypeTrue:
		c.t.AppendScalar(backend.KindTrue)
		return c.literal("true")
	case fastjson.TypeFalse:
		c.t.AppendScalar(backend.KindFalse)
		return c.literal("false")
	case fastjson.TypeNull:
		c.t.AppendScalar(backend.KindNull)
		return c.literal("null")
	}
	return false
}

func (c *converter) array(v *fastjson.Value, depth int) bool {
	if depth >= backend.MaxDepth || !c.token('[') {
		return false
	}
	elems, err := v.Array()
	if err != nil {
		return false
	}
	at := c.t.OpenContainer(backend.KindArray)
	for n, e := range elems {
		if n > 0 && !c.token(',') {
			return false
		}
		if !c.value(e, depth+1) {
			return false
		}
	}
	c.t.CloseContainer(at, len(elems))
	return c.token(']')
}

func (c *converter) object(v *fastjson.Value, depth int) bool {
	if depth >= backend.MaxDepth || !c.token('{') {
		return false
	}
	o, err := v.Object()
	if err != nil {
		return false
	}
	at := c.t.OpenContainer(backend.KindObject)
	n, ok := 0, true
	// The key's text is the input's: fastjson's is decoded (loosely), so
	// only the member's place in the order is taken from it.
	o.Visit(func(_ []byte, val *fastjson.Value) {
		ok = ok && (n == 0 || c.token(',')) && c.string() && c.token(':') && c.value(val, depth+1)
		n++
	})
	if !ok {
		return false
	}
	c.t.CloseContainer(at, n)
	return c.token('}')
}

// string appends the string whose opening quote the cursor must find next,
// from its text: as it is in the input when it has no escapes, else decoded
// into the arena, exactly as the scalar parser stores it.
func (c *converter) string() bool {
	if !c.token('"') {
		return false
	}
	openAt := c.pos - 1
	closeAt := rescan.StringEnd(c.src, openAt)
	if closeAt < 0 {
		return false
	}
	c.pos = closeAt + 1
	body := c.src[openAt+1 : closeAt]
	t := c.t
	if bytes.IndexByte(body, '\\') < 0 {
		class, chars, ok := rescan.InputString(body)
		if !ok {
			return false
		}
		t.AppendRef(backend.KindString, backend.Ref{
			Storage: backend.StorageInput, Class: class, Clean: true, Len: len(body), Where: uint64(openAt + 1), Chars: chars,
		})
		return true
	}
	// Decoding never lengthens the text, so the reserved arena suffices and
	// Unescape's appends stay in the tape's own memory.
	start := len(t.Arena)
	t.ReserveArena(len(body))
	arena, class, chars, clean, ok := rescan.Unescape(t.Arena, body)
	t.Arena = arena
	if !ok {
		return false
	}
	t.AppendRef(backend.KindString, backend.Ref{
		Storage: backend.StorageArena, Class: class, Clean: clean, Len: len(arena) - start, Where: uint64(start), Chars: chars,
	})
	return true
}

// number appends the number the cursor must find next: the run of bytes
// fastjson takes for one, which must be exactly one JSON number.
func (c *converter) number() bool {
	c.space()
	start := c.pos
	for c.pos < len(c.src) && numberByte(c.src[c.pos]) {
		c.pos++
	}
	return c.pos > start && rescan.AppendNumber(c.t, c.src, start, c.pos)
}

func numberByte(b byte) bool {
	return b >= '0' && b <= '9' || b == '.' || b == '-' || b == '+' || b == 'e' || b == 'E'
}
