//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package writer

import "unsafe"

// load4x16 returns the four native-endian 16-bit units at p with the first
// in the low lane: on a little-endian machine, one load.
func load4x16(p unsafe.Pointer) uint64 { return *(*uint64)(p) }

// store32 stores v at p in little-endian order.
func store32(p unsafe.Pointer, v uint32) { *(*uint32)(p) = v }

// store16 stores v at p in little-endian order.
func store16(p unsafe.Pointer, v uint16) { *(*uint16)(p) = v }
