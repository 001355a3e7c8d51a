//go:build !isojson_nofastjson

package fastjson_test

import (
	"fmt"

	"github.com/isojson/isojson/backend"
	_ "github.com/isojson/isojson/backend/fastjson"
)

// The backend registers itself; the engine picks it by name
// (ISOJSON_BACKEND=fastjson) or by rank.
func Example() {
	b, err := backend.Lookup("fastjson")
	if err != nil {
		fmt.Println(err)
		return
	}
	src := []byte(`{"name":"caf\u00e9","tags":["a","b"],"n":-12}`)
	var t backend.Tape
	if err := b.Parser.Parse(src, &t); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Kind(0), t.Count(0), "members")
	key := 2 // the first key follows the object header
	fmt.Printf("%s=%s\n", t.Bytes(key, src), t.Bytes(t.Next(key), src))
	t.Reset()
	fmt.Println(b.Parser.Parse([]byte("[01]"), &t))
	// Output:
	// object 3 members
	// name=café
	// number with leading zero is not allowed at byte offset 1
}
