package writer

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/backend/scalar"
)

// TestLeafRun writes arrays of leaves (literals, ints of every length and
// sign around leafRun's table (below 100) and its 10^8 switch, Uints,
// empty arrays and objects) mixed with other values, from output buffers
// of every capacity around the run's room checks, into guarded memory, and
// compares with the input (the compact form) and with the general walk.
func TestLeafRun(t *testing.T) {
	leaves := []string{"null", "true", "false", "[]", "{}", "0", "7", "9", "10", "42", "99", "100", "12345678",
		"99999999", "100000000", "-1", "-99999999", strconv.FormatInt(math.MinInt64, 10),
		strconv.FormatInt(math.MaxInt64, 10), strconv.FormatUint(math.MaxUint64, 10)}
	others := []string{"1.5", `"s"`, "[1]", `{"a":1}`, "[[]]", `{"k":[]}`, `[null,{}]`}
	r := rand.New(rand.NewPCG(3, 4))
	for iter := range 3000 {
		n := r.IntN(60)
		if iter%100 == 0 {
			n = 2000 // longer than one leafRunRoom
		}
		parts := make([]string, n)
		for i := range parts {
			if r.IntN(8) == 0 {
				parts[i] = others[r.IntN(len(others))]
			} else {
				parts[i] = leaves[r.IntN(len(leaves))]
			}
		}
		src := []byte("[" + strings.Join(parts, ",") + "]")
		if r.IntN(4) == 0 {
			src = []byte(`{"a":` + string(src) + `,"b":[` + strings.Join(parts, ",") + `]}`)
		}
		tp := &backend.Tape{}
		if err := (scalar.Parser{}).Parse(src, tp); err != nil {
			t.Fatal(err)
		}
		if got := Append(nil, tp, src, 0); !bytes.Equal(got, src) {
			t.Fatalf("Append(%s)\n got %s", src, got)
		}
		if got, want := Append(nil, tp, src, 0), Append(nil, tp, src, SortKeys); !bytes.Equal(got, want) && !bytes.HasPrefix(src, []byte("{")) {
			t.Fatalf("compact and general walks differ on %s:\n%s\n%s", src, got, want)
		}
		for _, c := range []int{0, 1, leafRoom - 1, leafRoom, leafRoom + 1, len(src) - 1, len(src), r.IntN(len(src) + 1)} {
			g := &guardAlloc{}
			o := Output{Buf: g.buffer(max(c, 0)), Alloc: g}
			o.Write(tp, src, 0)
			g.guardsIntact(t, "leafRun")
			if !bytes.Equal(o.Buf, src) {
				t.Fatalf("Write(%s) from capacity %d\n got %s", src, c, o.Buf)
			}
		}
	}
}
