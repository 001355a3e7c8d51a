package scalar

// isSpace is true for the four whitespace bytes of RFC 8259 (not \f or \v).
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// skipSpace returns the index of the first non-whitespace byte at or after i,
// or len(src). Compact documents have no whitespace, so the first test
// returns at once; pretty-printed ones have runs of indentation, skipped
// eight spaces at a time.
func skipSpace(src []byte, i int) int {
	if i < len(src) && src[i] > ' ' {
		return i
	}
	for i < len(src) {
		if i+8 <= len(src) && allSpaces(load64(src, i)) {
			i += 8
			continue
		}
		if !isSpace[src[i]] {
			return i
		}
		i++
	}
	return i
}
