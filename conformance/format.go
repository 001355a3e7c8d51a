package conformance

import (
	"strconv"
	"strings"

	"github.com/isojson/isojson/backend"
)

// Format renders a tape as compact text that shows every kind: null, true,
// false, int:N, uint:N, float:G (shortest round-trip form, -0 kept),
// bigint:DIGITS, "string" (Go-quoted), [a,b] and {"k":v}. Tests and error
// messages compare tapes with it.
func Format(t *backend.Tape, input []byte) string {
	if len(t.Words) == 0 {
		return "<empty>"
	}
	var b strings.Builder
	formatAt(&b, t, input, 0)
	return b.String()
}

func formatAt(b *strings.Builder, t *backend.Tape, input []byte, i int) int {
	switch k := t.Kind(i); k {
	case backend.KindArray, backend.KindObject:
		open, close := "[", "]"
		if k == backend.KindObject {
			open, close = "{", "}"
		}
		b.WriteString(open)
		j := i + 2
		for m := 0; m < t.Count(i); m++ {
			if m > 0 {
				b.WriteByte(',')
			}
			if k == backend.KindObject {
				j = formatAt(b, t, input, j)
				b.WriteByte(':')
			}
			j = formatAt(b, t, input, j)
		}
		b.WriteString(close)
		return t.End(i)
	default:
		b.WriteString(formatScalar(t, input, i))
		return t.Next(i)
	}
}

func formatScalar(t *backend.Tape, input []byte, i int) string {
	switch k := t.Kind(i); k {
	case backend.KindNull, backend.KindTrue, backend.KindFalse:
		return k.String()
	case backend.KindInt:
		return "int:" + strconv.FormatInt(t.Int(i), 10)
	case backend.KindUint:
		return "uint:" + strconv.FormatUint(t.Uint(i), 10)
	case backend.KindFloat:
		return "float:" + strconv.FormatFloat(t.Float(i), 'g', -1, 64)
	case backend.KindBigInt:
		return "bigint:" + string(t.Bytes(i, input))
	case backend.KindString:
		return strconv.Quote(string(t.Bytes(i, input)))
	default:
		return k.String()
	}
}
