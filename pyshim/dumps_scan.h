/* Scans of str data while dumps builds the tape: whether a string needs
 * JSON escaping (a control character, '"' or '\\'; when it does not, the tape
 * entry is marked Clean and the writer copies it without looking), and, for
 * 2- and 4-byte data, whether it holds a lone surrogate (which orjson
 * refuses). One pass does both. dumps_scan_sse2.c is the x86-64 version,
 * dumps_scan_other.c the portable one. */
#ifndef ISOJSON_DUMPS_SCAN_H
#define ISOJSON_DUMPS_SCAN_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

#define DUMPS_SCAN_ESCAPE 1     /* needs escaping */
#define DUMPS_SCAN_SURROGATE 2  /* holds a surrogate code point */

/* Bytes: ASCII, Latin-1 or UTF-8 (only bytes < 0x20, '"' and '\\' matter). */
int dumps_scan_bytes(const uint8_t *s, size_t n);
int dumps_scan_ucs2(const uint16_t *s, size_t n);
int dumps_scan_ucs4(const uint32_t *s, size_t n);

#pragma GCC visibility pop

#endif
