package api_test

import (
	"encoding/json"
	"fmt"

	"github.com/isojson/isojson/api"
)

func ExampleReformat() {
	src := []byte(`{"b": [1, 2.50, 1E2, 1e16], "a": {"x": null, "x": "\u00e9\n"}}`)
	out, err := api.Reformat(src, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	out, _ = api.Reformat(src, api.OptIndent2|api.OptSortKeys)
	fmt.Println(string(out))
	// Output:
	// {"b":[1,2.5,100.0,1e+16],"a":{"x":"é\n"}}
	// {
	//   "a": {
	//     "x": "é\n"
	//   },
	//   "b": [
	//     1,
	//     2.5,
	//     100.0,
	//     1e+16
	//   ]
	// }
}

func ExampleMarshal() {
	v := map[string]any{
		"name":  "isojson",
		"tags":  []any{"fast", "exact"},
		"ratio": 0.1,
		"big":   uint64(18446744073709551615),
		"n":     json.Number("1.50"),
		"none":  nil,
	}
	out, err := api.Marshal(v, api.OptAppendNewline)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// {"big":18446744073709551615,"n":1.5,"name":"isojson","none":null,"ratio":0.1,"tags":["fast","exact"]}
}

func ExampleDecodeError() {
	_, err := api.Reformat([]byte("[\n  1,\n  x]"), 0)
	fmt.Println(err)
	// Output:
	// unexpected character, expected a JSON value: line 3 column 3 (char 9)
}
