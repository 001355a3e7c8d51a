//go:build race

package conformance

// raceBuild: this test binary has the race detector (go test -race).
const raceBuild = true
