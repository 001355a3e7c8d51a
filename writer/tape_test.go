package writer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/isojson/isojson/backend"
)

// tapeOf builds the tape of a JSON document with encoding/json's tokenizer,
// so that the writer's tests do not depend on any backend. It keeps key
// order and duplicate keys; numbers are Int, Uint or Float the way orjson
// loads them (a '.', 'e' or 'E' makes a float). Strings go to the arena,
// marked Clean when they need no escaping.
func tapeOf(src []byte) (*backend.Tape, error) {
	t := &backend.Tape{}
	d := json.NewDecoder(bytes.NewReader(src))
	d.UseNumber()
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	if err := tapeValue(d, t, tok); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return t, nil
}

// tapeValue appends the value that starts with tok.
func tapeValue(d *json.Decoder, t *backend.Tape, tok json.Token) error {
	switch v := tok.(type) {
	case nil:
		t.AppendScalar(backend.KindNull)
	case bool:
		if v {
			t.AppendScalar(backend.KindTrue)
		} else {
			t.AppendScalar(backend.KindFalse)
		}
	case json.Number:
		return tapeNumber(t, string(v))
	case string:
		tapeString(t, v)
	case json.Delim:
		k := backend.KindArray
		if v == '{' {
			k = backend.KindObject
		}
		at := t.OpenContainer(k)
		n := 0
		for {
			tok, err := d.Token()
			if err != nil {
				return err
			}
			if tok == json.Delim(']') || tok == json.Delim('}') {
				break
			}
			if k == backend.KindObject {
				tapeString(t, tok.(string))
				if tok, err = d.Token(); err != nil {
					return err
				}
			}
			if err := tapeValue(d, t, tok); err != nil {
				return err
			}
			n++
		}
		t.CloseContainer(at, n)
	}
	return nil
}

func tapeNumber(t *backend.Tape, s string) error {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			t.AppendNumber(backend.KindInt, uint64(i))
			return nil
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			t.AppendNumber(backend.KindUint, u)
			return nil
		}
		tapeRef(t, backend.KindBigInt, s, true)
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("number %s: %w", s, err)
	}
	t.AppendNumber(backend.KindFloat, mathFloat64bits(f))
	return nil
}

func tapeString(t *backend.Tape, s string) {
	clean := true
	for i := 0; i < len(s); i++ {
		if escapes[s[i]] != "" {
			clean = false
		}
	}
	tapeRef(t, backend.KindString, s, clean)
}

func tapeRef(t *backend.Tape, k backend.Kind, s string, clean bool) {
	class := backend.ClassASCII
	for _, r := range s {
		switch {
		case r >= 0x10000:
			class = max(class, backend.ClassAstral)
		case r >= 0x100:
			class = max(class, backend.ClassBMP)
		case r >= 0x80:
			class = max(class, backend.ClassLatin1)
		}
	}
	off := len(t.Arena)
	t.ReserveArena(len(s))
	t.Arena = append(t.Arena, s...)
	t.AppendRef(k, backend.Ref{Storage: backend.StorageArena, Class: class, Clean: clean, Len: len(s),
		Where: uint64(off), Chars: utf8.RuneCountInString(s)})
}
