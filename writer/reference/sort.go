package reference

import (
	"bytes"
	"sort"
)

// sortKeys orders the key indexes of one object as OPT_SORT_KEYS does:
// Python's str order, which is code point order and so the order of the keys'
// UTF-8 bytes. The sort is stable: members with equal keys (possible in a
// tape, not in a dict) keep their tape order.
func (w *walk) sortKeys(keys []int) {
	texts := make(map[int][]byte, len(keys))
	for _, k := range keys {
		texts[k] = w.utf8(k)
	}
	sort.SliceStable(keys, func(a, b int) bool { return bytes.Compare(texts[keys[a]], texts[keys[b]]) < 0 })
}
