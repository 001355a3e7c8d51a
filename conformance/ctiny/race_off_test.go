//go:build !race

package ctiny

const raceBuild = false
