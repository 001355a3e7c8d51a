package scalar

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/isojson/isojson/backend"
)

// The tests here hold scanNumber (word-at-a-time fast paths for the common
// shapes) to two references over many inputs:
//   - scanNumberGeneral, the bytewise scanner it falls back to (and which was
//     scanNumber before the fast paths): the same index, tape words and error
//     for every input, so that nothing observable changed;
//   - strconv, through referenceNumber: the same grammar, kind and value.
// The fast paths depend on the digit counts, on what follows the digits and
// on how many bytes the input has after them (16 for each word pair), so the
// inputs cover every count of digits 0..20 before and after the '.', every
// following byte class and every distance to the end of the input.

// scanResult is what one scan leaves: the index past the number, the entry
// appended (in a tape reused from scan to scan) and the error.
type scanResult struct {
	end   int
	words []uint64
	err   error
}

func runScan(scan func([]byte, int, *backend.Tape) (int, error), src []byte, start int, t *backend.Tape) scanResult {
	t.Reset()
	t.ReserveWords(8)
	end, err := scan(src, start, t)
	return scanResult{end: end, words: t.Words, err: err}
}

// referenceNumber scans the number at src[start] with a grammar written
// from RFC 8259 and values from strconv and math/big: the result scanNumber
// must give for valid numbers (ok false: the number is invalid, whose error
// is checked against scanNumberGeneral).
func referenceNumber(src []byte, start int) (end int, kind backend.Kind, bits uint64, ok bool) {
	i := start
	digits := func() int {
		j := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(src) && src[i] == '-' {
		i++
	}
	intStart := i
	if n := digits(); n == 0 || n > 1 && src[intStart] == '0' {
		return 0, 0, 0, false
	}
	integer := true
	if i < len(src) && src[i] == '.' {
		i++
		if digits() == 0 {
			return 0, 0, 0, false
		}
		integer = false
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, 0, 0, false
		}
		integer = false
	}
	text := string(src[start:i])
	f, _ := strconv.ParseFloat(text, 64)
	if math.IsInf(f, 0) { // orjson rejects these, integers included
		return 0, 0, 0, false
	}
	if !integer {
		return i, backend.KindFloat, math.Float64bits(f), true
	}
	if v, err := strconv.ParseInt(text, 10, 64); err == nil {
		return i, backend.KindInt, uint64(v), true
	}
	if u, err := strconv.ParseUint(text, 10, 64); err == nil {
		return i, backend.KindUint, u, true
	}
	if _, good := new(big.Int).SetString(text, 10); !good {
		panic("reference: " + text)
	}
	return i, backend.KindBigInt, uint64(start), true // words[2] is where the digits are
}

var gotTape, wantTape backend.Tape // checkNumber's, reused: the tests are not parallel

