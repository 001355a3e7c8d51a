/* float32/float16 text for numpy values (dumps_float32.c). */
#ifndef ISOJSON_DUMPS_FLOAT32_H
#define ISOJSON_DUMPS_FLOAT32_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Writes orjson's text for f (at most 17 bytes: "-0.00000117549435")
 * and returns its length. */
size_t dumps_format_f32(float f, char *out);
/* Ryu: f (finite, > 0) = digits * 10^exponent with the fewest digits that
 * read back as f, nearest to f among those (dumps_ryu32.c). */
int dumps_ryu32(float f, uint32_t *digits, int32_t *exponent);
/* The float32 value of an IEEE half-precision bit pattern (exact). */
float dumps_f16_to_f32(uint16_t h);

#pragma GCC visibility pop

#endif
