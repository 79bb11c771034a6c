/* _extend.c — the extension hook of the library (nj_set_extension_hook) answered in Python.
 *
 * numjit.extending keeps Numba's @overload, overload_method and overload_attribute registries
 * and installs one Python function, set_extension_hook(hook), that this file calls for every
 * question of the typer: hook(kind, file, name, attr, argtypes), kind 0 for a function, 1 for a
 * method, 2 for an attribute, argtypes None ("is the name yours?") or a tuple of type
 * spellings.  The answer is None (not an extension), True (it is one), (Module, "impl") — the
 * implementation's compiled source and its def — or ("declined", message).  An exception the
 * hook raises becomes the error "Class: message" at the call.  The typer runs with the GIL
 * released (the dispatcher compiles outside it), so the call takes the GIL for its duration.
 */
#include "_numjit.h"

#include <stdlib.h>
#include <string.h>

static PyObject *g_hook; /* the Python hook, or NULL */

static char *dup_utf8(PyObject *s) {
    const char *u = s ? PyUnicode_AsUTF8AndSize(s, NULL) : NULL;
    if (!u) {
        PyErr_Clear();
        return NULL;
    }
    return strdup(u);
}

/* "Class: message" of the exception being raised, cleared. */
static char *exception_text(void) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    char *out = NULL;
    PyObject *name = type ? PyObject_GetAttrString(type, "__name__") : NULL;
    PyObject *msg = value ? PyObject_Str(value) : NULL;
    if (name && msg) {
        PyObject *text = PyUnicode_FromFormat("%U: %U", name, msg);
        out = dup_utf8(text);
        Py_XDECREF(text);
    }
    PyErr_Clear();
    Py_XDECREF(name);
    Py_XDECREF(msg);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return out;
}

static int answer(PyObject *res, NjModule **impl_module, char **impl_func, char **message) {
    if (res == Py_None)
        return NJ_EXT_NOT_MINE;
    if (res == Py_True)
        return NJ_EXT_MINE;
    if (PyTuple_Check(res) && PyTuple_Size(res) == 2) {
        PyObject *a = PyTuple_GetItem(res, 0), *b = PyTuple_GetItem(res, 1);
        if (PyObject_TypeCheck(a, g_module_type) && PyUnicode_Check(b)) {
            *impl_module = ((ModuleObject *)a)->mod;
            *impl_func = dup_utf8(b);
            return *impl_func ? NJ_EXT_IMPL : NJ_EXT_ERROR;
        }
        if (PyUnicode_Check(a) && !strcmp(PyUnicode_AsUTF8AndSize(a, NULL), "declined")) {
            *message = b == Py_None ? NULL : dup_utf8(b);
            return NJ_EXT_DECLINED;
        }
    }
    *message = strdup("the extension hook gave an answer numjit does not understand");
    return NJ_EXT_ERROR;
}

static int ext_hook(void *arg, NjExtKind kind, const char *file, const char *name,
                    const char *attr, int nargs, const char *const *argtypes,
                    NjModule **impl_module, char **impl_func, char **message) {
    (void)arg;
    PyGILState_STATE gs = PyGILState_Ensure();
    int r = NJ_EXT_NOT_MINE;
    PyObject *hook = g_hook, *types = NULL, *res = NULL;
    if (!hook)
        goto done;
    Py_INCREF(hook);
    if (nargs < 0) {
        types = Py_None;
        Py_INCREF(types);
    } else if ((types = PyTuple_New(nargs))) {
        for (int i = 0; i < nargs; i++) {
            PyObject *s = PyUnicode_FromString(argtypes[i]);
            if (!s) {
                Py_CLEAR(types);
                break;
            }
            PyTuple_SetItem(types, i, s);
        }
    }
    if (types)
        res = PyObject_CallFunction(hook, "isssO", (int)kind, file ? file : "", name,
                                    attr ? attr : "", types);
    Py_DECREF(hook);
    if (!res) {
        *message = exception_text();
        r = NJ_EXT_ERROR;
    } else {
        r = answer(res, impl_module, impl_func, message);
    }
done:
    Py_XDECREF(types);
    Py_XDECREF(res);
    PyGILState_Release(gs);
    return r;
}

/* set_extension_hook(hook or None) */
PyObject *mod_set_extension_hook(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *hook;
    if (!PyArg_ParseTuple(args, "O", &hook))
        return NULL;
    if (hook != Py_None && !PyCallable_Check(hook)) {
        PyErr_SetString(PyExc_TypeError, "set_extension_hook: expected a callable or None");
        return NULL;
    }
    Py_XDECREF(g_hook);
    g_hook = hook == Py_None ? NULL : hook;
    Py_XINCREF(g_hook);
    nj_set_extension_hook(g_hook ? ext_hook : NULL, NULL);
    Py_RETURN_NONE;
}