// checkNumber compares scanNumber at src[start] with both references.
func checkNumber(t *testing.T, src []byte, start int) {
	t.Helper()
	got := runScan(scanNumber, src, start, &gotTape)
	want := runScan(scanNumberGeneral, src, start, &wantTape)
	if got.end != want.end || !sameError(got.err, want.err) || !slices.Equal(got.words, want.words) {
		t.Fatalf("%q at %d: scanNumber (%d, %x, %v), scanNumberGeneral (%d, %x, %v)",
			src, start, got.end, got.words, got.err, want.end, want.words, want.err)
	}
	end, kind, bits, ok := referenceNumber(src, start)
	if ok != (got.err == nil) {
		t.Fatalf("%q at %d: error %v, reference valid %v", src, start, got.err, ok)
	}
	if !ok {
		return
	}
	switch {
	case got.end != end:
		t.Fatalf("%q at %d: end %d, reference %d", src, start, got.end, end)
	case backend.Kind(got.words[0]>>backend.KindShift) != kind:
		t.Fatalf("%q at %d: kind %v, reference %v", src, start, backend.Kind(got.words[0]>>backend.KindShift), kind)
	case got.words[1] != bits:
		t.Fatalf("%q at %d: value %#x, reference %#x", src, start, got.words[1], bits)
	}
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// checkEverywhere checks text as a number at the start of the input and
// after a prefix, followed by tail and then by 0..24 spaces: every distance
// from the number to the end of the input around the fast paths' 16 bytes.
func checkEverywhere(t *testing.T, text, tail string) {
	t.Helper()
	for _, prefix := range []string{"", `{"k":`} {
		for pad := 0; pad <= 24; pad++ {
			src := []byte(prefix + text + tail + strings.Repeat(" ", pad))
			checkNumber(t, src, len(prefix))
		}
	}
}

// tails are what may follow a number's digits: delimiters, fractions and
// exponents (valid or not), and bytes no number continues with.
var tails = []string{"", ",", "]", "}", " ", "\n", ",\n        ", ".", ".5", ".05", ".0", ".25e3", "e", "e5",
	"E+5", "e-5", "E", "x", "-", "+", ".e1", "..", ".5.", "0", "\x00", "\xff", "/", ":"}

// TestScanNumberExhaustive covers every digit string of 1..4 digits, signed
// or not, followed by every tail, at the input's end, a few bytes before it
// and far from it (checkEverywhere sweeps every distance for fewer numbers).
// With -test.short (scripts/cross-test under qemu: 85 s there in full) 1..3
// digits, a tenth of the cases.
func TestScanNumberExhaustive(t *testing.T) {
	most := 4
	if testing.Short() {
		most = 3
	}
	for n := 1; n <= most; n++ {
		limit := int(math.Pow10(n))
		for v := 0; v < limit; v++ {
			digits := fmt.Sprintf("%0*d", n, v)
			for _, sign := range []string{"", "-"} {
				for _, tail := range tails {
					for _, pad := range []int{0, 9, 20} {
						src := []byte("[" + sign + digits + tail + strings.Repeat(" ", pad))
						checkNumber(t, src, 1)
					}
				}
			}
		}
	}
}

// edgeIntegers are the integers where the kinds and the word boundaries
// change: the 64-bit limits, 10^15..10^20 around them, 2^53, and digit
// counts at 7/8/9, 15/16/17 and 19/20.
var edgeIntegers = []string{
	"0", "1", "9", "10", "99", "1234567", "12345678", "123456789", "99999999", "100000000",
	"999999999999999", "1000000000000000", "9999999999999999", "10000000000000000", "99999999999999999",
	"999999999999999999", "1000000000000000000", "9007199254740992", "9007199254740993",
	"9223372036854775807", "9223372036854775808", "9223372036854775809", "9999999999999999999",
	"10000000000000000000", "18446744073709551615", "18446744073709551616", "99999999999999999999",
	"100000000000000000000", "205706007", "505506000000000000",
}

// TestScanNumberEdges covers the edge integers signed or not, with leading
// zeros, as integer parts of floats, with every tail.
func TestScanNumberEdges(t *testing.T) {
	for _, v := range edgeIntegers {
		for _, text := range []string{v, "-" + v, "0" + v, "-0" + v, v + ".5", v + ".000000000000001", "-" + v + ".9e-3"} {
			for _, tail := range tails {
				checkEverywhere(t, text, tail)
			}
		}
	}
	for _, text := range []string{"-", "+", ".", "-.", "+1", ".5", "-.5", "-+1", "--1", "-a", "1.", "1e", "1e+",
		"1E-", "1.e5", "01.5", "0.", "-0", "-0.0", "0.000", "0e0", "0E-0", "1e309", "-1e309", "1e-400", "1" + strings.Repeat("0", 308),
		"1" + strings.Repeat("0", 309), "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "1.7976931348623159e308"} {
		for _, tail := range tails {
			checkEverywhere(t, text, tail)
		}
	}
}

// TestScanNumberLengths covers every integer part of 1..20 digits with
// every fraction of 0..20 digits, leading zeros or not.
func TestScanNumberLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	randomDigits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		return string(b)
	}
	for intLen := 1; intLen <= 20; intLen++ {
		for fracLen := 0; fracLen <= 20; fracLen++ {
			for rep := 0; rep < 6; rep++ {
				ip := randomDigits(intLen)
				switch rep {
				case 0:
					ip = strings.Repeat("9", intLen)
				case 1:
					ip = "1" + strings.Repeat("0", intLen-1)
				default:
					if ip[0] == '0' && intLen > 1 && rep != 5 { // rep 5 keeps its leading zeros
						ip = "1" + ip[1:]
					}
				}
				text := ip
				if fracLen > 0 {
					text += "." + randomDigits(fracLen)
				}
				for _, sign := range []string{"", "-"} {
					for _, tail := range []string{"", ",", "]", "e2", "E-17", "x", "."} {
						checkEverywhere(t, sign+text, tail)
					}
				}
			}
		}
	}
}

