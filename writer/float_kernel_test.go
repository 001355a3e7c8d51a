package writer

import (
	"strconv"
	"testing"
)

// eachFloatPath runs fn with the float kernel on (where there is one) and
// off, so that the tests of appendFloat cover both the kernel and the
// portable appendFloatGo on amd64.
func eachFloatPath(t *testing.T, fn func(t *testing.T)) {
	saved := useFloatSSE2
	defer func() { useFloatSSE2 = saved }()
	for _, on := range []bool{true, false} {
		useFloatSSE2 = on && saved
		t.Run("kernel="+strconv.FormatBool(useFloatSSE2), fn)
	}
}
