//go:build !(386 || amd64 || arm64 || ppc64le)

package writer

import (
	"encoding/binary"
	"unsafe"
)

// The portable versions of transcode_le.go's memory access, for machines
// that are big-endian or may fault on an unaligned word: through byte
// slices, which the compiler turns into whatever the machine allows.

// load4x16 returns the four native-endian 16-bit units at p with the first
// in the low lane, as the SWAR code in transcode.go expects.
func load4x16(p unsafe.Pointer) uint64 {
	u := (*[4]uint16)(p)
	return uint64(u[0]) | uint64(u[1])<<16 | uint64(u[2])<<32 | uint64(u[3])<<48
}

// store32 stores v at p in little-endian order.
func store32(p unsafe.Pointer, v uint32) {
	binary.LittleEndian.PutUint32(unsafe.Slice((*byte)(p), 4), v)
}

// store16 stores v at p in little-endian order.
func store16(p unsafe.Pointer, v uint16) {
	binary.LittleEndian.PutUint16(unsafe.Slice((*byte)(p), 2), v)
}

// load64 and store64 move 8 bytes between p and a register in memory order.
func load64(p unsafe.Pointer) uint64 { return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(p), 8)) }
func store64(p unsafe.Pointer, v uint64) {
	binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(p), 8), v)
}

// load32 loads 4 bytes at p in memory order (little-endian, as store32
// stores them).
func load32(p unsafe.Pointer) uint32 { return binary.LittleEndian.Uint32(unsafe.Slice((*byte)(p), 4)) }
