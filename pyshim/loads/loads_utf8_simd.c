/* UTF-8 → UCS2/UCS4 with SSSE3, 16 input bytes per step (see
 * loads_utf8_simd.h for the contract). The technique is simdutf's
 * (Lemire & Keiser, "Transcoding billions of unicode characters per
 * second with SIMD instructions"): a mask of where characters end, looked
 * up in a table, gives one pshufb that moves each character's bytes into
 * its own 32-bit lane, where shifts and masks make the code point.
 *
 * Per step, with v = the 16 bytes at s[i] (the masks of bytes and character
 * ends are made once per 64-byte block, see UTF8_SIMD_LOOP):
 *  - at least 4 leading ASCII bytes: all 16 bytes are widened and stored
 *    (needs room for 16), and i/o advance by the ASCII run only; the rest is
 *    overwritten by the next steps. Whole ASCII runs go 16 at a time.
 *  - otherwise the end-of-character mask of bytes 0..11 (byte k ends a
 *    character when byte k+1 is not a continuation byte) picks a table entry:
 *    the first up-to-4 characters of 1 to 3 bytes that end within those 12
 *    bytes. Four such characters always fit in 12 bytes, so BMP text (CJK:
 *    12 bytes, Cyrillic: 8) decodes 4 characters a step, without a branch
 *    per character as in the portable loop. In UCS2 a 4-byte sequence ends
 *    the entry early: fewer characters this step; one at its start ends the
 *    kernel (not BMP: the count check raises). UCS4's table (entry4) has
 *    characters of 1 to 4 bytes: emoji three a step.
 * No UCS1 (Latin-1) version: there the portable loop's 8-byte ASCII copies
 * and 2-byte decode beat this kernel on all text measured (French, German:
 * 0.29 → 0.39 ns/byte of loads, dense accents 0.55 → 0.60), since a UCS1
 * str needs no widening and Latin-1 text is mostly ASCII runs.
 * The input was validated by the parser; on bytes that are not (a buggy
 * backend) the output is wrong but every read stays in s[0:n) (a step runs
 * only while i + 16 <= n) and every write in out[0:chars) (a step runs only
 * with room for all the lanes it stores), and the count checks of
 * loads_str.c raise. */
#include "loads_utf8_simd.h"
#if ISOJSON_UTF8_SIMD

#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

int loads_utf8_simd_on;

/* Table entry id: the character lengths (1..3) in base 4, first in the
 * lowest digit, so at most 3 * (1 + 4 + 16 + 64) = 255. entry_of_mask gives
 * id | bytes << 8 (bytes: what the entry's characters take, 0..12) in one
 * load, since the next step's position waits on it. */
static uint16_t entry_of_mask[4096];
static uint8_t entry_shuffle[256][16];
static uint8_t entry_chars[256];   /* 0..4 */

/* The UCS4 kernel's table, whose characters may be 4-byte sequences too
 * (emoji between words: three a step instead of one): id4 has each
 * character's length minus one in base 4, first in the lowest digit
 * (characters past the entry's count as 1-byte ones: their lanes are
 * written but not counted, and the next step overwrites them), and
 * entry4_of_mask gives id4 | bytes << 8 | chars << 12. */
static uint16_t entry4_of_mask[4096];
static uint8_t entry4_shuffle[256][16];

/* The length of the character at byte pos of ends mask mask (bit k: byte k
 * ends a character), or 0 when it does not end within the mask's 12 bytes:
 * both tables' entries are made of these. */
static unsigned char_len_at(unsigned mask, unsigned pos)
{
    for (unsigned end = pos; end < 12; end++)
        if (mask >> end & 1)
            return end - pos + 1;
    return 0;
}

