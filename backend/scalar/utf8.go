package scalar

import (
	"math/bits"

	"github.com/isojson/isojson/backend"
)

// Non-ASCII string content (CJK, emoji) is scanned by an AVX2 kernel in
// 32-byte blocks where there is one (kernels_amd64.s: 7-9x faster on long
// text), and the rest eight bytes at a time: textSpecial finds the bytes that end the text ('"', '\\', control bytes)
// exactly, a shift-based DFA validates the UTF-8 (a chain of one shift a
// byte: the table loads do not depend on the state, so they overlap), and
// popcounts of SWAR masks give the code point count and the class.

// UTF-8 DFA states. Each state is a shift amount (a multiple of 6) and a row
// of utf8DFA holds, for one input byte, the next state of every state in the
// 6 bits at that state's shift: next = utf8DFA[b] >> state (mod 64, which is
// what the hardware shift does). Only the low 6 bits of a state are
// meaningful; 0 is "between characters".
const (
	dfaAccept  = 6 * iota // between characters
	dfaError              // invalid: stays here
	dfaCont1              // one continuation byte (80..BF) to go
	dfaCont2              // two to go
	dfaCont3              // three to go
	dfaAfterE0            // A0..BF then one: no overlong 3-byte forms
	dfaAfterED            // 80..9F then one: no surrogates
	dfaAfterF0            // 90..BF then two: no overlong 4-byte forms
	dfaAfterF4            // 80..8F then two: nothing above U+10FFFF
)

var utf8DFA = func() (t [256]uint64) {
	next := func(state int, b byte) int {
		in := func(lo, hi byte) bool { return lo <= b && b <= hi }
		switch state {
		case dfaAccept:
			switch {
			case b < 0x80:
				return dfaAccept
			case in(0xC2, 0xDF):
				return dfaCont1
			case b == 0xE0:
				return dfaAfterE0
			case b == 0xED:
				return dfaAfterED
			case in(0xE1, 0xEF):
				return dfaCont2
			case b == 0xF0:
				return dfaAfterF0
			case in(0xF1, 0xF3):
				return dfaCont3
			case b == 0xF4:
				return dfaAfterF4
			}
		case dfaCont1:
			if in(0x80, 0xBF) {
				return dfaAccept
			}
		case dfaCont2:
			if in(0x80, 0xBF) {
				return dfaCont1
			}
		case dfaCont3:
			if in(0x80, 0xBF) {
				return dfaCont2
			}
		case dfaAfterE0:
			if in(0xA0, 0xBF) {
				return dfaCont1
			}
		case dfaAfterED:
			if in(0x80, 0x9F) {
				return dfaCont1
			}
		case dfaAfterF0:
			if in(0x90, 0xBF) {
				return dfaCont2
			}
		case dfaAfterF4:
			if in(0x80, 0x8F) {
				return dfaCont2
			}
		}
		return dfaError
	}
	for b := range t {
		for s := dfaAccept; s <= dfaAfterF4; s += 6 {
			t[b] |= uint64(next(s, byte(b))) << s
		}
	}
	return t
}()

// textSpecial flags (in each byte's high bit) exactly the bytes of w that end
// string text: '"', '\\' and control characters. Unlike stringSpecial it
// does not flag bytes >= 0x80, and no flag is false, so masks can be
// combined with the others below. Clearing the high bits first keeps every
// per-byte sum below 0x100: no carry crosses a byte.
func textSpecial(w uint64) uint64 {
	const low7 = ones * 0x7F
	l := w & low7
	quote := (l ^ ones*'"') + low7 // high bit set unless the byte was '"'
	slash := (l ^ ones*'\\') + low7
	ctl := l + ones*0x60 // high bit set unless the byte was < 0x20
	return ^(quote&slash&ctl | w) & highs
}

// scanText scans string text from src[j] (any bytes) up to the next '"',
// '\\' or control byte, or the end of input, whose index it returns, with
// the number of UTF-8 continuation bytes in src[j:k] (bytes minus code
// points) and the text's class. ok is false when the text is not valid
// UTF-8, including a sequence cut short by the end of the text. The bytes
// before src[j] must end between characters (the callers start after ASCII).
func scanText(src []byte, j int) (k, cont int, class backend.Class, ok bool) {
	n := len(src)
	var (
		s      uint64 // DFA state
		wide   uint64 // flags (bit 7) lead bytes >= 0xC4: code points >= U+0100
		astral uint64 // flags (bit 7) lead bytes >= 0xF0: code points >= U+10000
		high   uint64 // flags bytes >= 0x80
	)
	// Long text goes to the SIMD kernel first, which stops at the block
	// holding the end of the text. A character it cut is taken up again
	// from its lead byte: the DFA below starts between characters, and the
	// kernel counted that character's continuation bytes, which are
	// uncounted here.
	if kk, c, maxb, bad := utf8Blocks(src[j:]); kk > 0 || bad {
		if bad {
			return 0, 0, 0, false
		}
		b := j + kk
		for back := 0; back < 3 && b-1 > j && src[b-1]&0xC0 == 0x80; back++ {
			b--
			c--
		}
		if src[b-1] >= 0xC0 {
			b--
		}
		j, cont = b, c
		// The class of the largest byte, in the flags below.
		if maxb >= 0x80 {
			high = 0x80
		}
		if maxb >= 0xC4 {
			wide = 0x80
		}
		if maxb >= 0xF0 {
			astral = 0x80
		}
	}
	for {
		var w uint64
		stop := false
		if j+8 <= n {
			w = load64(src, j)
		} else {
			// The last bytes, zero-padded: a zero is a control byte, so
			// the end of input stops the scan like a special byte.
			var b [8]byte
			copy(b[:], src[j:])
			w = load64(b[:], 0)
		}
		size := 8
		if m := textSpecial(w); m != 0 {
			size = bits.TrailingZeros64(m) >> 3
			// Keep only the text bytes; zeros are ASCII, which is right
			// between characters and an error inside one.
			w &= 1<<(size*8) - 1
			stop = true
		}
		if w&highs == 0 {
			if s&63 != dfaAccept {
				return 0, 0, 0, false
			}
		} else {
			// The DFA over the eight bytes, lowest first.
			s = utf8DFA[byte(w)] >> (s & 63)
			s = utf8DFA[byte(w>>8)] >> (s & 63)
			s = utf8DFA[byte(w>>16)] >> (s & 63)
			s = utf8DFA[byte(w>>24)] >> (s & 63)
			s = utf8DFA[byte(w>>32)] >> (s & 63)
			s = utf8DFA[byte(w>>40)] >> (s & 63)
			s = utf8DFA[byte(w>>48)] >> (s & 63)
			s = utf8DFA[byte(w>>56)] >> (s & 63)
			high |= w
			cont += bits.OnesCount64(w &^ (w << 1) & highs) // 10xxxxxx
			// With the high bit set, a byte's low 7 bits plus 0x3C carry
			// into bit 7 when it is >= 0xC4, plus 0x10 when >= 0xF0: in
			// valid UTF-8 those are the lead bytes of code points >=
			// U+0100 and >= U+10000. No sum leaves its byte.
			l := w &^ highs
			wide |= (l + ones*0x3C) & w
			astral |= (l + ones*0x10) & w
		}
		j += size
		if stop {
			break
		}
	}
	if s&63 != dfaAccept {
		return 0, 0, 0, false
	}
	switch {
	case astral&highs != 0:
		class = backend.ClassAstral
	case wide&highs != 0:
		class = backend.ClassBMP
	case high&highs != 0:
		class = backend.ClassLatin1
	}
	return j, cont, class, true
}
