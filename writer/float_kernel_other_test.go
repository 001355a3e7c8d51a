//go:build !amd64

package writer

// kernelTakes reports whether the kernel formats u itself: here the
// portable appendFloatGo formats every value.
func kernelTakes(u uint64) bool { return true }

// hasFloatKernel: appendFloatRun is portable here and formats every value.
const hasFloatKernel = false
