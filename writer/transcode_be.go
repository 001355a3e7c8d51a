//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package writer

import (
	"math/bits"
	"unsafe"
)

// load4x16 returns the four native-endian 16-bit units at p with the first
// in the low lane, as the SWAR code in transcode.go expects whatever the
// machine's byte order (this is the big-endian and unknown-order version).
func load4x16(p unsafe.Pointer) uint64 {
	u := (*[4]uint16)(p)
	return uint64(u[0]) | uint64(u[1])<<16 | uint64(u[2])<<32 | uint64(u[3])<<48
}

// store32 stores v at p in little-endian order.
func store32(p unsafe.Pointer, v uint32) { *(*uint32)(p) = bits.ReverseBytes32(v) }

// store16 stores v at p in little-endian order.
func store16(p unsafe.Pointer, v uint16) { *(*uint16)(p) = bits.ReverseBytes16(v) }
