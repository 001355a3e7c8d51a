// Package bench holds the Go benchmarks of isojson's engine: every
// registered parser backend and every registered writer on the four corpus documents of
// testdata/corpus (twitter, citm_catalog, canada, github), reported in MB/s
// through b.SetBytes so that backends and documents compare directly.
//
// Run them with `make bench-go`, which repeats each benchmark enough for
// benchstat and writes bench/results/go-bench.txt (raw) and go-bench.md
// (a table of MB/s per backend and per writer per document), or directly:
//
//	go test -run '^$' -bench . ./bench/
//	go test -run '^$' -bench 'Parse/scalar/twitter' -count 6 ./bench/
//	go test -run '^$' -bench 'Write/reference' ./bench/
//
// Which backends are measured is decided by what the test binary links:
// backends_test.go imports allbackends, and a parser joins backend.Names()
// (a writer backend.WriterNames()) when its package registers itself for
// this GOARCH and build tags.
package bench
