/* The dumps side's per-interpreter state, embedded in isojson_state.
 * Owned by dumps.c; module.c only embeds it and calls its init/traverse/clear. */
#ifndef ISOJSON_DUMPS_STATE_H
#define ISOJSON_DUMPS_STATE_H

#include <Python.h>

/* Types that dumps serializes natively but that live in other modules. They
 * are looked up in the calling interpreter's own sys.modules (never imported
 * by isojson: a module nobody imported cannot have produced an instance) and
 * cached here once found. dumps_types.c fills them. */
enum isojson_cached_type {
    ISOJSON_T_DATETIME,      /* datetime.datetime */
    ISOJSON_T_DATE,          /* datetime.date */
    ISOJSON_T_TIME,          /* datetime.time */
    ISOJSON_T_TIMEDELTA,     /* datetime.timedelta (what utcoffset returns) */
    ISOJSON_T_TIMEZONE,      /* datetime.timezone */
    ISOJSON_T_UUID,          /* uuid.UUID */
    ISOJSON_T_ENUMTYPE,      /* enum.EnumMeta (the metaclass of every Enum) */
    ISOJSON_T_ENUM,          /* enum.Enum */
    /* Not a type: enum.Enum's `value` descriptor, the one that returns the
     * member's _value_ (found by dumps_enum.c at its first member). */
    ISOJSON_T_ENUM_VALUE,
    ISOJSON_T_NDARRAY,       /* numpy.ndarray */
    /* The numpy scalar types orjson serializes (exact types). */
    ISOJSON_T_NP_FLOAT64,
    ISOJSON_T_NP_FLOAT32,
    ISOJSON_T_NP_FLOAT16,
    ISOJSON_T_NP_INT64,
    ISOJSON_T_NP_INT32,
    ISOJSON_T_NP_INT16,
    ISOJSON_T_NP_INT8,
    ISOJSON_T_NP_UINT64,
    ISOJSON_T_NP_UINT32,
    ISOJSON_T_NP_UINT16,
    ISOJSON_T_NP_UINT8,
    ISOJSON_T_NP_BOOL,
    ISOJSON_T_NP_DATETIME64,
    ISOJSON_T_FIELD_MARKER,  /* dataclasses._FIELD (a dataclass field's _field_type) */
    ISOJSON_T_COUNT
};

typedef struct isojson_dumps_state {
    PyTypeObject *FragmentType;
    /* Cached types (strong references), NULL until found; one descriptor. */
    PyObject *types[ISOJSON_T_COUNT];
    /* Interned attribute names used per object (strong references). */
    PyObject *str_dataclass_fields;  /* "__dataclass_fields__" */
    PyObject *str_slots;             /* "__slots__" */
    PyObject *str_value;             /* "value" */
    PyObject *str_value_;            /* "_value_" */
    PyObject *str_int;               /* "int" */
    PyObject *str_utcoffset;         /* "utcoffset" */
    PyObject *str_array_struct;      /* "__array_struct__" */
    PyObject *str_field_type;        /* "_field_type" */
    PyObject *str_dict;              /* "__dict__" */
    PyObject *str_dtype;             /* "dtype" */
    PyObject *str_str;               /* "str" */
    PyObject *str_normalize;         /* "normalize" (pytz) */
    PyObject *str_convert;           /* "convert" (pendulum) */
    /* Which groups of types[] are filled (bits of dumps_types.c). */
    unsigned found;
    /* Classes' dataclass kinds, kept by version tag (dumps_tagged_get,
     * dumps_dataclass.c). */
#define ISOJSON_DATACLASS_KINDS 16
    uint64_t dataclass_kinds[ISOJSON_DATACLASS_KINDS];
    /* Where uuid.UUID keeps its int (a __slots__ member): its offset, kept
     * by the type's version tag (dumps_tagged_get, dumps_uuid.c). */
    uint64_t uuid_int_slot;
} isojson_dumps_state;

#endif
