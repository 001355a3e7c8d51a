/* loads: the dict tables filled directly (loads_dict.h). Their one-time
 * check against CPython's own dicts is in loads_dict_check.c. */
#include "loads_dict.h"

#if LOADS_DICT_DIRECT

/* estimate_log2_keysize of dictobject.c: the table dict_new_presized makes
 * for n members (at least 2^3 slots). */
static uint8_t log2_size_for(Py_ssize_t n)
{
    size_t min = (size_t)(n * 3 + 1) / 2;
    if (min < ((size_t)1 << LOADS_DICT_LOG2_MINSIZE))
        min = (size_t)1 << LOADS_DICT_LOG2_MINSIZE;
    return (uint8_t)(64 - __builtin_clzll((unsigned long long)(min - 1)));
}

/* The allocation size of new_keys_object for a UNICODE table: CPython frees
 * it with PyMem_Free, or keeps the smallest ones in its free list of keys
 * objects for reuse at this exact size. */
static size_t keys_bytes(uint8_t log2_size, uint8_t log2_index_bytes)
{
    return sizeof(isojson_dict_keys) + ((size_t)1 << log2_index_bytes) +
           sizeof(isojson_dict_entry) * (size_t)loads_dict_usable((size_t)1 << log2_size);
}

/* A table of 2^log2_size slots with 2^log2_index_bytes bytes of indexes;
 * inline in its two uses, so that the smallest table's sizes are
 * constants. */
static inline isojson_dict_keys *keys_alloc(uint8_t log2_size, uint8_t log2_index_bytes)
{
    isojson_dict_keys *dk = PyMem_Malloc(keys_bytes(log2_size, log2_index_bytes));
    if (dk == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    dk->dk_refcnt = 1;
    dk->dk_log2_size = log2_size;
    dk->dk_log2_index_bytes = log2_index_bytes;
    dk->dk_kind = ISOJSON_DICT_KEYS_UNICODE;
#ifdef Py_GIL_DISABLED
    dk->dk_mutex = 0;   /* an unlocked PyMutex */
#endif
    dk->dk_version = 0;
    dk->dk_usable = loads_dict_usable((size_t)1 << log2_size);
    dk->dk_nentries = 0;
    return dk;
}

isojson_dict_keys *loads_dict_keys_new_bare(Py_ssize_t n)
{
    /* Up to 5 members (most records: citm_catalog's 11,000 dicts a loads),
     * the smallest table, 2^3 slots: its sizes without computing them
     * (50 instructions a dict down to 15, besides the allocation). */
    if (n <= loads_dict_usable((size_t)1 << LOADS_DICT_LOG2_MINSIZE))
        return keys_alloc(LOADS_DICT_LOG2_MINSIZE, LOADS_DICT_LOG2_MINSIZE);
    uint8_t log2_size = log2_size_for(n);
    /* 1-byte indexes below 2^8 slots, 2-byte below 2^16 (the most this
     * path makes: LOADS_DICT_DIRECT_MAX). */
    uint8_t log2_index_bytes = log2_size < 8 ? log2_size : (uint8_t)(log2_size + 1);
    return keys_alloc(log2_size, log2_index_bytes);
}

isojson_dict_keys *loads_dict_keys_new(Py_ssize_t n)
{
    isojson_dict_keys *dk = loads_dict_keys_new_bare(n);
    if (dk != NULL)
        loads_dict_clear_indices(dk);
    return dk;
}

void loads_dict_keys_free(isojson_dict_keys *dk)
{
    isojson_dict_entry *e = loads_dict_entries(dk);
    for (Py_ssize_t i = 0; i < dk->dk_nentries; i++) {
        Py_DECREF(e[i].key);
        Py_DECREF(e[i].value);
    }
    PyMem_Free(dk);
}

void loads_dict_index_entries(isojson_dict_keys *dk)
{
    loads_dict_clear_indices(dk);   /* a table from loads_dict_keys_new_bare has none set */
    isojson_dict_entry *e = loads_dict_entries(dk);
    size_t mask = ((size_t)1 << dk->dk_log2_size) - 1;
    for (Py_ssize_t ix = 0; ix < dk->dk_nentries; ix++) {
        /* Every key of a shape is hashed (loads_shape_from_table,
         * loads_shapes.c). */
        size_t hash = (size_t)isojson_str_hash(e[ix].key);
        size_t i = hash & mask, perturb = hash;
        while (loads_dict_index(dk, i) >= 0) {
            perturb >>= LOADS_DICT_PERTURB_SHIFT;
            i = mask & (i * 5 + perturb + 1);
        }
        loads_dict_set_index(dk, i, ix);
    }
}

#endif
