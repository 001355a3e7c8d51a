//go:build race

package ctiny

// raceBuild: the race detector's run takes the shorter forms of the sweeps.
const raceBuild = true
