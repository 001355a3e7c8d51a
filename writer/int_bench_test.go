package writer

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkAppendUintSizes times appendUint on the sizes JSON documents
// hold most: small counts (1-4 digits, citm_catalog's prices and
// quantities), 9-10 digit ids and timestamps, 18-19 digit ids
// (twitter's), and all of them mixed, over 2^16 values so that a branch
// predictor cannot learn the sequence.
func BenchmarkAppendUintSizes(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 9))
	sizes := []struct {
		name   string
		lo, hi uint64
	}{
		{"small", 0, 10_000},
		{"id10", 100_000_000, 10_000_000_000},
		{"id19", 100_000_000_000_000_000, 10_000_000_000_000_000_000},
	}
	const n = 1 << 16
	mixed := make([]uint64, n)
	for i, s := range sizes {
		vs := make([]uint64, n)
		for j := range vs {
			vs[j] = s.lo + r.Uint64N(s.hi-s.lo)
		}
		for j := i; j < n; j += len(sizes) {
			mixed[j] = vs[j]
		}
		b.Run(s.name, func(b *testing.B) { benchUints(b, vs) })
	}
	r.Shuffle(n, func(i, j int) { mixed[i], mixed[j] = mixed[j], mixed[i] })
	b.Run("mixed", func(b *testing.B) { benchUints(b, mixed) })
}

func benchUints(b *testing.B, vs []uint64) {
	buf := make([]byte, 0, 64)
	i := 0
	loopCPU(b, 0, func() { buf = appendUint(buf[:0], vs[i&(len(vs)-1)]); i++ })
}
