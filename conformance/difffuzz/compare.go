package difffuzz

import (
	"bytes"
	"errors"
	"fmt"

	_ "github.com/isojson/isojson/allbackends" // every parser and writer, where it builds
	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/conformance"
)

// Reference is the backend every other is compared with.
const Reference = "scalar"

// Compare parses src with the reference and with every other supported
// backend and returns an error describing the first disagreement.
func Compare(src []byte) error {
	ref, err := backend.Lookup(Reference)
	if err != nil {
		return err
	}
	var want backend.Tape
	wantErr := ref.Parser.Parse(src, &want)
	for _, name := range backend.Supported() {
		if name == Reference {
			continue
		}
		b, _ := backend.Lookup(name)
		var got backend.Tape
		gotErr := b.Parser.Parse(src, &got)
		if err := sameResult(&want, wantErr, &got, gotErr, src); err != nil {
			return fmt.Errorf("%s disagrees with %s on %q: %w", name, Reference, clip(src), err)
		}
	}
	return nil
}

// sameResult compares two parse results: errors by message and offset;
// tapes by conformance.Check and conformance.Equal, and then word for word
// and arena byte for byte (the backends promise the scalar parser's exact
// tape, which is stricter than semantic equality).
func sameResult(want *backend.Tape, wantErr error, got *backend.Tape, gotErr error, src []byte) error {
	if (wantErr == nil) != (gotErr == nil) {
		return fmt.Errorf("error %v, want %v", gotErr, wantErr)
	}
	if wantErr != nil {
		var w, g *backend.SyntaxError
		if !errors.As(wantErr, &w) || !errors.As(gotErr, &g) {
			return fmt.Errorf("error %T %v, want %T %v", gotErr, gotErr, wantErr, wantErr)
		}
		if *w != *g {
			return fmt.Errorf("error %q, want %q", g.Error(), w.Error())
		}
		return nil
	}
	if err := conformance.Check(got, src); err != nil {
		return fmt.Errorf("malformed tape: %w", err)
	}
	if err := conformance.Equal(want, src, got, src); err != nil {
		return fmt.Errorf("different document: %w", err)
	}
	if len(want.Words) != len(got.Words) {
		return fmt.Errorf("tape of %d words, want %d", len(got.Words), len(want.Words))
	}
	for i := range want.Words {
		if want.Words[i] != got.Words[i] {
			return fmt.Errorf("tape word %d is %#x, want %#x", i, got.Words[i], want.Words[i])
		}
	}
	if !bytes.Equal(want.Arena, got.Arena) {
		return fmt.Errorf("arena %q, want %q", got.Arena, want.Arena)
	}
	return nil
}

func clip(src []byte) []byte {
	if len(src) > 200 {
		return src[:200]
	}
	return src
}