/* Read-only after this runs (before any interpreter can call loads). */
__attribute__((constructor)) static void utf8_simd_init(void)
{
    for (unsigned mask = 0; mask < 4096; mask++) {
        unsigned pos = 0, id = 0, digit = 1, nc = 0;
        uint8_t shuf[16];
        memset(shuf, 0x80, sizeof shuf);   /* pshufb: high bit → zero byte */
        while (nc < 4) {
            unsigned len = char_len_at(mask, pos);
            if (len == 0 || len > 3)
                break;
            unsigned end = pos + len - 1;
            /* Lane bytes, low first: last byte, the one before, the lead of
             * a 3-byte sequence; so lane = b_last | b_mid << 8 | b_lead << 16. */
            for (unsigned k = 0; k < len; k++)
                shuf[4 * nc + k] = (uint8_t)(end - k);
            id += len * digit;
            digit *= 4;
            nc++;
            pos = end + 1;
        }
        entry_of_mask[mask] = (uint16_t)(id | pos << 8);
        memcpy(entry_shuffle[id], shuf, 16);
        entry_chars[id] = (uint8_t)nc;
    }
    for (unsigned id4 = 0; id4 < 256; id4++) {
        uint8_t shuf[16];
        memset(shuf, 0x80, sizeof shuf);
        for (unsigned c = 0, pos = 0; c < 4; c++) {
            unsigned len = (id4 >> (2 * c) & 3) + 1;
            for (unsigned k = 0; k < len; k++) /* lane = b_last | ... | b_lead << 8 * (len - 1) */
                shuf[4 * c + k] = (uint8_t)((pos + len - 1 - k) & 15);
            pos += len;
        }
        memcpy(entry4_shuffle[id4], shuf, 16);
    }
    for (unsigned mask = 0; mask < 4096; mask++) {
        unsigned pos = 0, id4 = 0, nc = 0;
        while (nc < 4) {
            unsigned len = char_len_at(mask, pos);
            if (len == 0 || len > 4)
                break;
            id4 |= (len - 1) << (2 * nc);
            nc++;
            pos += len;
        }
        entry4_of_mask[mask] = (uint16_t)(id4 | pos << 8 | nc << 12);
    }
    __builtin_cpu_init();
    const char *env = getenv("ISOJSON_UTF8_SIMD");
    loads_utf8_simd_on = __builtin_cpu_supports("ssse3") && !(env != NULL && strcmp(env, "0") == 0);
}

/* The code points of entry id's characters in v, one per 32-bit lane (lanes
 * past its characters are 0). With lane = b0 | b1 << 8 | b2 << 16 as the
 * shuffle placed them: b0 is ASCII or a continuation byte (& 0x7f keeps
 * either's payload), b1 a continuation byte or a 2-byte lead 110xxxxx (bit
 * 5 is 0 in both payloads under & 0x3f), b2 a 3-byte lead 1110xxxx. */
__attribute__((target("ssse3"))) static inline __m128i code_points(__m128i v, unsigned id)
{
    __m128i lanes = _mm_shuffle_epi8(v, _mm_loadu_si128((const __m128i *)entry_shuffle[id]));
    __m128i c0 = _mm_and_si128(lanes, _mm_set1_epi32(0x7f));
    __m128i c1 = _mm_srli_epi32(_mm_and_si128(lanes, _mm_set1_epi32(0x3f00)), 2);
    __m128i c2 = _mm_srli_epi32(_mm_and_si128(lanes, _mm_set1_epi32(0x0f0000)), 4);
    return _mm_or_si128(c0, _mm_or_si128(c1, c2));
}

/* The same for entry4_shuffle's lanes, whose characters may have 4 bytes:
 * lane = b0 | b1 << 8 | b2 << 16 | b3 << 24. b2 is a 3-byte lead (b3 0) or
 * a continuation byte (b3 a 4-byte lead 11110xxx): & 0x3f keeps either's
 * payload but for bit 5 of a 3-byte lead (1110xxxx & 0x3f = 10xxxx), taken
 * off where b3 is 0. */
__attribute__((target("ssse3"))) static inline __m128i code_points4(__m128i v, unsigned id4)
{
    __m128i lanes = _mm_shuffle_epi8(v, _mm_loadu_si128((const __m128i *)entry4_shuffle[id4]));
    __m128i c0 = _mm_and_si128(lanes, _mm_set1_epi32(0x7f));
    __m128i c1 = _mm_srli_epi32(_mm_and_si128(lanes, _mm_set1_epi32(0x3f00)), 2);
    __m128i c2 = _mm_srli_epi32(_mm_and_si128(lanes, _mm_set1_epi32(0x3f0000)), 4);
    __m128i c3 = _mm_srli_epi32(_mm_and_si128(lanes, _mm_set1_epi32(0x07000000)), 6);
    __m128i no_b3 = _mm_cmpeq_epi32(_mm_and_si128(lanes, _mm_set1_epi32((int)0xff000000u)), _mm_setzero_si128());
    c2 = _mm_andnot_si128(_mm_and_si128(no_b3, _mm_set1_epi32(0x20000)), c2);
    return _mm_or_si128(_mm_or_si128(c0, c1), _mm_or_si128(c2, c3));
}

