package conformance

import (
	"fmt"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
)

// Check verifies that the tape parsed from input is well formed: one root
// value covering every word, container counts and ends that agree with their
// members, object keys that are strings, and for every string valid UTF-8
// whose Class and Chars are right and which, when marked Clean, needs no
// JSON escaping. A parser's tape must pass Check for every accepted input.
func Check(t *backend.Tape, input []byte) error {
	if len(t.Words) == 0 {
		return fmt.Errorf("empty tape")
	}
	end, err := checkAt(t, input, 0, "$")
	if err != nil {
		return err
	}
	if end != len(t.Words) {
		return fmt.Errorf("root value ends at word %d of %d", end, len(t.Words))
	}
	return nil
}

func checkAt(t *backend.Tape, input []byte, i int, path string) (int, error) {
	if i >= len(t.Words) {
		return 0, fmt.Errorf("%s: entry at word %d past the tape's end", path, i)
	}
	switch k := t.Kind(i); k {
	case backend.KindNull, backend.KindFalse, backend.KindTrue:
		return i + 1, nil
	case backend.KindInt, backend.KindFloat:
		return i + 2, nil
	case backend.KindUint:
		if t.Uint(i) <= 1<<63-1 {
			return 0, fmt.Errorf("%s: Uint %d fits an Int", path, t.Uint(i))
		}
		return i + 2, nil
	case backend.KindArray, backend.KindObject:
		n := t.Count(i)
		j := i + 2
		var err error
		for m := 0; m < n; m++ {
			p := fmt.Sprintf("%s[%d]", path, m)
			if k == backend.KindObject {
				if j >= len(t.Words) || t.Kind(j) != backend.KindString {
					return 0, fmt.Errorf("%s: object key is not a string", p)
				}
				if j, err = checkAt(t, input, j, p+"(key)"); err != nil {
					return 0, err
				}
			}
			if j, err = checkAt(t, input, j, p); err != nil {
				return 0, err
			}
		}
		if t.End(i) != j {
			return 0, fmt.Errorf("%s: %v of %d ends at word %d, recorded %d", path, k, n, j, t.End(i))
		}
		return j, nil
	case backend.KindString:
		r := t.Ref(i)
		if r.Width != backend.WidthUTF8 || r.Storage == backend.StorageExternal {
			return 0, fmt.Errorf("%s: parsed string with width %d storage %d", path, r.Width, r.Storage)
		}
		if err := checkText(t, input, i); err != nil {
			return 0, fmt.Errorf("%s: %v", path, err)
		}
		b := t.Bytes(i, input)
		if !utf8.Valid(b) {
			return 0, fmt.Errorf("%s: invalid UTF-8 %q", path, b)
		}
		class, chars, clean := describe(b)
		if class != r.Class || chars != r.Chars {
			return 0, fmt.Errorf("%s: %q has class %d and %d code points, tape says %d and %d", path, b, class, chars, r.Class, r.Chars)
		}
		if r.Clean && !clean {
			return 0, fmt.Errorf("%s: %q marked clean but needs escaping", path, b)
		}
		return i + 3, nil
	case backend.KindBigInt:
		if err := checkText(t, input, i); err != nil {
			return 0, fmt.Errorf("%s: %v", path, err)
		}
		b := t.Bytes(i, input)
		digits := b
		if len(digits) > 0 && digits[0] == '-' {
			digits = digits[1:]
		}
		if len(digits) < 19 || digits[0] == '0' {
			return 0, fmt.Errorf("%s: BigInt %q", path, b)
		}
		for _, c := range digits {
			if c < '0' || c > '9' {
				return 0, fmt.Errorf("%s: BigInt %q", path, b)
			}
		}
		return i + 3, nil
	default:
		return 0, fmt.Errorf("%s: parsers do not produce %v entries", path, k)
	}
}

// checkText checks that a ref entry's text lies inside its storage.
func checkText(t *backend.Tape, input []byte, i int) error {
	r := t.Ref(i)
	limit := len(input)
	if r.Storage == backend.StorageArena {
		limit = len(t.Arena)
	} else if r.Storage != backend.StorageInput {
		return fmt.Errorf("storage %d", r.Storage)
	}
	if r.Where > uint64(limit) || uint64(r.Len) > uint64(limit)-r.Where {
		return fmt.Errorf("text [%d, +%d) outside its storage of %d bytes", r.Where, r.Len, limit)
	}
	return nil
}

// describe computes a UTF-8 string's class, code point count and whether it
// needs no JSON escaping.
func describe(b []byte) (backend.Class, int, bool) {
	class, chars, clean := backend.ClassASCII, 0, true
	for _, r := range string(b) {
		chars++
		switch {
		case r < 0x20 || r == '"' || r == '\\':
			clean = false
		case r >= 0x10000:
			class = max(class, backend.ClassAstral)
		case r >= 0x100:
			class = max(class, backend.ClassBMP)
		case r >= 0x80:
			class = max(class, backend.ClassLatin1)
		}
	}
	return class, chars, clean
}