// TestScanNumberRandom checks random strings of number bytes (mostly
// digits) and random floats in shortest and long forms.
func TestScanNumberRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := "0123456789012345678901234567890123456789-+.eE ,]x"
	for k := 0; k < 300000; k++ {
		b := make([]byte, 1+r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		b[0] = "-0123456789+."[r.IntN(13)] // what parse routes to scanNumber
		checkNumber(t, b, 0)
	}
	for k := 0; k < 200000; k++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		if k%2 == 0 { // the magnitudes of coordinates and prices
			f = (r.Float64() - 0.5) * math.Pow10(r.IntN(8))
		}
		for _, text := range []string{strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'f', -1, 64),
			strconv.FormatFloat(f, 'f', 15, 64), strconv.FormatFloat(f, 'e', 16, 64)} {
			src := []byte(text + ",\n" + strings.Repeat(" ", r.IntN(20)))
			checkNumber(t, src, 0)
		}
	}
}

// TestScanNumberCorpus checks every number of the corpus documents in place.
func TestScanNumberCorpus(t *testing.T) {
	for _, name := range []string{"citm_catalog", "canada", "twitter", "github"} {
		src := readCorpusFile(t, name)
		for _, start := range numberOffsets(t, src) {
			checkNumber(t, src, start)
		}
	}
}

// FuzzScanNumber checks scanNumber against both references on any input
// whose first byte parse would route to it.
func FuzzScanNumber(f *testing.F) {
	for _, s := range []string{"205706007,\n", "-65.613616999999977,", "505506000000000000]", "0.5e-3 ",
		"9223372036854775808", "-1.7976931348623159e308", "1" + strings.Repeat("9", 30) + ".5", "-0", "+1", ".5"} {
		f.Add([]byte(s + "                "))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) == 0 || !strings.ContainsRune("-0123456789+.", rune(src[0])) {
			return
		}
		checkNumber(t, src, 0)
	})
}

// TestScanNumberExactFractions holds the numbers exactFraction converts,
// which Eisel–Lemire leaves open, to strconv: floats of 53 bits or fewer
// written with more digits than a float64 holds exactly (integral values
// and halves, quarters... beyond 2^52, with and without trailing zeros, in
// fixed and exponent form, signed), and random mantissas and exponents
// around them, for which exactFraction must be right whenever it answers.
func TestScanNumberExactFractions(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 0; n < 100000; n++ {
		q := uint64(1)<<52 + r.Uint64N(1<<53-1<<52) // 53 significant bits
		if n%4 == 0 {
			q = r.Uint64N(1 << 53)
		}
		k := r.IntN(12)
		man := new(big.Int).Mul(new(big.Int).SetUint64(q), new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k)), nil))
		digits := man.String() // q / 2^k = man / 10^k
		for len(digits) <= k {
			digits = "0" + digits
		}
		fixed := digits[:len(digits)-k] + "." + digits[len(digits)-k:]
		if k == 0 {
			fixed += "0"
		}
		sign := []string{"", "-"}[n%2]
		for _, text := range []string{fixed, fixed + "0", fixed + "00", digits + "e-" + strconv.Itoa(k),
			digits + "0E-" + strconv.Itoa(k+1)} {
			checkNumber(t, []byte(sign+text+",\n"+strings.Repeat(" ", 24)), 0)
			checkNumber(t, []byte(sign+text), 0) // at the input's end: the general path
		}
	}
	for n := 0; n < 300000; n++ {
		man := r.Uint64() >> r.IntN(12)
		exp10 := -r.IntN(30)
		f, ok := exactFraction(man, exp10)
		if !ok {
			continue
		}
		text := strconv.FormatUint(man, 10) + "e" + strconv.Itoa(exp10)
		if want, _ := strconv.ParseFloat(text, 64); f != want {
			t.Fatalf("exactFraction(%d, %d) = %v, strconv %v", man, exp10, f, want)
		}
	}
}
