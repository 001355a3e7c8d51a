package scalar

// For the external tests (main_test.go runs them all with the inline SIMD
// scans on, then off).
var (
	SetSIMD       = setSIMD
	SIMDAvailable = simdAvailable
)
