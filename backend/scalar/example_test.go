package scalar_test

import (
	"fmt"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
	"github.com/isojson/isojson/conformance"
)

func Example() {
	src := []byte(`{"name": "caf\u00e9", "ids": [1, 18446744073709551615, 1e2], "ok": true}`)
	var t backend.Tape
	if err := (scalar.Parser{}).Parse(src, &t); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conformance.Format(&t, src))
	// The root object's first value: an escaped string, unescaped into the
	// arena, with its class and code point count ready for CPython.
	r := t.Ref(t.Next(2))
	fmt.Println(string(t.Bytes(t.Next(2), src)), r.Storage == backend.StorageArena, r.Class == backend.ClassLatin1, r.Chars)

	err := (scalar.Parser{}).Parse([]byte(`[1, 2,]`), new(backend.Tape))
	fmt.Println(err)
	// Output:
	// {"name":"café","ids":[int:1,uint:18446744073709551615,float:100],"ok":true}
	// café true true 4
	// trailing comma is not allowed at byte offset 5
}
