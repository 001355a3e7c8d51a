package backend

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// MaxDepth is the deepest nesting every backend accepts; one more level is
// rejected with "depth limit exceeded", as orjson does (or "unexpected end of
// data" when the input ends right after that level's '[' or '{': MsgDepth).
const MaxDepth = 1024

// Parser turns one JSON document into a tape.
//
// Parse appends the document's entries to t (which the caller has Reset) and
// returns nil, or the first error as a *SyntaxError. Unescaped strings may be
// stored as offsets into src (StorageInput): the caller keeps src alive and
// unchanged while it reads the tape. A Parser must be safe for concurrent use.
type Parser interface {
	Parse(src []byte, t *Tape) error
}

// Backend is a registered parser.
type Backend struct {
	Name string
	// Supported reports whether this CPU and build can run the backend.
	Supported func() bool
	// Rank orders the default choice: among supported backends the lowest
	// rank wins. Ranks come from measurement (bench/results).
	Rank   int
	Parser Parser
}

var (
	mu       sync.RWMutex
	registry = map[string]*Backend{}
)

// Register adds a backend; it panics on a duplicate name.
func Register(b *Backend) {
	mu.Lock()
	defer mu.Unlock()
	if _, ok := registry[b.Name]; ok {
		panic("backend: duplicate registration of " + b.Name)
	}
	registry[b.Name] = b
}

// Names lists the compiled-in backends in rank order.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	all := make([]*Backend, 0, len(registry))
	for _, b := range registry {
		all = append(all, b)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Rank != all[j].Rank {
			return all[i].Rank < all[j].Rank
		}
		return all[i].Name < all[j].Name
	})
	names := make([]string, len(all))
	for i, b := range all {
		names[i] = b.Name
	}
	return names
}

// Lookup returns the backend called name, or an error naming the choices when
// it is unknown or cannot run on this CPU.
func Lookup(name string) (*Backend, error) {
	mu.RLock()
	b := registry[name]
	mu.RUnlock()
	names := Names()
	if b == nil {
		return nil, fmt.Errorf("unknown backend %q: compiled in are %s", name, strings.Join(names, ", "))
	}
	if b.Supported != nil && !b.Supported() {
		return nil, fmt.Errorf("backend %q is not supported on this CPU: compiled in are %s", name, strings.Join(names, ", "))
	}
	return b, nil
}

// Default returns the supported backend with the lowest rank.
func Default() *Backend {
	for _, n := range Names() {
		if b, err := Lookup(n); err == nil {
			return b
		}
	}
	return nil
}

// Supported lists the compiled-in backends that can run here, in rank order.
func Supported() []string {
	return slices.DeleteFunc(Names(), func(n string) bool { _, err := Lookup(n); return err != nil })
}