/* The ends mask of four 3-byte characters, and their entry id (3 in each
 * base-4 digit). */
#define THREE_BYTE_X4 0x924u
#define THREE_BYTE_X4_ID 0xffu

/* The two decoders share the loop; STORE_ASCII widens and stores the 16
 * bytes v at out + o, STORE_CPS stores the 4 lanes of cps at out + o;
 * LOOKUP(em, id, bytes, nc) reads the table entry of ends mask em,
 * CODE_POINTS(v, id) makes its lanes, X4_ID is four 3-byte characters' id,
 * BAD(cps) stops the kernel before a step is stored (the portable loop
 * takes over, as it does where no entry fits).
 *
 * The masks are made once per block of up to 64 bytes (whole 16-byte loads
 * inside s[0:n) only), so that a step's position depends on the previous
 * one through a shift and one table load, not through a load of the input,
 * a compare and a movemask (an earlier version that made them per step was
 * slower than the portable loop: the chain cost ~20 cycles a step). Bit k of
 * high: byte k is not ASCII; of ends: byte k ends a character (byte k + 1
 * is no continuation byte). A step needs the 16 bits from its position
 * (bytes and ends mask bits beyond the block are unknown), so it runs while
 * pos + 16 <= valid; the block's last bytes go to the next block. */
#define UTF8_SIMD_LOOP(STORE_ASCII, STORE_CPS, LOOKUP, CODE_POINTS, X4_ID, BAD)                         \
    size_t i = *ip, o = *op;                                                                   \
    while (i + 16 <= n) {                                                                      \
        size_t blocks = (n - i) / 16;                                                          \
        if (blocks > 4)                                                                        \
            blocks = 4;                                                                        \
        uint64_t high = 0, cont = 0;                                                           \
        for (size_t b = 0; b < blocks; b++) {                                                  \
            __m128i x = _mm_loadu_si128((const __m128i *)(s + i + 16 * b));                   \
            high |= (uint64_t)(uint32_t)_mm_movemask_epi8(x) << (16 * b);                      \
            /* Continuation bytes 0x80..0xBF are, as signed bytes, < -64. */                  \
            cont |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(-64), x)) \
                    << (16 * b);                                                               \
        }                                                                                      \
        uint64_t ends = ~cont >> 1;                                                            \
        unsigned valid = (unsigned)(16 * blocks), pos = 0;                                     \
        while (pos + 16 <= valid) {                                                            \
            __m128i v = _mm_loadu_si128((const __m128i *)(s + i + pos));                       \
            uint64_t asc = high >> pos;                                                        \
            if ((asc & 0xf) == 0 && o + 16 <= chars) {                                         \
                /* At least 4 ASCII bytes: widen all 16, keep the run. */                      \
                unsigned run = (asc & 0xffff) ? (unsigned)__builtin_ctzll(asc) : 16;           \
                STORE_ASCII;                                                                   \
                pos += run;                                                                    \
                o += run;                                                                      \
                continue;                                                                      \
            }                                                                                  \
            unsigned em = (unsigned)(ends >> pos) & 0xfff;                                     \
            if (em == THREE_BYTE_X4 && o + 4 <= chars) {                                       \
                /* Four 3-byte characters (CJK runs): the next position is a    \
                 * constant, which the CPU runs ahead with, instead of waiting  \
                 * on the table load. */                                                       \
                __m128i cps = CODE_POINTS(v, X4_ID);                                           \
                STORE_CPS;                                                                     \
                pos += 12;                                                                     \
                o += 4;                                                                        \
                continue;                                                                      \
            }                                                                                  \
            unsigned id, bytes, nc;                                                            \
            LOOKUP(em, id, bytes, nc);                                                         \
            __m128i cps = CODE_POINTS(v, id);                                                  \
            if (o + 4 > chars || nc == 0 || BAD(cps)) {                                        \
                /* No room for 4 lanes, or (UCS2) a 4-byte sequence, or no UTF-8. */           \
                *ip = i + pos;                                                                 \
                *op = o;                                                                       \
                return;                                                                        \
            }                                                                                  \
            STORE_CPS;                                                                         \
            pos += bytes;                                                                      \
            o += nc;                                                                           \
        }                                                                                      \
        i += pos;                                                                              \
    }                                                                                          \
    *ip = i;                                                                                   \
    *op = o;

