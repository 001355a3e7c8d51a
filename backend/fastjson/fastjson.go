//go:build !isojson_nofastjson

package fastjson

import (
	"sync"

	"github.com/valyala/fastjson"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

func init() {
	backend.Register(&backend.Backend{
		Name:   "fastjson",
		Rank:   rank,
		Parser: Parser{},
	})
}

// rank places fastjson after scalar (100), simdjson (200) and sonic (300);
// see the measurements at backend/simdjson's rank.
const rank = 400

// Parser parses with fastjson. The zero value is ready; it is safe for
// concurrent use (each call takes its own fastjson.Parser from a pool).
type Parser struct{}

var parsers sync.Pool

// keepInput is the largest input after which a pooled fastjson.Parser is
// kept: it holds a copy of its last input and a value per value of it.
const keepInput = 4 << 20

// Parse implements backend.Parser.
func (Parser) Parse(src []byte, t *backend.Tape) error {
	p, _ := parsers.Get().(*fastjson.Parser)
	if p == nil {
		p = new(fastjson.Parser)
	}
	v, err := p.ParseBytes(src)
	ok := err == nil && convert(v, src, t)
	if len(src) <= keepInput {
		parsers.Put(p)
	}
	if ok {
		return nil
	}
	t.Reset()
	return scalar.Parser{}.Parse(src, t)
}
