//go:build (amd64 || arm64) && !isojson_nosonic

package sonic

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/bytedance/sonic/ast"
	"github.com/klauspost/cpuid/v2"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

func init() {
	backend.Register(&backend.Backend{
		Name:      "sonic",
		Supported: supported,
		Rank:      rank,
		Parser:    Parser{},
	})
}

// rank places sonic last, after scalar (100) and simdjson (200): see the
// measurements at backend/simdjson's rank.
const rank = 300

// supported reports whether sonic's native code runs here: it picks its AVX2
// or SSE build on amd64 and needs NEON (always present) on arm64.
func supported() bool {
	if runtime.GOARCH == "amd64" {
		return cpuid.CPU.Has(cpuid.AVX2) || cpuid.CPU.Has(cpuid.SSE)
	}
	return true
}

// Parser parses with sonic. The zero value is ready; it is safe for
// concurrent use (each call takes its own visitor and buffer from a pool).
type Parser struct{}

var visitorPool = sync.Pool{New: func() any { return new(tapeVisitor) }}

// visitorOptions: sonic need not convert numbers, the visitor re-parses
// their text.
var visitorOptions = ast.VisitorOptions{OnlyNumber: true}

// Parse implements backend.Parser.
func (Parser) Parse(src []byte, t *backend.Tape) error {
	v := visitorPool.Get().(*tapeVisitor)
	ok := v.run(src, t)
	v.release()
	visitorPool.Put(v)
	if ok {
		return nil
	}
	t.Reset()
	return scalar.Parser{}.Parse(src, t)
}

// run parses src into t and reports whether the tape is complete and right.
func (v *tapeVisitor) run(src []byte, t *backend.Tape) bool {
	// The wrapper: "[" + src + ",0]".
	buf := append(append(append(v.buf[:0], '['), src...), ",0]"...)
	v.buf = buf
	v.reset(buf, t)
	text := unsafe.String(unsafe.SliceData(buf), len(buf))
	if err := ast.Preorder(text, v, &visitorOptions); err != nil {
		return false
	}
	return v.finished()
}
