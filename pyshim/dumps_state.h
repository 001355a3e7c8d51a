/* The dumps side's per-interpreter state, embedded in isojson_state.
 * Owned by dumps.c; module.c only embeds it and calls its init/traverse/clear. */
#ifndef ISOJSON_DUMPS_STATE_H
#define ISOJSON_DUMPS_STATE_H

#include <Python.h>

typedef struct isojson_dumps_state {
    PyTypeObject *FragmentType;
    /* Types found in the interpreter's own sys.modules at first need
     * (datetime, uuid, enum, dataclasses, numpy), cached here. */
    PyObject *cached[16];
} isojson_dumps_state;

#endif
