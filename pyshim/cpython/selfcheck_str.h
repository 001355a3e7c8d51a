/* The strs the once-per-process self-checks (loads_dict_check.c,
 * dumps_dict_check.c) fill their dicts with: "<prefix><i>" in ASCII, made
 * with PyUnicode_New and written in place. PyUnicode_FromFormat would make
 * the same str, but through sprintf and a str writer at about 650
 * instructions a key, most of what those checks cost at a process's first
 * loads and dumps. */
#ifndef ISOJSON_SELFCHECK_STR_H
#define ISOJSON_SELFCHECK_STR_H

#include <Python.h>
#include <string.h>

/* A new str "<prefix><i>" (prefix ASCII, i >= 0), its hash not computed
 * yet; NULL with an exception set when out of memory. */
static inline PyObject *selfcheck_numbered(const char *prefix, Py_ssize_t i)
{
    char digits[24];
    int nd = 0;
    size_t u = (size_t)i;
    do {
        digits[nd++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    size_t plen = strlen(prefix);
    PyObject *s = PyUnicode_New((Py_ssize_t)(plen + (size_t)nd), 127);
    if (s == NULL)
        return NULL;
    Py_UCS1 *p = PyUnicode_1BYTE_DATA(s);
    memcpy(p, prefix, plen);
    for (int k = 0; k < nd; k++)
        p[plen + (size_t)k] = (Py_UCS1)digits[nd - 1 - k];
    return s;
}

#endif
