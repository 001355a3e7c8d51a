/* SIMD front loops of loads' UTF-8 → UCS2/UCS4 decoders (loads_str.c): on x86 CPUs with
 * SSSE3 (checked once when the extension loads), 16 input bytes at a time,
 * until fewer than 16 bytes or too little output room remain; the portable
 * loops of loads_str.c then finish the string from where these stopped (and
 * are the whole decoder elsewhere, or with ISOJSON_UTF8_SIMD=0 in the
 * environment, which the tests use to compare both).
 *
 * Each function decodes s[*i:n) into out[*o:chars), advancing *i and *o to
 * the first byte / code point it did not decode, always at a character
 * boundary. It reads only s[0:n) and writes only out[0:chars). */
#ifndef ISOJSON_LOADS_UTF8_SIMD_H
#define ISOJSON_LOADS_UTF8_SIMD_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* -DISOJSON_NO_UTF8_SIMD builds the portable-only decoders on x86 too, as
 * other architectures get them (a check that they still compile and pass). */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(ISOJSON_NO_UTF8_SIMD)
#define ISOJSON_UTF8_SIMD 1
/* Whether the kernel runs: the CPU has SSSE3 and ISOJSON_UTF8_SIMD is not "0". */
extern int loads_utf8_simd_on;
void loads_utf8_simd_ucs2(const uint8_t *s, size_t n, uint16_t *out, size_t chars, size_t *i, size_t *o);
void loads_utf8_simd_ucs4(const uint8_t *s, size_t n, uint32_t *out, size_t chars, size_t *i, size_t *o);
#else
#define ISOJSON_UTF8_SIMD 0
#endif

#pragma GCC visibility pop

#endif
