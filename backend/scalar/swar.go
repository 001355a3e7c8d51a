package scalar

import "encoding/binary"

// SWAR ("SIMD within a register") helpers: eight input bytes are loaded into
// a uint64 in little-endian order on every architecture, so that the lowest
// flagged byte of a mask is the first matching byte of the input and the
// trailing-zero count divided by 8 is its index. On big-endian machines the
// load is a byte swap, still correct.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

func load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8]) }

func load32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i : i+4]) }

func load16(b []byte, i int) uint16 { return binary.LittleEndian.Uint16(b[i : i+2]) }

// The literals as load32 reads them ("alse": false's first byte is already
// matched, and it has five).
const (
	wordTrue = uint32('t') | uint32('r')<<8 | uint32('u')<<16 | uint32('e')<<24
	wordAlse = uint32('a') | uint32('l')<<8 | uint32('s')<<16 | uint32('e')<<24
	wordNull = uint32('n') | uint32('u')<<8 | uint32('l')<<16 | uint32('l')<<24
)

// stringSpecial flags (in each byte's high bit) the bytes of w that end a run
// of plain ASCII string content: '"', '\\', control characters (< 0x20) and
// non-ASCII bytes (>= 0x80). x - ones*c sets a byte's high bit when the byte
// was below c or was >= 0x80+c; w itself flags the bytes >= 0x80, so the
// non-ASCII false hits are real hits. Flipping bit 1 first moves '"' (0x22)
// to 0x20 and keeps 0..0x1F among 0..0x1F, so one subtraction of 0x21 finds
// the quote and the control characters together (the other ASCII bytes,
// 0x20, 0x21 and 0x23..0x7F, become 0x21..0x7F); a backslash becomes 0 after
// its own XOR. A borrow only leaves a byte that underflowed, so bytes above
// the first hit may be flagged falsely but the lowest flag is always exact:
// use only that one.
func stringSpecial(w uint64) uint64 {
	return (((w ^ ones*2) - ones*0x21) | ((w ^ ones*'\\') - ones) | w) & highs
}
