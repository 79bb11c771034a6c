/* _errors.c — a library status as a Python exception. The runtime names the exception
 * (ValueError, IndexError, ZeroDivisionError, numpy.linalg.LinAlgError, ...) and gives the
 * message; exc_for_runtime finds the class, by the name or else by the message; raise_status
 * maps a status onto its class (numjit.errors' classes once _configure has set them, builtins
 * until then), sets it and returns NULL for the caller to pass on.
 */
#include "_numjit.h"

/* ---- errors -------------------------------------------------------------------------------- */

/* numpy.linalg.LinAlgError (not a ValueError), imported once; ValueError if that fails. */
static PyObject *linalg_error(void)
{
    static PyObject *cls;
    if (!cls) {
        PyObject *mod = PyImport_ImportModule("numpy.linalg");
        cls = mod ? PyObject_GetAttrString(mod, "LinAlgError") : NULL;
        Py_XDECREF(mod);
        if (!cls) {
            PyErr_Clear();
            return PyExc_ValueError;
        }
    }
    return cls;
}

PyObject *exc_for_runtime(const char *name, const char *msg)
{
    if (name) {
        if (!strcmp(name, "ZeroDivisionError"))
            return PyExc_ZeroDivisionError;
        if (!strcmp(name, "IndexError"))
            return PyExc_IndexError;
        if (!strcmp(name, "ValueError"))
            return PyExc_ValueError;
        if (!strcmp(name, "OverflowError"))
            return PyExc_OverflowError;
        if (!strcmp(name, "MemoryError"))
            return PyExc_MemoryError;
        if (!strcmp(name, "LinAlgError"))
            return linalg_error();
        /* a raise or assert of the program: one of Python's built-in exception classes */
        PyObject *cls = PyDict_GetItemString(PyEval_GetBuiltins(), name);
        if (cls && PyExceptionClass_Check(cls))
            return cls;
    }
    if (msg) { /* the generic road has only the text */
        if (strstr(msg, "ZeroDivisionError") || strstr(msg, "division by zero") ||
            strstr(msg, "modulo by zero"))
            return PyExc_ZeroDivisionError;
        if (strstr(msg, "IndexError") || strstr(msg, "out of bounds"))
            return PyExc_IndexError;
        if (strstr(msg, "ValueError"))
            return PyExc_ValueError;
        if (strstr(msg, "MemoryError"))
            return PyExc_MemoryError;
        if (strstr(msg, "LinAlgError"))
            return linalg_error();
    }
    return PyExc_RuntimeError;
}

/* Sets the Python exception for a failed library call; returns NULL. */
PyObject *raise_status(NjStatus st)
{
    const char *msg = g_ctx ? nj_error_message(g_ctx) : "";
    if (!msg || !*msg)
        msg = nj_status_name(st);
    PyObject *exc;
    switch (st) {
    case NJ_ERR_SYNTAX: exc = g_syntax_error; break;
    case NJ_ERR_TYPE: exc = g_typing_error; break;
    case NJ_ERR_NAME: exc = g_typing_error; break;
    case NJ_ERR_ARGS: exc = PyExc_TypeError; break;
    case NJ_ERR_RUNTIME: exc = exc_for_runtime(NULL, msg); break;
    case NJ_ERR_NOMEM: exc = PyExc_MemoryError; break;
    case NJ_ERR_IO: exc = PyExc_OSError; break;
    case NJ_ERR_UNSUPPORTED: exc = g_unsupported_error; break;
    case NJ_ERR_CUDA: exc = g_cuda_error; break;
    case NJ_ERR_COMPILE:
    case NJ_ERR_INTERNAL: exc = g_compile_error; break;
    default: exc = g_numjit_error; break;
    }
    PyErr_SetString(exc, msg);
    return NULL;
}
