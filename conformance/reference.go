package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/isojson/isojson/backend"
)

// compareReference checks the tape parsed from input against an independent
// decoder, encoding/json's token stream (with UseNumber, so that numbers keep
// their text and duplicate keys and member order are kept): same structure,
// strings, integer values and correctly rounded floats.
func compareReference(t *backend.Tape, input []byte) error {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	end, err := referenceAt(t, input, 0, dec, "$")
	if err != nil {
		return err
	}
	if end != len(t.Words) {
		return fmt.Errorf("root value ends at word %d of %d", end, len(t.Words))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("reference decoder sees more after the root value: %v", err)
	}
	return nil
}

func referenceAt(t *backend.Tape, input []byte, i int, dec *json.Decoder, path string) (int, error) {
	tok, err := dec.Token()
	if err != nil {
		return 0, fmt.Errorf("%s: reference decoder: %v", path, err)
	}
	got := formatScalar(t, input, i)
	mismatch := func() (int, error) {
		return 0, fmt.Errorf("%s: tape has %s, reference %T %v", path, got, tok, tok)
	}
	switch v := tok.(type) {
	case nil:
		if t.Kind(i) != backend.KindNull {
			return mismatch()
		}
	case bool:
		if (v && t.Kind(i) != backend.KindTrue) || (!v && t.Kind(i) != backend.KindFalse) {
			return mismatch()
		}
	case string:
		if t.Kind(i) != backend.KindString || string(t.Bytes(i, input)) != v {
			return mismatch()
		}
	case json.Number:
		if want, err := expectNumber(string(v)); err != nil || want != got {
			return 0, fmt.Errorf("%s: %s: tape has %s, want %s (%v)", path, v, got, want, err)
		}
	case json.Delim:
		var k backend.Kind
		switch v {
		case '[':
			k = backend.KindArray
		case '{':
			k = backend.KindObject
		default:
			return mismatch()
		}
		if t.Kind(i) != k {
			return mismatch()
		}
		j, n := i+2, 0
		for dec.More() {
			if j, err = referenceAt(t, input, j, dec, fmt.Sprintf("%s[%d]", path, n)); err != nil {
				return 0, err
			}
			if k == backend.KindObject {
				if j, err = referenceAt(t, input, j, dec, fmt.Sprintf("%s[%d]", path, n)); err != nil {
					return 0, err
				}
			}
			n++
		}
		if _, err := dec.Token(); err != nil {
			return 0, err
		}
		if n != t.Count(i) || j != t.End(i) {
			return 0, fmt.Errorf("%s: %v count %d end %d, reference %d members ending at %d", path, k, t.Count(i), t.End(i), n, j)
		}
		return j, nil
	}
	return t.Next(i), nil
}

// expectNumber is the Format text of the entry a parser must produce for the
// JSON number s (syntactically valid): integers as int, uint or bigint, the
// rest as strconv's correctly rounded float64 ("-0" is int 0, as orjson).
func expectNumber(s string) (string, error) {
	if !isInteger(s) {
		f, err := strconv.ParseFloat(s, 64)
		if math.IsInf(f, 0) {
			return "", fmt.Errorf("infinite float must be rejected")
		}
		if err != nil && !math.IsInf(f, 0) && f != 0 {
			return "", err
		}
		return "float:" + strconv.FormatFloat(f, 'g', -1, 64), nil
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return "int:" + strconv.FormatInt(v, 10), nil
	}
	if v, err := strconv.ParseUint(s, 10, 64); err == nil {
		return "uint:" + strconv.FormatUint(v, 10), nil
	}
	return "bigint:" + s, nil
}

func isInteger(s string) bool {
	for _, c := range s {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}
