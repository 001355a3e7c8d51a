//go:build goexperiment.simd && amd64

package scalar

// setSIMD turns the inline SIMD scans on or off (on only where the CPU has
// them) and returns a function that restores the setting.
func setSIMD(on bool) (restore func()) {
	saved := useSIMD
	useSIMD = on && simdAvailable
	return func() { useSIMD = saved }
}

// simdAvailable: the CPU can run the inline scans.
var simdAvailable = useSIMD

// simdBuild: stringSpecial16 is the vector version (which needs the CPU to
// have it) rather than the word version of scan_other.go.
const simdBuild = true
