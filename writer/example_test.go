package writer_test

import (
	"fmt"
	"math"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/writer"
)

// A tape built by hand (as the CPython extension builds one for dumps),
// written with orjson's options.
func ExampleAppend() {
	text := []byte("ba\n")
	t := &backend.Tape{Arena: text}
	obj := t.OpenContainer(backend.KindObject)
	t.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Clean: true, Len: 1, Where: 0}) // "b"
	t.AppendNumber(backend.KindFloat, math.Float64bits(1e16))
	t.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Clean: true, Len: 1, Where: 1}) // "a"
	arr := t.OpenContainer(backend.KindArray)
	t.AppendNumber(backend.KindInt, uint64(1))
	t.AppendRef(backend.KindString, backend.Ref{Storage: backend.StorageArena, Len: 2, Where: 1}) // "a\n"
	t.AppendScalar(backend.KindNull)
	t.CloseContainer(arr, 3)
	t.CloseContainer(obj, 2)

	fmt.Println(string(writer.Append(nil, t, nil, 0)))
	fmt.Println(string(writer.Append(nil, t, nil, writer.Indent2|writer.SortKeys)))
	// Output:
	// {"b":1e+16,"a":[1,"a\n",null]}
	// {
	//   "a": [
	//     1,
	//     "a\n",
	//     null
	//   ],
	//   "b": 1e+16
	// }
}
