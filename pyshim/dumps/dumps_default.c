/* default=: called for every object dumps cannot serialize natively; its
 * result is serialized in the object's place (and may itself need default=).
 *
 * As orjson: at most 255 nested calls ("default serializer exceeds recursion
 * limit"); an exception from default= becomes "Type is not JSON serializable:
 * <type>" with the original as __cause__. Python code runs here, so the
 * context pins what the tape points into first, and keeps the object and the
 * result alive until the write is done. */
#include "dumps.h"

int dumps_error_type(PyObject *obj)
{
    PyErr_Format(PyExc_TypeError, "Type is not JSON serializable: %s", Py_TYPE(obj)->tp_name);
    return -1;
}

int dumps_default(dumps_ctx *c, PyObject *obj)
{
    if (c->default_fn == NULL)
        return dumps_error_type(obj);
    if (c->default_calls >= DUMPS_MAX_DEFAULT_CALLS)
        return dumps_error("default serializer exceeds recursion limit");
    if (dumps_pin(c) < 0)
        return -1;
    /* default= may drop the last other reference to obj (by mutating its
     * container); obj is still needed for the error message. */
    Py_INCREF(obj);
    if (dumps_keep_owned(c, obj) < 0)
        return -1;
    PyObject *result = PyObject_CallOneArg(c->default_fn, obj);
    if (result == NULL) {
        PyObject *cause = PyErr_GetRaisedException();
        dumps_error_type(obj);
        PyObject *exc = PyErr_GetRaisedException();
        PyException_SetCause(exc, cause);
        PyErr_SetRaisedException(exc);
        return -1;
    }
    if (dumps_keep_owned(c, result) < 0)
        return -1;
    c->default_calls++;
    int rc = dumps_value(c, result);
    c->default_calls--;
    return rc;
}
