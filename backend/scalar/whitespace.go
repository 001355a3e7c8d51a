package scalar

import (
	"encoding/binary"
	"math/bits"
)

// isSpace is true for the four whitespace bytes of RFC 8259 (not \f or \v).
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// skipSpace returns the index of the first non-whitespace byte at or after i,
// or len(src). Compact documents have no whitespace, so the first test
// returns at once. Pretty-printed ones have a newline and a run of
// indentation: a word of eight bytes gives the count of its leading spaces
// at once (the first non-zero byte of w ^ "        ").
func skipSpace(src []byte, i int) int {
	if i < len(src) && src[i] > ' ' {
		return i
	}
	return skipSpaceRun(src, i)
}

func skipSpaceRun(src []byte, i int) int {
	// A line end before indentation (most runs of a pretty-printed
	// document: the one space after a member's colon is skipped in
	// parse): "\n", "\r\n" or " \n" (a space left before it); else the one
	// space after a comma of ", ".
	if i+1 < len(src) {
		switch c := src[i]; c {
		case '\n':
			i++
		case ' ':
			if src[i+1] > ' ' {
				return i + 1
			}
			if src[i+1] == '\n' {
				i += 2
			}
		case '\r':
			if src[i+1] == '\n' {
				i += 2
			}
		}
	}
	// Indentation of up to 32 spaces (citm_catalog's 24 and 28, nesting 6
	// or 7 deep by 4) is counted from four words with no branch but the
	// last: each pair as below, then the pairs the same way. (A tab or
	// anything else first goes to the word loop at once.)
	// The 32 bytes are resliced once, so that the loads at constant
	// offsets and the test of the byte at k < 32 need no bounds checks.
	if i+32 <= len(src) && src[i] == ' ' {
		b := src[i : i+32 : i+32]
		k1 := bits.TrailingZeros64(load64(b, 0)^ones*' ') >> 3
		k2 := bits.TrailingZeros64(load64(b, 8)^ones*' ') >> 3
		k3 := bits.TrailingZeros64(load64(b, 16)^ones*' ') >> 3
		k4 := bits.TrailingZeros64(load64(b, 24)^ones*' ') >> 3
		lo := k1 + k2&-(k1>>3)
		k := lo + (k3+k4&-(k3>>3))&-(lo>>4)
		if k < 32 && b[k&31] > ' ' {
			return i + k
		}
		i += k // the spaces counted (all 32, or up to other white space)
	}
	// Any other mix of the four (tabs, \r\n, a space before the line
	// end, blank lines, long indentation): a word at a time.
	for i+8 <= len(src) {
		if m := notSpace(load64(src, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(src) && isSpace[src[i]] {
		i++
	}
	return i
}

// notSpace flags (in each byte's high bit) exactly the bytes of w that are
// not JSON whitespace (' ', '\t', '\n', '\r'). With the high bits cleared
// first, l ^ c + 0x7F sets a byte's high bit unless the byte was c, and no
// sum leaves its byte; w's own high bits flag the bytes >= 0x80.
func notSpace(w uint64) uint64 {
	const low7 = ones * 0x7F
	l := w & low7
	sp := (l ^ ones*' ') + low7
	tab := (l ^ ones*'\t') + low7
	nl := (l ^ ones*'\n') + low7
	cr := (l ^ ones*'\r') + low7
	return (sp&tab&nl&cr | w) & highs
}

// nlSpaces is a newline then seven spaces as load64 reads them: the first
// word of a line break and its indentation (see lineIndent).
const nlSpaces = ones*' ' ^ ' ' ^ '\n'

// lineIndent counts a newline and the spaces after it in b (up to all 32
// bytes), for parse, which calls it at every line break of a pretty-printed
// document and goes on with skipSpace from where it stops. It is small
// enough for the compiler to inline (a call would cost more than its work:
// Go spills parse's live registers around every call), which is why it
// takes an array pointer (no bounds checks) and tests word by word with
// branches: skipSpaceRun's branch-free count, inline, needed more registers
// than parse has free and spilled i (citm 10% slower than the call).
func lineIndent(b *[32]byte) int {
	k, x := 0, binary.LittleEndian.Uint64(b[0:8])^nlSpaces
	if x == 0 {
		k, x = 8, binary.LittleEndian.Uint64(b[8:16])^ones*' '
		if x == 0 {
			k, x = 16, binary.LittleEndian.Uint64(b[16:24])^ones*' '
			if x == 0 {
				k, x = 24, binary.LittleEndian.Uint64(b[24:32])^ones*' '
			}
		}
	}
	return k + bits.TrailingZeros64(x)>>3
}
