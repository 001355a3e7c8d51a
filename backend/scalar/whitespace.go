package scalar

import "math/bits"

// isSpace is true for the four whitespace bytes of RFC 8259 (not \f or \v).
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// skipSpace returns the index of the first non-whitespace byte at or after i,
// or len(src). Compact documents have no whitespace, so the first test
// returns at once. Pretty-printed ones have a newline and a run of
// indentation: each word of eight bytes gives the count of its leading
// spaces at once (the first non-zero byte of w ^ "        ").
func skipSpace(src []byte, i int) int {
	if i < len(src) && src[i] > ' ' {
		return i
	}
	return skipSpaceRun(src, i)
}

func skipSpaceRun(src []byte, i int) int {
	if i < len(src) && src[i] == '\n' { // the newline before indentation
		i++
	}
	for i+8 <= len(src) {
		x := load64(src, i) ^ ones*' '
		if x == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(x) >> 3
		if c := src[i]; c > ' ' || !isSpace[c] {
			return i
		}
		i++
	}
	for i < len(src) && isSpace[src[i]] {
		i++
	}
	return i
}
