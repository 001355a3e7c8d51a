/* A small tape written as JSON in C, with no call into the engine
 * (dumps_small.c). */
#ifndef ISOJSON_DUMPS_SMALL_H
#define ISOJSON_DUMPS_SMALL_H

#include "dumps.h"

#pragma GCC visibility push(hidden)

/* Tapes of up to this many words are tried in C (measured: see
 * docs/performance.md, "The small-tape path"). */
#ifndef DUMPS_SMALL_MAX_WORDS
#define DUMPS_SMALL_MAX_WORDS 32
#endif

/* ... and whose text (bounded as it is written: 6 bytes per byte to escape,
 * room for what may follow each value) stays within this many bytes: longer text is copied
 * faster by the engine's path (measured: big/str-1MiB's small instance, one
 * 64 KiB str, cost 160,914 instructions here against 102,867). */
#define DUMPS_SMALL_MAX_BYTES 4096

/* Writes the tape of c as JSON into out (from its start, grown with realloc
 * when short) with opts' OPT_INDENT_2 and OPT_APPEND_NEWLINE, byte for byte
 * as the engine's fast writer would. Returns the length written; 0 when the
 * tape holds what only the engine writes (a float, a big int, a Fragment,
 * text not in UTF-8), is longer than DUMPS_SMALL_MAX_WORDS or may write
 * more than DUMPS_SMALL_MAX_BYTES: then the
 * caller asks the engine (out may have grown, and holds nothing); (size_t)-1
 * when out cannot be grown. */
size_t dumps_write_small(const isojson_tape *t, uint32_t opts, isojson_buf *out);

#pragma GCC visibility pop

#endif
