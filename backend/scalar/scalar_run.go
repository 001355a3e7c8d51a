package scalar

import "github.com/isojson/isojson/backend"

// scalarRun reads a run of an array's members that are literals (true,
// false, null) or integers of one or two digits (as parse's value case reads
// them: ended by ',', ']' or '}', no leading zero), each after a comma with
// no space: src[i] is the first one's first byte. Lists of flags, of
// nullable fields, of counts and codes are such runs throughout, and here
// each member costs its compare and its entry, not parse's way from a value
// through next back to value (its container's count, white space, the
// container's kind, the comma). It returns the index just past the run's
// last member and their count, which parse adds to the container's: parse
// calls it for a first member it has checked, with room for its entry
// reserved, so the count is never 0. A member
// it does not take after a comma is left, with that comma, to parse, which
// then reads it (or reports what is wrong with it) as before. Nothing here
// fails: parse's next state judges what follows the run.
func scalarRun(src []byte, i int, t *backend.Tape) (int, int) {
	src = src[:len(src):len(src)] // as in parse: the loads' slices need no second check
	n := len(src)
	w := t.Words
	l := len(w)
	end, count := i, 0
	for cap(w)-l >= backend.NumberWords { // room for the largest, an int
		c := src[i]
		if c-'0' <= 9 {
			if uint(i+2) >= uint(n) { // as uint: proves src[i+1] and src[i+2]
				break
			}
			var v uint64
			if e := src[i+1]; e-'0' <= 9 {
				if f := src[i+2]; (f != ',' && f|0x20 != '}') || c == '0' {
					break
				}
				v = uint64(c-'0')*10 + uint64(e-'0')
				i += 2
			} else if e == ',' || e|0x20 == '}' {
				v = uint64(c - '0')
				i++
			} else {
				break
			}
			e := w[l : l+2 : l+2]
			e[0], e[1] = uint64(backend.KindInt)<<backend.KindShift, v
			l += 2
		} else {
			if uint(i+4) > uint(n) {
				break
			}
			var k backend.Kind
			switch x := load32(src, i); {
			case x == wordTrue:
				k = backend.KindTrue
				i += 4
			case x == wordNull:
				k = backend.KindNull
				i += 4
			case c == 'f' && uint(i+5) <= uint(n) && load32(src, i+1) == wordAlse:
				k = backend.KindFalse
				i += 5
			default:
				goto done
			}
			w[l : l+1 : l+1][0] = uint64(k) << backend.KindShift
			l++
		}
		end = i
		count++
		// A comma and, straight after it, another member that may be one:
		// runFollows' test, written out (through the call, inlined all the
		// same, small-ints cost +3.6% and bools-nulls +4.4%).
		if uint(i+1) >= uint(n) || src[i] != ',' || !runStarts[src[i+1]] {
			break
		}
		i++
	}
done:
	t.Words = w[:l]
	return end, count
}

// runStarts marks the bytes a member scalarRun may take begins with.
var runStarts = [256]bool{'t': true, 'f': true, 'n': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}
