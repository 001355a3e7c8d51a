package writer

import (
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkAppendFloatMixed is BenchmarkAppendFloat over 2^20 values
// instead of 1024: a branch predictor learns the digit counts and point
// positions of a 1024-value cycle, but not those of canada.json's 111k
// floats, so this one shows the cost of branches on the data.
func BenchmarkAppendFloatMixed(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 1 << 20
	fs := make([]float64, n)
	for i := range fs {
		fs[i] = (r.Float64() - 0.5) * 200
	}
	buf := make([]byte, 0, 64)
	i := 0
	loopCPU(b, 0, func() { buf = appendFloat(buf[:0], fs[i&(n-1)]); i++ })
}

// BenchmarkAppendFloatGo is BenchmarkAppendFloatMixed on the portable
// appendFloatGo, the path of architectures without the kernel.
func BenchmarkAppendFloatGo(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 1 << 20
	us := make([]uint64, n)
	for i := range us {
		us[i] = math.Float64bits((r.Float64() - 0.5) * 200)
	}
	buf := make([]byte, 0, 64)
	i := 0
	loopCPU(b, 0, func() { buf = appendFloatGo(buf[:0], us[i&(n-1)]); i++ })
}
