package writer

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/isojson/isojson/backend"
)

// indentSlack is what putShortIndent may store past the indentation it
// writes:
// an indentation of up to 16 bytes is stored as one 16-byte array.
const indentSlack = 16

// indentRoom is the room that putShortIndent or putIndentLong needs for
// depth levels.
func indentRoom(depth int) int { return 1 + 2*depth + indentSlack }

// shortIndentDepth is the deepest indentation that putShortIndent writes as
// one 16-byte store.
const shortIndentDepth = (indentSlack - 1) / 2

// putShortIndent appends a newline and depth levels of indentation to
// buf, which has indentRoom(depth) bytes of room, for depth up to
// shortIndentDepth (putIndentLong past it): one 16-byte store of
// indentText, whatever the length, since the bytes past it, within the
// room, are overwritten by what follows. The walk branches between the two
// itself: a function doing both would not inline.
func putShortIndent(buf []byte, depth int) []byte {
	l := len(buf)
	*(*[indentSlack]byte)(buf[l : l+indentSlack]) = indentWords
	return buf[:l+1+2*depth]
}

// indentWords is the first indentSlack bytes of indentText.
var indentWords = [indentSlack]byte([]byte(indentText[:indentSlack]))

// putIndentLong is putShortIndent for depth past shortIndentDepth.
func (e *encoder) putIndentLong(buf []byte, depth int) []byte {
	if n := 1 + 2*depth; n <= len(indentText) {
		return append(buf, indentText[:n]...)
	}
	// Deeper than any parsed or Python document (a hand-built tape).
	e.buf = buf
	e.newline(depth)
	return e.buf
}

// indented writes the value at i to buf as OPT_INDENT_2 does (keys in tape
// order), and returns buf and the index after the value.
//
// It is the compact walk (see compact for the why of its shape: one loop,
// an explicit container stack, one room check per member, short text
// copied with word moves) with a newline and indentation before every
// member and every closing bracket of a non-empty container, and ": "
// after keys. depth is the number of open containers.
func (e *encoder) indented(buf []byte, i int) ([]byte, int) {
	const atRoot = math.MaxInt
	top := atRoot
	depth := 0
	// A member's room: memberRoom and the space after a key's colon.
	const room = memberRoom + 1
	buf = e.room(buf, room)
	for {
		var after byte // ':' after a key (followed by a space)
		h := e.words[i]
		switch k := backend.Kind(h >> backend.KindShift); k {
		case backend.KindString:
			if n := int(h & backend.LenMask); h&copyMask == cleanUTF8 {
				if n <= shortText {
					goto short
				}
				buf = e.room(buf, n+2)
				l := len(buf)
				buf = buf[:l+n+2]
				buf[l] = '"'
				copy(buf[l+1:l+1+n], unsafe.Slice((*byte)(e.textAddr(h, i, n)), n))
				buf[l+n+1] = '"'
			} else {
				buf = e.textTo(buf, k, i)
			}
			i += backend.RefWords
		case backend.KindInt:
			if v := int64(e.words[i+1]); v >= 0 {
				buf = appendUint(buf, uint64(v))
			} else {
				buf = appendInt(buf, v)
			}
			i += backend.NumberWords
		case backend.KindFloat:
			buf = appendFloatBits(buf, e.words[i+1])
			i += backend.NumberWords
		case backend.KindUint:
			buf = appendUint(buf, e.words[i+1])
			i += backend.NumberWords
		case backend.KindNull, backend.KindTrue, backend.KindFalse:
			l := len(buf)
			lit := &literals[k-backend.KindNull]
			binary.LittleEndian.PutUint64(buf[l:l+8], lit.word)
			buf = buf[:l+lit.len]
			i++
		case backend.KindArray, backend.KindObject:
			inner := int(e.words[i+1])
			i += backend.ContainerWords
			l := len(buf)
			isObj := int(k - backend.KindArray) // 1 for an object
			open := byte('[' + 0x20*isObj)      // '{' is '[' + 0x20
			if inner <= i {
				// Empty: no newline inside ('[' + 2 is ']', '{' + 2 is '}').
				buf = buf[:l+2]
				buf[l], buf[l+1] = open, open+2
				break
			}
			buf = buf[:l+1]
			buf[l] = open
			e.stack = append(e.stack, top)
			top = inner<<1 | isObj
			depth++
			buf = e.room(buf, room+indentRoom(depth))
			if depth <= shortIndentDepth {
				buf = putShortIndent(buf, depth)
			} else {
				buf = e.putIndentLong(buf, depth)
			}
			if isObj == 0 {
				continue
			}
			goto key
		case backend.KindBigInt, backend.KindRaw:
			buf = e.textTo(buf, k, i)
			i += backend.RefWords
		default:
			panic("writer: invalid tape entry " + k.String())
		}
	next:
		// Close the containers that end here, each on a line of its own.
		for i<<1|1 >= top {
			depth--
			buf = e.room(buf, 1+indentRoom(depth))
			if depth <= shortIndentDepth {
				buf = putShortIndent(buf, depth)
			} else {
				buf = e.putIndentLong(buf, depth)
			}
			l := len(buf)
			buf = buf[:l+1]
			buf[l] = byte(']' + 0x20*(top&1))
			top = e.stack[len(e.stack)-1]
			e.stack = e.stack[:len(e.stack)-1]
		}
		if top == atRoot {
			return buf, i
		}
		buf = e.room(buf, room+1+indentRoom(depth))
		buf = buf[:len(buf)+1]
		buf[len(buf)-1] = ','
		if depth <= shortIndentDepth {
			buf = putShortIndent(buf, depth)
		} else {
			buf = e.putIndentLong(buf, depth)
		}
		if top&1 == 0 {
			continue
		}
	key:
		h = e.words[i]
		if h&copyMask != cleanUTF8 || h&backend.LenMask > shortText {
			e.buf = buf
			i = e.key(i)
			e.grow(2 + scalarRoom)
			buf = append(e.buf, ':', ' ')
			continue
		}
		after = ':'
	short:
		// As in compact, with room for the key's ": ".
		{
			n := int(h & backend.LenMask)
			p := e.textAddr(h, i, n)
			l := len(buf)
			out := buf[l : l+shortText+4]
			d := unsafe.Pointer(&out[1])
			switch {
			case n >= 16:
				a, b := load64(p), load64(unsafe.Add(p, 8))
				c, f := load64(unsafe.Add(p, n-16)), load64(unsafe.Add(p, n-8))
				store64(d, a)
				store64(unsafe.Add(d, 8), b)
				store64(unsafe.Add(d, n-16), c)
				store64(unsafe.Add(d, n-8), f)
			case n >= 8:
				a, b := load64(p), load64(unsafe.Add(p, n-8))
				store64(d, a)
				store64(unsafe.Add(d, n-8), b)
			case n >= 4:
				a, b := load32(p), load32(unsafe.Add(p, n-4))
				store32(d, a)
				store32(unsafe.Add(d, n-4), b)
			case n > 0:
				s := unsafe.Slice((*byte)(p), n)
				out[1], out[1+n/2], out[n] = s[0], s[n/2], s[n-1]
			}
			out[0] = '"'
			out[n+1] = '"'
			out[n+2] = after
			out[n+3] = ' '
			i += backend.RefWords
			if after != 0 {
				buf = buf[:l+n+4]
				continue
			}
			buf = buf[:l+n+2]
		}
		goto next
	}
}
