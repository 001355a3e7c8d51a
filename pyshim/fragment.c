/* isojson.Fragment(contents): already-serialized JSON (bytes or str) that
 * dumps writes verbatim, as orjson.Fragment. The contents are checked when
 * dumps meets the fragment, not here, as orjson does; the type cannot be
 * subclassed and its instances have no attributes.
 *
 * A heap type per interpreter (PyType_FromModuleAndSpec), so that own-GIL
 * sub-interpreters share no Python object. It takes part in garbage
 * collection because its contents can be anything. */
#include "isojson.h"

typedef struct {
    PyObject_HEAD
    PyObject *contents;
} fragment_object;

PyObject *isojson_fragment_contents(PyObject *fragment) { return ((fragment_object *)fragment)->contents; }

static PyObject *fragment_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) != 1 || (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0)) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly 1 positional argument", type->tp_name);
        return NULL;
    }
    fragment_object *self = (fragment_object *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->contents = Py_NewRef(PyTuple_GET_ITEM(args, 0));
    return (PyObject *)self;
}

static int fragment_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(((fragment_object *)self)->contents);
    return 0;
}

static int fragment_clear(PyObject *self)
{
    Py_CLEAR(((fragment_object *)self)->contents);
    return 0;
}

static void fragment_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    (void)fragment_clear(self);
    type->tp_free(self);
    Py_DECREF(type);
}

PyDoc_STRVAR(fragment_doc,
             "Fragment(contents, /)\n--\n\n"
             "Already-serialized JSON that dumps() writes as it is, without checking it.\n\n"
             "contents is bytes or str (dumps() raises JSONEncodeError for anything else).\n"
             "For example, dumps({\"a\": Fragment(b\"[1,2]\")}) is b'{\"a\":[1,2]}'.");

static PyType_Slot fragment_slots[] = {
    {Py_tp_doc, (void *)fragment_doc},
    {Py_tp_new, fragment_new},
    {Py_tp_traverse, fragment_traverse},
    {Py_tp_clear, fragment_clear},
    {Py_tp_dealloc, fragment_dealloc},
    {0, NULL},
};

static PyType_Spec fragment_spec = {
    .name = "isojson.Fragment",
    .basicsize = sizeof(fragment_object),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = fragment_slots,
};

int isojson_fragment_init(PyObject *module, isojson_dumps_state *st)
{
    PyObject *type = PyType_FromModuleAndSpec(module, &fragment_spec, NULL);
    if (type == NULL)
        return -1;
    st->FragmentType = (PyTypeObject *)type;
    return PyModule_AddType(module, st->FragmentType);
}
