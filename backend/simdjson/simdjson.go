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

// rank places simdjson among the backends; see rank.go for the measurement.
const rank = 300

// Parser parses with simdjson-go. The zero value is ready; it is safe for
// concurrent use (each call takes its own simdjson-go state from a pool).
type Parser struct{}

var statePool = sync.Pool{New: func() any { return new(simd.ParsedJson) }}

// Parse implements backend.Parser.
func (Parser) Parse(src []byte, t *backend.Tape) error {
	if !suitable(src) {
		return scalar.Parser{}.Parse(src, t)
	}
	pj := statePool.Get().(*simd.ParsedJson)
	pj, err := simd.Parse(src, pj, simd.WithCopyStrings(false))
	ok := err == nil && convert(pj, src, t)
	if pj != nil {
		pj.Message = nil // do not keep the caller's input alive in the pool
		statePool.Put(pj)
	}
	if ok {
		return nil
	}
	t.Reset()
	return scalar.Parser{}.Parse(src, t)
}

// suitable reports whether simdjson-go can be trusted with src at all: its
// root must be an array or object, and it must hold none of the byte
// patterns simdjson-go accepts although they are invalid JSON.
func suitable(src []byte) bool {
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i == len(src) || src[i] != '[' && src[i] != '{' {
		return false
	}
	if bytes.IndexByte(src, 0) >= 0 || bytes.IndexByte(src, '\v') >= 0 || bytes.IndexByte(src, '\f') >= 0 {
		return false
	}
	return !hasMinusLeadingZero(src)
}

// hasMinusLeadingZero reports whether src contains "-0" followed by a digit.
func hasMinusLeadingZero(src []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '-')
		if j < 0 {
			return false
		}
		i += j + 1
		if i+1 < len(src) && src[i] == '0' && src[i+1]-'0' < 10 {
			return true
		}
	}
}