/* The entry of ends mask em: characters of 1 to 3 bytes (LOOKUP3), or 1 to
 * 4 (LOOKUP4, UCS4's). */
#define LOOKUP3(em, id, bytes, nc)                                                                     \
    do {                                                                                               \
        unsigned e_ = entry_of_mask[em];                                                               \
        id = e_ & 0xff;                                                                                \
        bytes = e_ >> 8;                                                                               \
        nc = entry_chars[id];                                                                          \
    } while (0)
#define LOOKUP4(em, id, bytes, nc)                                                                     \
    do {                                                                                               \
        unsigned e_ = entry4_of_mask[em];                                                              \
        id = e_ & 0xff;                                                                                \
        bytes = e_ >> 8 & 15;                                                                          \
        nc = e_ >> 12;                                                                                 \
    } while (0)
/* Whether a lane of cps is above U+10FFFF (only from input that is not
 * UTF-8): lanes past the entry's characters hold at most 0x7f. */
#define NEVER_BAD(cps) 0
#define ABOVE_UNICODE(cps) (_mm_movemask_epi8(_mm_cmpgt_epi32((cps), _mm_set1_epi32(0x10ffff))) != 0)
/* Four 3-byte characters in entry4's terms: length 3 (digit 2) four times. */
#define THREE_BYTE_X4_ID4 0xaau

__attribute__((target("ssse3"))) void loads_utf8_simd_ucs2(const uint8_t *s, size_t n, uint16_t *out, size_t chars,
                                                              size_t *ip, size_t *op)
{
    /* Lane k's low 16 bits → 16-bit element k. */
    const __m128i low_halves = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    UTF8_SIMD_LOOP(
        {
            _mm_storeu_si128((__m128i *)(out + o), _mm_unpacklo_epi8(v, _mm_setzero_si128()));
            _mm_storeu_si128((__m128i *)(out + o + 8), _mm_unpackhi_epi8(v, _mm_setzero_si128()));
        },
        _mm_storel_epi64((__m128i *)(out + o), _mm_shuffle_epi8(cps, low_halves)), LOOKUP3, code_points,
        THREE_BYTE_X4_ID, NEVER_BAD)
}

/* UCS4 strings hold at least one 4-byte sequence (emoji and the like): up
 * to 4 characters of 1 to 4 bytes ending in the step's first 12 bytes go at
 * once (entry4), ASCII 16 bytes a step. A lane above U+10FFFF (lead bytes
 * F5..F7: not UTF-8, from a buggy backend) ends the kernel before it is
 * stored. */
__attribute__((target("ssse3"))) void loads_utf8_simd_ucs4(const uint8_t *s, size_t n, uint32_t *out, size_t chars,
                                                              size_t *ip, size_t *op)
{
    UTF8_SIMD_LOOP(
        {
            __m128i lo = _mm_unpacklo_epi8(v, _mm_setzero_si128());
            __m128i hi = _mm_unpackhi_epi8(v, _mm_setzero_si128());
            _mm_storeu_si128((__m128i *)(out + o), _mm_unpacklo_epi16(lo, _mm_setzero_si128()));
            _mm_storeu_si128((__m128i *)(out + o + 4), _mm_unpackhi_epi16(lo, _mm_setzero_si128()));
            _mm_storeu_si128((__m128i *)(out + o + 8), _mm_unpacklo_epi16(hi, _mm_setzero_si128()));
            _mm_storeu_si128((__m128i *)(out + o + 12), _mm_unpackhi_epi16(hi, _mm_setzero_si128()));
        },
        _mm_storeu_si128((__m128i *)(out + o), cps), LOOKUP4, code_points4, THREE_BYTE_X4_ID4,
        ABOVE_UNICODE)
}

#endif
