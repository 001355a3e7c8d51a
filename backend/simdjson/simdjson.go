//go:build amd64 && !isojson_nosimdjson

package simdjson

import (
	"bytes"
	"sync"

	simd "github.com/minio/simdjson-go"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

func init() {
	backend.Register(&backend.Backend{
		Name:      "simdjson",
		Supported: simd.SupportedCPU,
		Rank:      rank,
		Parser:    Parser{},
	})
}

// rank places simdjson after scalar (100) and before sonic (300). Measured
// with conformance/difffuzz's BenchmarkParse (tape included, warm tape) on this
// project's shared 2-core machine, CPU time per parse, GB/s:
//
//	           twitter  citm  canada  github
//	scalar     2.03     2.47  0.89    2.27
//	simdjson   0.53     0.94  0.21    0.51
//	sonic      0.55     0.85  0.21    0.63
//
// scalar is 2–4× faster everywhere; simdjson and sonic tie on CPU time
// (geomean 0.48 vs 0.50) and simdjson wins on wall time (its stage 1 runs on
// a second thread: best 0.60/0.98/0.21/0.66 GB/s against sonic's
// 0.41/0.30/0.03/0.73).
const rank = 200

// Parser parses with simdjson-go. The zero value is ready; it is safe for
// concurrent use (each call takes its own simdjson-go state from a pool).
type Parser struct{}

// state is what one parse needs besides the tape, pooled between calls.
type state struct {
	pj   *simd.ParsedJson
	conv converter
}

var statePool = sync.Pool{New: func() any { return &state{pj: new(simd.ParsedJson)} }}

// Parse implements backend.Parser.
func (Parser) Parse(src []byte, t *backend.Tape) error {
	s := statePool.Get().(*state)
	ok := s.parse(src, t)
	s.pj.Message = nil // do not keep the caller's input alive in the pool
	s.conv.release()
	statePool.Put(s)
	if ok {
		return nil
	}
	t.Reset()
	return scalar.Parser{}.Parse(src, t)
}

// parse reports whether src was parsed into t; false sends it to the scalar
// parser.
func (s *state) parse(src []byte, t *backend.Tape) bool {
	if !s.conv.suitable(src) {
		return false
	}
	pj, err := simd.Parse(src, s.pj, simd.WithCopyStrings(false))
	if pj != nil {
		s.pj = pj
	}
	return err == nil && s.conv.convert(pj, src, t)
}

// suitable reports whether simdjson-go can be trusted with src at all: its
// root must be an array or object, and it must hold none of the bytes
// simdjson-go accepts although they are invalid JSON anywhere. It records
// where "-0" is followed by a digit, which is fine only inside strings.
func (c *converter) suitable(src []byte) bool {
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i == len(src) || src[i] != '[' && src[i] != '{' {
		return false
	}
	// The document must end with its root's closing bracket too:
	// simdjson-go trims Unicode white space (U+0085, U+00A0, U+2028, ...)
	// off the end of its input and would accept "[]\u2028", which is
	// content after the document.
	j := len(src) - 1
	for src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r' {
		j--
	}
	if src[j] != ']' && src[j] != '}' {
		return false
	}
	if bytes.IndexByte(src, 0) >= 0 || bytes.IndexByte(src, '\v') >= 0 || bytes.IndexByte(src, '\f') >= 0 {
		return false
	}
	if len(src) > denseFrom && 8*(bytes.Count(src, openBracket)+bytes.Count(src, openBrace)) >= len(src) {
		return false
	}
	c.minusZero = appendMinusLeadingZeros(c.minusZero[:0], src)
	return true
}

// simdjson-go does not limit nesting: its memory and time grow with every
// open container (10 MB of "[" costs it 850 MB and seconds before isojson's
// depth check can see its tape). Large inputs dense in brackets go to the
// scalar parser, which stops at backend.MaxDepth; below one bracket in eight
// bytes simdjson-go's cost is bounded by that of a valid document of the
// same size.
const denseFrom = 64 << 10

var openBracket, openBrace = []byte("["), []byte("{")

// appendMinusLeadingZeros appends the offsets in src where "-0" is followed
// by a digit: a number there would be invalid, but simdjson-go accepts it
// when it is a float (-01.5).
func appendMinusLeadingZeros(dst []int, src []byte) []int {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '-')
		if j < 0 {
			return dst
		}
		i += j + 1
		if i+1 < len(src) && src[i] == '0' && src[i+1]-'0' < 10 {
			dst = append(dst, i-1)
		}
	}
}
