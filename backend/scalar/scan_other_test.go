//go:build !goexperiment.simd || !amd64

package scalar

// Without GOEXPERIMENT=simd there is only the portable path: setSIMD has
// nothing to turn on.
func setSIMD(on bool) (restore func()) { return func() {} }

const simdAvailable = false

// simdBuild: stringSpecial16 is the word version, runnable anywhere.
const simdBuild = false
