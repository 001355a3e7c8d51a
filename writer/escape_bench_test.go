package writer

import (
	"strings"
	"testing"
)

// ucs2Texts are UCS2 strings of the kinds tweets hold: CJK mixed with
// ASCII, CJK only, and ASCII with a few non-ASCII characters.
var ucs2Texts = []struct{ name, text string }{
	{"mixed", "元野球部マネージャー❤︎…最高の夏をありがとう…RT @KATANA77: えっそれは・・・（一同） http://t.co/PkCJAcSuYK"},
	{"cjk", "前田あゆみ元野球部マネージャー最高の夏をありがとうえっそれは一同関西詳しいプロ"},
	{"ascii", "Hello, 世界! A tweet with some ASCII text and a – dash, then more ASCII."},
	// Two-byte scripts, with spaces and punctuation (ASCII) between words.
	{"cyrillic", "Съешь же ещё этих мягких французских булок, да выпей чаю. "},
	{"greek", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. "},
	{"cyrillic-words", "Съешь_же_ещё_этих_мягких_французских_булок"},
}

func BenchmarkEscapeUCS2(b *testing.B) {
	for _, tc := range ucs2Texts {
		var s []uint16
		for _, r := range strings.Repeat(tc.text, 8) {
			s = append(s, uint16(r))
		}
		size := int64(len(ucs2Reference(nil, s, false)))
		dst := make([]byte, 0, maxEscapeLen*len(s))
		b.Run(tc.name, func(b *testing.B) {
			loopCPU(b, size, func() { dst = escapeUCS2(dst[:0], s, false) })
		})
		// The reference (unicode/utf16 + utf8) as a baseline for the hand-written transcoder.
		b.Run(tc.name+"/reference", func(b *testing.B) {
			loopCPU(b, size, func() { dst = ucs2Reference(dst[:0], s, false) })
		})
	}
}

// BenchmarkTranscodeLatin1 and BenchmarkEscapeUCS4 time the other
// layouts of a Python str: Latin-1 text with accents (UCS1), and text with
// an emoji (UCS4, mostly ASCII and BMP characters all the same).
func BenchmarkTranscodeLatin1(b *testing.B) {
	var s []byte
	for _, r := range strings.Repeat("Le café crème brûlé à la française, déjà vu. ", 8) {
		s = append(s, byte(r))
	}
	dst := make([]byte, 0, maxEscapeLen*len(s))
	size := int64(len(transcodeLatin1(dst, s)))
	b.Run("clean", func(b *testing.B) { loopCPU(b, size, func() { dst = transcodeLatin1(dst[:0], s) }) })
	b.Run("escape", func(b *testing.B) { loopCPU(b, size, func() { dst = escapeLatin1(dst[:0], s) }) })
}

func BenchmarkEscapeUCS4(b *testing.B) {
	var s []uint32
	for _, r := range strings.Repeat("Good morning ☀️ — let's go 🚀🚀 über café! ", 8) {
		s = append(s, uint32(r))
	}
	dst := make([]byte, 0, maxEscapeLen*len(s))
	size := int64(len(escapeUCS4(dst, s, false)))
	b.Run("clean", func(b *testing.B) { loopCPU(b, size, func() { dst = escapeUCS4(dst[:0], s, false) }) })
}
