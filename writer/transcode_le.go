//go:build 386 || amd64 || arm64 || ppc64le

package writer

import "unsafe"

// Memory access for the transcoders and the short copies of the compact
// walk on little-endian machines that load and store unaligned words
// natively: one move each (transcode_other.go is the portable version).

// load4x16 returns the four native-endian 16-bit units at p with the first
// in the low lane.
func load4x16(p unsafe.Pointer) uint64 { return *(*uint64)(p) }

// store32 stores v at p in little-endian order.
func store32(p unsafe.Pointer, v uint32) { *(*uint32)(p) = v }

// store16 stores v at p in little-endian order.
func store16(p unsafe.Pointer, v uint16) { *(*uint16)(p) = v }

// load64 and store64 move 8 bytes between p and a register in memory order.
func load64(p unsafe.Pointer) uint64     { return *(*uint64)(p) }
func store64(p unsafe.Pointer, v uint64) { *(*uint64)(p) = v }

// load32 loads 4 bytes at p in memory order.
func load32(p unsafe.Pointer) uint32 { return *(*uint32)(p) }
