package conformance

import (
	"bytes"
	"fmt"

	"github.com/isojson/isojson/backend"
)

// Equal reports (as a non-nil error naming the first difference) whether the
// tapes a (parsed from ai) and b (parsed from bi) hold the same document:
// the same kinds, values (floats bit for bit), string and number text
// (wherever it is stored), container counts, and string classes and code
// point counts. Storage and the Clean bit may differ.
func Equal(a *backend.Tape, ai []byte, b *backend.Tape, bi []byte) error {
	if len(a.Words) == 0 || len(b.Words) == 0 {
		if len(a.Words) != len(b.Words) {
			return fmt.Errorf("one tape is empty: %d vs %d words", len(a.Words), len(b.Words))
		}
		return nil
	}
	_, _, err := equalAt(a, ai, 0, b, bi, 0, "$")
	if err != nil {
		return err
	}
	return nil
}

func equalAt(a *backend.Tape, ai []byte, i int, b *backend.Tape, bi []byte, j int, path string) (int, int, error) {
	ka, kb := a.Kind(i), b.Kind(j)
	if ka != kb {
		return 0, 0, fmt.Errorf("%s: kind %v vs %v", path, ka, kb)
	}
	switch ka {
	case backend.KindNull, backend.KindFalse, backend.KindTrue:
		return i + 1, j + 1, nil
	case backend.KindInt, backend.KindUint, backend.KindFloat:
		if a.Words[i+1] != b.Words[j+1] {
			return 0, 0, fmt.Errorf("%s: %s vs %s", path, formatScalar(a, ai, i), formatScalar(b, bi, j))
		}
		return i + 2, j + 2, nil
	case backend.KindArray, backend.KindObject:
		na, nb := a.Count(i), b.Count(j)
		if na != nb {
			return 0, 0, fmt.Errorf("%s: %v of %d vs %d", path, ka, na, nb)
		}
		ii, jj := i+2, j+2
		var err error
		for k := 0; k < na; k++ {
			p := fmt.Sprintf("%s[%d]", path, k)
			if ka == backend.KindObject {
				p = fmt.Sprintf("%s.%q", path, a.Bytes(ii, ai))
				if ii, jj, err = equalAt(a, ai, ii, b, bi, jj, p+"(key)"); err != nil {
					return 0, 0, err
				}
			}
			if ii, jj, err = equalAt(a, ai, ii, b, bi, jj, p); err != nil {
				return 0, 0, err
			}
		}
		if ii != a.End(i) || jj != b.End(j) {
			return 0, 0, fmt.Errorf("%s: container end %d/%d, members end at %d/%d", path, a.End(i), b.End(j), ii, jj)
		}
		return ii, jj, nil
	default:
		ra, rb := a.Ref(i), b.Ref(j)
		ta, tb := a.Bytes(i, ai), b.Bytes(j, bi)
		if !bytes.Equal(ta, tb) {
			return 0, 0, fmt.Errorf("%s: %v %q vs %q", path, ka, ta, tb)
		}
		if ka == backend.KindString && (ra.Class != rb.Class || ra.Chars != rb.Chars) {
			return 0, 0, fmt.Errorf("%s: string %q class/chars %d/%d vs %d/%d", path, ta, ra.Class, ra.Chars, rb.Class, rb.Chars)
		}
		return i + 3, j + 3, nil
	}
}
