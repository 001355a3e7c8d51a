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

// rank places fastjson last, after scalar (100), simdjson (200) and sonic
// (300). Measured in instructions per parse (callgrind, BenchmarkParse in
// bench/, tape included, warm tape, GOGC=off so that no collection falls in
// the runs; the difference of runs of N and 3N parses), on this project's
// machine:
//
//	           twitter  citm    canada   github
//	scalar       4.48M   9.34M   43.9M   0.310M
//	simdjson     21.7M   39.7M    190M    1.71M
//	sonic        20.2M   43.3M    215M    1.42M
//	fastjson     27.8M   70.8M    254M    1.93M
//
// fastjson builds a tree of its own that the converter then walks and
// re-reads from the input, so it costs more than the other libraries on
// every document; the wall-clock medians of BenchmarkParse (noisy on the
// shared machine) order the four the same way.
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
