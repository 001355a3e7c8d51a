// Package writer turns a tape (package backend) into JSON text that is byte
// for byte what orjson 3.13's dumps writes for the same document: compact or
// with OPT_INDENT_2, keys in insertion order or sorted (OPT_SORT_KEYS), with
// or without OPT_APPEND_NEWLINE.
//
// The pipeline per value is: read the tape entry's header, then
//
//   - literals and integers: fixed bytes and two-digits-at-a-time digits
//     (number.go);
//   - floats: the shortest round-trip digits by Schubfach (schubfach.go, with
//     its table pow10_table.go from gen_pow10.go) laid out as orjson does;
//   - strings: UTF-8 text is scanned eight bytes at a time for the bytes
//     that need escaping, and copied without scanning when the producer
//     marked it clean; CPython's UCS1/UCS2/UCS4 layouts are transcoded to
//     UTF-8 while escaping (escape.go, text.go);
//   - containers: members in tape order, or sorted by key with a reused
//     scratch slice (sort.go).
//
// Output grows either on the Go heap (Append) or through a
// backend.Allocator (Output), which is how the engine library writes
// straight into C memory for the CPython extension.
package writer
