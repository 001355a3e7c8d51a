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
