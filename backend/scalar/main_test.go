package scalar_test

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/isojson/isojson/backend/scalar"
)

// TestMain runs every test of the package twice where the inline SIMD scans
// exist (GOEXPERIMENT=simd on a CPU with AVX2): as shipped, with them, then
// with them off, so that the portable path that other CPUs and builds take
// is tested on this machine too. Benchmarks, fuzzing and listing run once.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && scalar.SIMDAvailable && flagEmpty("test.bench") && flagEmpty("test.fuzz") && flagEmpty("test.list") {
		fmt.Println("backend/scalar: the tests again with the inline SIMD scans off")
		restore := scalar.SetSIMD(false)
		code = m.Run()
		restore()
		if code != 0 {
			fmt.Println("backend/scalar: FAIL with the inline SIMD scans off (they passed with them on)")
		}
	}
	os.Exit(code)
}

func flagEmpty(name string) bool {
	f := flag.Lookup(name)
	return f == nil || f.Value.String() == ""
}
