//go:build amd64 && !isojson_nosimdjson

package simdjson

import (
	"bytes"

	simd "github.com/minio/simdjson-go"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/rescan"
)

// simdjson-go tape words: the tag in the top byte, a payload below.
const (
	tagShift    = simd.JSONTAGOFFSET
	payloadMask = simd.JSONVALUEMASK
	inStringBuf = simd.STRINGBUFBIT
	offsetMask  = simd.STRINGBUFMASK
)

// frame is an open container of the isojson tape.
type frame struct {
	at     int // index of its header
	values int // entries directly inside: elements, or keys plus values
}

// converter turns simdjson-go's tape into the isojson tape.
type converter struct {
	open []frame
	// minusZero holds the offsets of "-0" followed by a digit, in order;
	// each must lie inside a string.
	minusZero []int
}

// release drops memory too large to keep in the pool.
func (c *converter) release() {
	if cap(c.minusZero) > 1<<16 {
		c.minusZero = nil
	}
}

// convert writes the isojson tape for the document simdjson-go parsed into
// pj, whose input is src. It reports false when the document needs the
// scalar parser (see the package documentation); t then holds garbage.
func (c *converter) convert(pj *simd.ParsedJson, src []byte, t *backend.Tape) bool {
	tape := pj.Tape
	if len(tape) < 3 || simd.Tag(tape[0]>>tagShift) != simd.TagRoot {
		return false
	}
	end := len(tape) - 1 // the closing root word
	open := c.open[:0]
	defer func() { c.open = open[:0] }()
	// cur is where the next string's opening quote is searched from: just
	// past the previous string. Strings are the only values holding quotes,
	// and simdjson-go lists them in input order.
	cur := 0
	mz := c.minusZero
	t.ReserveWords(end + end/2)
	for i := 1; i < end; i++ {
		w := tape[i]
		tag := simd.Tag(w >> tagShift)
		// Only one value may stand at the root; containers close in order.
		// simdjson-go guarantees both, but a wrong tape must never become
		// wrong data or a panic.
		if len(open) == 0 && len(t.Words) > 0 {
			return false
		}
		switch tag {
		case simd.TagArrayStart, simd.TagObjectStart:
			k := backend.KindArray
			if tag == simd.TagObjectStart {
				k = backend.KindObject
			}
			if len(open) >= backend.MaxDepth {
				return false // simdjson-go does not enforce its own limit
			}
			if len(open) > 0 {
				open[len(open)-1].values++
			}
			open = append(open, frame{at: t.OpenContainer(k)})
			continue
		case simd.TagArrayEnd, simd.TagObjectEnd:
			if len(open) == 0 {
				return false
			}
			f := open[len(open)-1]
			open = open[:len(open)-1]
			if tag == simd.TagObjectEnd {
				if t.Kind(f.at) != backend.KindObject || f.values%2 != 0 {
					return false
				}
				f.values /= 2
			} else if t.Kind(f.at) != backend.KindArray {
				return false
			}
			t.CloseContainer(f.at, f.values)
			continue
		case simd.TagNull:
			t.AppendScalar(backend.KindNull)
		case simd.TagBoolTrue:
			t.AppendScalar(backend.KindTrue)
		case simd.TagBoolFalse:
			t.AppendScalar(backend.KindFalse)
		case simd.TagInteger:
			if i++; i >= end {
				return false
			}
			t.AppendNumber(backend.KindInt, tape[i])
		case simd.TagUint:
			if i++; i >= end {
				return false
			}
			t.AppendNumber(backend.KindUint, tape[i])
		case simd.TagFloat:
			if simd.FloatFlags(w & payloadMask).Contains(simd.FloatOverflowedInteger) {
				return false // an integer beyond 64 bits: isojson keeps its digits
			}
			if i++; i >= end {
				return false
			}
			t.AppendNumber(backend.KindFloat, tape[i])
		case simd.TagString:
			if i++; i >= end {
				return false
			}
			openAt, closeAt, ok := appendString(t, pj, src, w&payloadMask, tape[i], cur)
			if !ok {
				return false
			}
			cur = closeAt + 1
			// Every "-0<digit>" before this string was outside strings.
			for len(mz) > 0 && mz[0] < closeAt {
				if mz[0] < openAt {
					return false
				}
				mz = mz[1:]
			}
		default:
			return false
		}
		if len(open) > 0 {
			open[len(open)-1].values++
		}
	}
	return len(open) == 0 && len(mz) == 0
}

// appendString appends the string simdjson-go recorded with payload p and
// length n, searching its opening quote in src from cur, and returns the
// offsets of its quotes.
func appendString(t *backend.Tape, pj *simd.ParsedJson, src []byte, p, n uint64, cur int) (openAt, closeAt int, ok bool) {
	if p&inStringBuf == 0 {
		// No escapes: the text is src[p:p+n].
		if p == 0 || p+n >= uint64(len(src)) || src[p-1] != '"' || src[p+n] != '"' {
			return 0, 0, false
		}
		off := int(p)
		body := src[off : off+int(n)]
		c, chars, valid := rescan.InputString(body)
		if !valid {
			return 0, 0, false
		}
		t.AppendRef(backend.KindString, backend.Ref{
			Storage: backend.StorageInput, Class: c, Clean: true, Len: len(body), Where: uint64(off), Chars: chars,
		})
		return off - 1, off + len(body), true
	}
	// Escapes: decode the original text, which simdjson-go did not keep
	// (it decodes surrogates and invalid bytes more loosely than orjson).
	q := bytes.IndexByte(src[cur:], '"')
	if q < 0 {
		return 0, 0, false
	}
	openAt = cur + q
	closeAt = rescan.StringEnd(src, openAt)
	if closeAt < 0 {
		return 0, 0, false
	}
	// Decoding never lengthens the text, so the reserved arena suffices and
	// Unescape's appends stay in the tape's own memory.
	start := len(t.Arena)
	t.ReserveArena(closeAt - openAt)
	arena, c, chars, clean, valid := rescan.Unescape(t.Arena, src[openAt+1:closeAt])
	t.Arena = arena
	if !valid {
		return 0, 0, false
	}
	// The decoded text must be what simdjson-go decoded: a cheap proof that
	// the quote search found this very string.
	off := p & offsetMask
	if off+n > uint64(len(pj.Strings.B)) || !bytes.Equal(arena[start:], pj.Strings.B[off:off+n]) {
		return 0, 0, false
	}
	t.AppendRef(backend.KindString, backend.Ref{
		Storage: backend.StorageArena, Class: c, Clean: clean, Len: len(arena) - start, Where: uint64(start), Chars: chars,
	})
	return openAt, closeAt, true
}
