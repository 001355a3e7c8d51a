package scalar

import (
	"math/bits"

	"github.com/isojson/isojson/backend"
)

// Parser is the portable parser. The zero value is ready and safe for
// concurrent use.
type Parser struct{}

func init() {
	backend.Register(&backend.Backend{Name: "scalar", Rank: 100, Parser: Parser{}})
}

// Parse implements backend.Parser.
func (Parser) Parse(src []byte, t *backend.Tape) error {
	if len(src) == 0 {
		return &backend.SyntaxError{Offset: 0, Msg: backend.MsgEmpty}
	}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		return fail(src, 0, backend.MsgBOM)
	}
	return parse(src, t)
}

// parse is the structural state machine. Each label is a state: value (a
// value starts at src[i]), next (a value just ended), key (an object key
// starts at src[i]) and close (the innermost container just ended). The
// current container's state lives in locals. The enclosing ones need only
// the tape index of their header (a container's element count is kept in
// its header as it grows, and its kind says whether it is an object), and
// that is kept in the tape too: in the second word of the inner
// container's header, which holds its end only once it is closed. So there
// is no stack to fetch from a pool for each parse, nor a pointer to it to
// keep in a register (or reload: Go saves every register around a call,
// and parse's calls to the string and number scanners are many).
func parse(src []byte, t *backend.Tape) error {
	// Capacity cut to the length: the loads' slices (load64's src[j:j+8])
	// are checked against cap(src), which is then the same value as n, so
	// the loop tests below prove them (and cap takes no register of its own).
	src = src[:len(src):len(src)]
	n := len(src)
	i := skipSpace(src, 0)
	if i == n {
		return fail(src, 0, backend.MsgOnlyWhitespace)
	}
	// The end-of-input tests that guard a byte read compare as uint: the
	// index is never negative, and the compiler then knows the read is in
	// bounds (no check).
	var (
		depth int    // open containers
		at    int    // tape index of the innermost one's header
		head  uint64 // its header, as next last wrote it
		err   error
	)

value: // i < n
	reserveEntry(t)
valueReserved: // i < n, room for the value's entry
	switch c := src[i]; c {
	case '"':
		// Plain ASCII strings are handled here: with the inline vector
		// scan (useSIMD, scan_simd_amd64.go) 16 bytes a step from the
		// first; else the first word inline, then whole blocks by the SIMD
		// kernel if there is one; then words to the end of input. Anything
		// else resumes in scanStringAt where this scan stopped.
		j := i + 1
		if useSIMD {
			// The first step is peeled off the loop so that the operands
			// are loaded before it: parse's gotos make its control flow
			// irreducible, and the compiler then sinks loads used only in a
			// loop into the loop (once a step).
			if uint(j+16) <= uint(n) { // as uint: proves the load's slice
				k := loadSpecials16()
				m := k.first(src, j)
				for m == 0 {
					if j += 16; uint(j+16) > uint(n) {
						goto vtail
					}
					m = k.first(src, j)
				}
				j += bits.TrailingZeros(m)
				goto vdone
			}
		} else {
			if j+8 <= n {
				if m := stringSpecial(load64(src, j)); m != 0 {
					j += bits.TrailingZeros64(m) >> 3
					goto vdone
				}
				j += 8
			}
			j += asciiBlocks(src, j) // longer ones: URLs, sentences
		}
	vtail:
		for j+8 <= n {
			if m := stringSpecial(load64(src, j)); m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
	vdone:
		if uint(j) < uint(n) && src[j] == '"' {
			appendASCII(t, i+1, j)
			i = j + 1
		} else if i, err = scanStringAt(src, i, j, t); err != nil {
			return err
		}
	case '[', '{':
		if depth >= backend.MaxDepth {
			if i+1 == n { // the too-deep container's first byte ends the input: see backend.MsgDepth
				return failEnd(src)
			}
			return fail(src, i+1, backend.MsgDepth)
		}
		depth++
		parent := uint64(at) // kept where close finds it, see parse
		at = len(t.Words)
		if c == '{' {
			put2(t, uint64(backend.KindObject)<<backend.KindShift, parent)
		} else {
			put2(t, uint64(backend.KindArray)<<backend.KindShift, parent)
		}
		i++
		if uint(i) >= uint(n) || src[i] <= ' ' { // white space: skipSpace, with line breaks inline
			if uint(i) < uint(n) && src[i] == '\n' && i+32 <= n { // a line break: see lineIndent
				i += lineIndent((*[32]byte)(src[i : i+32]))
			}
			i = skipSpace(src, i)
		}
		if uint(i) >= uint(n) {
			return failEnd(src)
		}
		if c == '{' {
			switch src[i] {
			case '"':
				goto key
			case '}':
				i++
				goto close
			}
			return fail(src, i, backend.MsgExpectedKey)
		}
		if src[i] == ']' {
			i++
			goto close
		}
		goto value
	// A literal is checked with one 4-byte compare; literal() sorts out
	// what is wrong when that fails.
	case 't':
		if i+4 <= n && load32(src, i) == wordTrue {
			if runFollows(src, i+4) && depth > 0 && inArray(t, at) {
				goto run
			}
			i += 4
		} else if i, err = literal(src, i, "true", backend.MsgInvalidTrue); err != nil {
			return err
		}
		appendScalar(t, backend.KindTrue)
	case 'f':
		if i+5 <= n && load32(src, i+1) == wordAlse {
			if runFollows(src, i+5) && depth > 0 && inArray(t, at) {
				goto run
			}
			i += 5
		} else if i, err = literal(src, i, "false", backend.MsgInvalidFalse); err != nil {
			return err
		}
		appendScalar(t, backend.KindFalse)
	case 'n':
		if i+4 <= n && load32(src, i) == wordNull {
			if runFollows(src, i+4) && depth > 0 && inArray(t, at) {
				goto run
			}
			i += 4
		} else if i, err = literal(src, i, "null", backend.MsgInvalidNull); err != nil {
			return err
		}
		appendScalar(t, backend.KindNull)
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// An integer of one or two digits that a comma or a closing
		// bracket ends (counts, flags, small ids, codes: every member of a
		// list of small ints) is read here: scanNumber's call, its 16-byte
		// window test and its word of digits cost more than the number.
		// Anything else (more digits, a leading zero, a fraction, white
		// space after it, the input's last two bytes) is scanNumber's.
		if uint(i+2) < uint(n) { // as uint: proves src[i+1] and src[i+2]
			// A second digit is tested first, then what follows it: a
			// longer number pays two tests and two loads. (b|0x20 == '}'
			// is b == ']' or b == '}'.)
			if e := src[i+1]; e-'0' <= 9 {
				if f := src[i+2]; (f == ',' || f|0x20 == '}') && c != '0' {
					if runFollows(src, i+2) && depth > 0 && inArray(t, at) {
						goto run
					}
					appendNumber(t, backend.KindInt, uint64(c-'0')*10+uint64(e-'0'))
					i += 2
					goto next
				}
			} else if e == ',' || e|0x20 == '}' {
				if runFollows(src, i+1) && depth > 0 && inArray(t, at) {
					goto run
				}
				appendNumber(t, backend.KindInt, uint64(c-'0'))
				i++
				goto next
			}
		}
		if i, err = scanNumber(src, i, t); err != nil {
			return err
		}
	case '-', '+', '.':
		if i, err = scanNumber(src, i, t); err != nil {
			return err
		}
	default:
		return fail(src, i, backend.MsgExpectedValue)
	}

next: // a value ended just before src[i]
	if depth == 0 {
		if i = skipSpace(src, i); i != n {
			return fail(src, i, backend.MsgTrailing)
		}
		return nil
	}
	// The count is kept in the header's low bits; the header read once
	// here also says the container's kind after skipSpace (no reload and
	// bounds check of t.Words[at]).
	head = t.Words[at] + 1
	t.Words[at] = head
	// A line break and indentation (pretty-printed documents: here before
	// a closing bracket, and after a comma, '{' or '[') is counted by
	// lineIndent, inline; skipSpace goes on from where it stops, so
	// anything else (tabs, \r\n, longer indentation, the last 32 bytes
	// of input) is still skipped, at the cost of its call.
	if uint(i) >= uint(n) || src[i] <= ' ' { // white space: skipSpace, with line breaks inline
		if uint(i) < uint(n) && src[i] == '\n' && i+32 <= n { // a line break: see lineIndent
			i += lineIndent((*[32]byte)(src[i : i+32]))
		}
		i = skipSpace(src, i)
	}
	if uint(i) >= uint(n) {
		return failEnd(src)
	}
	if backend.Kind(head>>backend.KindShift) == backend.KindObject {
		switch src[i] {
		case ',':
			comma := i
			// The one space of ", " before a key (github.json has it
			// after every member) is skipped here, saving skipSpace its
			// call.
			if uint(i+3) <= uint(n) && load16(src, i+1) == ' '|'"'<<8 { // as uint: proves the load
				i += 2
				goto key
			}
			i++
			if uint(i) >= uint(n) || src[i] <= ' ' { // white space: skipSpace, with line breaks inline
				if uint(i) < uint(n) && src[i] == '\n' && i+32 <= n { // a line break: see lineIndent
					i += lineIndent((*[32]byte)(src[i : i+32]))
				}
				i = skipSpace(src, i)
			}
			if uint(i) >= uint(n) {
				return failEnd(src)
			}
			switch src[i] {
			case '"':
				goto key
			case '}':
				return fail(src, comma, backend.MsgTrailingComma)
			}
			return fail(src, i, backend.MsgExpectedKey)
		case '}':
			i++
			goto close
		}
		return fail(src, i, backend.MsgExpectedObjectNext)
	}
	switch src[i] {
	case ',':
		comma := i
		i++
		if uint(i) >= uint(n) || src[i] <= ' ' { // white space: skipSpace, with line breaks inline
			if uint(i) < uint(n) && src[i] == '\n' && i+32 <= n { // a line break: see lineIndent
				i += lineIndent((*[32]byte)(src[i : i+32]))
			}
			i = skipSpace(src, i)
		}
		if uint(i) >= uint(n) {
			return failEnd(src)
		}
		if src[i] == ']' {
			return fail(src, comma, backend.MsgTrailingComma)
		}
		goto value
	case ']':
		i++
		goto close
	}
	return fail(src, i, backend.MsgExpectedArrayNext)

key: // src[i] == '"'
	reserveMember(t) // the key's entry and the value's
	{
		j := i + 1 // as for string values
		// The first word (most keys end in it) is loaded at i+1 and its end
		// is i+1 plus the count: one instruction each, where the loop's j
		// was an addition more, on the path from one token to the next
		// (each scan starts where the one before ended: the parse's speed
		// is that chain's latency, not the instructions off it).
		if uint(i+9) <= uint(n) {
			if m := stringSpecial(load64(src, i+1)); m != 0 {
				j = i + 1 + bits.TrailingZeros64(m)>>3
				goto keyScanned
			}
			j = i + 9
		}
		// Tested as uint, as the slice in load64 is: it is then proven
		// (only the overflow test j <= j+8 is left).
		for uint(j+8) <= uint(n) {
			if m := stringSpecial(load64(src, j)); m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
	keyScanned:
		// The usual member head: a plain key's closing quote, the colon
		// and then the value, or one space and the value, tested from one
		// 4-byte load without skipSpace's calls. (Bytes i+1..j-1 were all
		// scanned: a quote at j ends a plain key, as below.)
		if uint(j+4) <= uint(n) { // as uint: proves the load
			if w := load32(src, j); w&0xFFFF == '"'|':'<<8 {
				appendASCII(t, i+1, j)
				if byte(w>>16) > ' ' {
					i = j + 2
					goto valueReserved
				}
				if byte(w>>16) == ' ' && byte(w>>24) > ' ' {
					i = j + 3
					goto valueReserved
				}
				if i = skipSpace(src, j+2); uint(i) >= uint(n) {
					return failEnd(src)
				}
				goto valueReserved
			}
		}
		if uint(j) < uint(n) && src[j] == '"' {
			appendASCII(t, i+1, j)
			i = j + 1
		} else if i, err = scanStringAt(src, i, j, t); err != nil {
			return err
		}
	}
	if i = skipSpace(src, i); uint(i) >= uint(n) {
		return failEnd(src)
	}
	if src[i] != ':' {
		return fail(src, i, backend.MsgExpectedColon)
	}
	// Pretty-printed members have one space after the colon: skipped
	// here, saving skipSpace its call.
	if i+2 < n && src[i+1] == ' ' && src[i+2] > ' ' {
		i += 2
		goto valueReserved
	}
	if i = skipSpace(src, i+1); uint(i) >= uint(n) {
		return failEnd(src)
	}
	goto valueReserved

close: // the container at tape index at ended just before src[i]
	{
		parent := t.Words[at+1]
		t.Words[at+1] = uint64(len(t.Words))
		depth--
		at = int(parent)
	}
	goto next

run: // src[i] begins a literal or a small int that scalarRun takes, in the array at tape index at
	{
		var count int
		i, count = scalarRun(src, i, t)
		t.Words[at] += uint64(count - 1) // next counts the last
	}
	goto next
}

// runFollows reports whether src[j] is a comma and the byte after it may
// begin another member scalarRun takes: parse calls scalarRun for runs of
// two members or more (for one, the call costs more than it saves).
func runFollows(src []byte, j int) bool {
	return j+1 < len(src) && src[j] == ',' && runStarts[src[j+1]]
}

// inArray reports whether the container whose header is at tape index at
// is an array.
func inArray(t *backend.Tape, at int) bool {
	return backend.Kind(t.Words[at]>>backend.KindShift) == backend.KindArray
}

// literal checks that src[i:] starts with lit (true, false or null), whose
// first byte is already matched. Input that ends inside a correct prefix is
// "unexpected end of data"; any wrong byte is an invalid literal reported at
// its first byte, as orjson does.
func literal(src []byte, i int, lit, msg string) (int, error) {
	if i+len(lit) <= len(src) && string(src[i:i+len(lit)]) == lit {
		return i + len(lit), nil
	}
	for k := 1; k < len(lit); k++ {
		if i+k >= len(src) {
			return 0, failEnd(src)
		}
		if src[i+k] != lit[k] {
			return 0, fail(src, i, msg)
		}
	}
	return i + len(lit), nil
}

// asciiHeader is the header of a plain ASCII string in the input without
// its length: RefHeader(KindString, StorageInput, ClassASCII, WidthUTF8,
// true, 0), spelled as a constant so that appendASCII inlines.
const asciiHeader = uint64(backend.KindString)<<backend.KindShift | backend.CleanBit

// appendASCII appends the String entry of src[from:to], plain ASCII.
func appendASCII(t *backend.Tape, from, to int) {
	n := uint64(to - from)
	put3(t, asciiHeader|n&backend.LenMask, uint64(from), n)
}

func appendScalar(t *backend.Tape, k backend.Kind) {
	put1(t, uint64(k)<<backend.KindShift)
}
