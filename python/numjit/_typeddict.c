/* _typeddict.c — the storage of numba.typed.Dict: a Python object holding the runtime's dict
 * (numjit.h: nj_dict_*), the very table compiled code reads and writes.
 *
 * numjit.typed.Dict is a Python class (a MutableMapping) whose base is the type made here,
 * TypedDictBase: an NjDict pointer (one reference) and the item codes of its key and value
 * (NjDictItem: an NjDType, or NJ_DICT_STR for unicode_type; -1 while the dict has no types,
 * Numba's `Dict()` before its first insert).  Nothing is copied at the boundary: a dict
 * argument crosses as the NjDict itself (code K_DICT, the codes in the dtype and ndim fields,
 * spelled "DictType[int64,float64]<iv=None>"), and a dict compiled code returns (NJ_KIND_DICT)
 * becomes a new Dict object owning the reference the entry gave.  Changes made on either side
 * are therefore seen on the other.  Keys and values go in as Numba's typed dict takes them:
 * the Python value is typed as Numba types it (classify: int -> int64, float -> float64, a
 * NumPy scalar its dtype, str -> unicode_type) and cast to the dict's type when the cast is
 * one Numba's _cast accepts (bool -> int -> float -> complex; int to any int, float to any
 * float), else TypingError "cannot safely cast X to Y. Please cast explicitly."; they come out
 * as Python numbers and str.  The C methods here are the core (len, [], del, in, iteration
 * over a snapshot of the keys as Numba's, popitem, copy, clear); typed.py adds the rest of the
 * mapping interface and repr.
 */
#include "_numjit.h"

typedef struct TypedDictObject {
    PyObject_HEAD
    NjDict *d; /* NULL while untyped */
    int kt, vt;
} TypedDictObject;

static PyTypeObject *g_typeddict_base; /* TypedDictBase */
static PyObject *g_typeddict_class;    /* numjit.typed.Dict, found on first need */

/* An item at p (code t) as a Python value. */
PyObject *typed_item_box(int t, const void *p)
{
    if (t == NJ_DICT_STR) {
        const NjStr *s = p;
        return PyUnicode_DecodeUTF8(s->data, (Py_ssize_t)s->nbytes, NULL);
    }
    Scalar sc;
    memset(&sc, 0, sizeof sc);
    memcpy(&sc, p, (size_t)nj_dtype_size((NjDType)t));
    return box_scalar((NjDType)t, &sc);
}

static const char *item_name(NjDictItem t)
{
    return t == NJ_DICT_STR ? "unicode_type" : nj_dtype_name((NjDType)t);
}

/* 0 bool, 1 integer, 2 float, 3 complex: Numba's _cast accepts a cast up this order, between
 * types of one kind, and to bool from any number (bool is not one of its Numbers). */
static int rank(NjDType t)
{
    return t == NJ_BOOL ? 0 : t <= NJ_UINT64 ? 1 : t <= NJ_FLOAT64 ? 2 : 3;
}

/* Python value o as an item of code t, written at out (an NjStr borrows o's text, which
 * lives as long as o); -1 with TypingError when Numba refuses the cast. */
int typed_item_unbox(PyObject *o, int t, void *out)
{
    ArgSlot slot;
    memset(&slot, 0, sizeof slot);
    uint32_t code = 0;
    void *ptr = NULL;
    if (classify(o, 0, &slot, &code, &ptr) != 0) {
        PyErr_Clear();
        PyErr_Format(g_typing_error, "numjit's typed containers hold numbers and strings "
                     "given from Python code, not %s (docs/python.md)", type_name(o));
        return -1;
    }
    int kind = CODE_KIND(code), rc = 0;
    NjDType from = CODE_DTYPE(code);
    if (kind == K_STR && t == NJ_DICT_STR) {
        memcpy(out, &slot.str, sizeof slot.str);
    } else if (kind == K_SCALAR && t != NJ_DICT_STR &&
               (rank(from) <= rank((NjDType)t) || t == NJ_BOOL)) { /* bool: not a Number */
        Scalar cast;
        rs_cast_scalar(from, &slot.s, (NjDType)t, &cast);
        memcpy(out, &cast, (size_t)nj_dtype_size((NjDType)t));
    } else if (kind == K_SCALAR || kind == K_STR) {
        PyErr_Format(g_typing_error, "cannot safely cast %s to %s. Please cast explicitly.",
                     kind == K_STR ? "unicode_type" : nj_dtype_name(from), item_name(t));
        rc = -1;
    } else {
        PyErr_Format(g_typing_error, "numjit's typed containers hold numbers and strings "
                     "given from Python code, not %s (docs/python.md)", type_name(o));
        rc = -1;
    }
    release_slots(&slot, 1);
    return rc;
}

/* The entry of key o, or -1 (absent, or an untyped dict); -2 with an exception. */
static int64_t find(TypedDictObject *self, PyObject *o)
{
    if (!self->d)
        return -1;
    _Alignas(16) unsigned char key[sizeof(NjStr)];
    if (typed_item_unbox(o, self->kt, key) != 0)
        return -2;
    return nj_dict_find(self->d, self->kt, key);
}

static int set_types(TypedDictObject *self, int kt, int vt)
{
    if (!nj_dict_item_ok(kt, vt)) {
        PyErr_SetString(g_typing_error, "numjit's numba.typed.Dict crosses between Python and "
                        "compiled code with keys and values of numbers (not complex) or "
                        "strings, not yet others (docs/python.md)");
        return -1;
    }
    NjDict *d = nj_dict_new();
    if (!d) {
        PyErr_NoMemory();
        return -1;
    }
    nj_dict_release(self->d);
    self->d = d;
    self->kt = kt;
    self->vt = vt;
    return 0;
}

static PyObject *td_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)args;
    (void)kwds;
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    TypedDictObject *self = (TypedDictObject *)alloc(type, 0);
    if (self) {
        self->d = NULL;
        self->kt = self->vt = -1;
    }
    return (PyObject *)self;
}

static void td_dealloc(PyObject *o)
{
    PyTypeObject *tp = Py_TYPE(o);
    TypedDictObject *self = (TypedDictObject *)o;
    nj_dict_release(self->d);
    self->d = NULL;
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(o);
    Py_DECREF(tp);
}

static Py_ssize_t td_len(PyObject *o)
{
    TypedDictObject *self = (TypedDictObject *)o;
    return self->d ? (Py_ssize_t)nj_dict_len(self->d) : 0;
}

/* KeyError() without arguments, as Numba's compiled lookups raise it; an untyped dict (typed.py)
 * raises KeyError(key) itself. */
static PyObject *key_error(PyObject *key)
{
    (void)key;
    PyErr_SetNone(PyExc_KeyError);
    return NULL;
}

static PyObject *td_getitem(PyObject *o, PyObject *key)
{
    TypedDictObject *self = (TypedDictObject *)o;
    int64_t ix = find(self, key);
    if (ix == -2)
        return NULL;
    if (ix < 0)
        return key_error(key);
    return typed_item_box(self->vt, nj_dict_value(self->d, ix));
}

static int td_setitem(PyObject *o, PyObject *key, PyObject *value)
{
    TypedDictObject *self = (TypedDictObject *)o;
    if (!value) { /* del d[key] */
        int64_t ix = find(self, key);
        if (ix == -2)
            return -1;
        if (ix < 0) {
            key_error(key);
            return -1;
        }
        nj_dict_delete(self->d, ix);
        return 0;
    }
    if (!self->d) {
        PyErr_SetString(g_typing_error, "numjit: an untyped numba.typed.Dict gets its types "
                        "from typed.py before its first item");
        return -1;
    }
    _Alignas(16) unsigned char k[sizeof(NjStr)], v[sizeof(NjStr)];
    if (typed_item_unbox(key, self->kt, k) != 0 || typed_item_unbox(value, self->vt, v) != 0)
        return -1;
    if (nj_dict_set(self->d, self->kt, self->vt, k, v) != NJ_OK) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int td_contains(PyObject *o, PyObject *key)
{
    TypedDictObject *self = (TypedDictObject *)o;
    if (!self->d || nj_dict_len(self->d) == 0)
        return 0;
    int64_t ix = find(self, key);
    return ix == -2 ? -1 : ix >= 0;
}

/* A list of the keys (what=0), values (1) or (key, value) pairs (2), in insertion order. */
static PyObject *snapshot(TypedDictObject *self, int what)
{
    PyObject *l = PyList_New(0);
    if (!l || !self->d)
        return l;
    for (int64_t ix = nj_dict_next(self->d, 0); ix >= 0; ix = nj_dict_next(self->d, ix + 1)) {
        PyObject *k = what != 1 ? typed_item_box(self->kt, nj_dict_key(self->d, ix)) : NULL;
        PyObject *v = what != 0 ? typed_item_box(self->vt, nj_dict_value(self->d, ix)) : NULL;
        PyObject *item = what == 0 ? k : what == 1 ? v : (k && v ? PyTuple_Pack(2, k, v) : NULL);
        if (what == 2) {
            Py_XDECREF(k);
            Py_XDECREF(v);
        }
        if (!item || PyList_Append(l, item) != 0) {
            Py_XDECREF(item);
            Py_DECREF(l);
            return NULL;
        }
        Py_DECREF(item);
    }
    return l;
}

static PyObject *td_iter(PyObject *o)
{
    PyObject *keys = snapshot((TypedDictObject *)o, 0);
    if (!keys)
        return NULL;
    PyObject *it = PyObject_GetIter(keys);
    Py_DECREF(keys);
    return it;
}

static PyObject *td_keys_list(PyObject *o, PyObject *unused)
{
    (void)unused;
    return snapshot((TypedDictObject *)o, 0);
}

static PyObject *td_values_list(PyObject *o, PyObject *unused)
{
    (void)unused;
    return snapshot((TypedDictObject *)o, 1);
}

static PyObject *td_items_list(PyObject *o, PyObject *unused)
{
    (void)unused;
    return snapshot((TypedDictObject *)o, 2);
}

/* _set_types(key_code, value_code): a new empty table of these types. */
static PyObject *td_set_types(PyObject *o, PyObject *args)
{
    int kt, vt;
    if (!PyArg_ParseTuple(args, "ii", &kt, &vt) || set_types((TypedDictObject *)o, kt, vt) != 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *td_types(PyObject *o, PyObject *unused)
{
    (void)unused;
    TypedDictObject *self = (TypedDictObject *)o;
    if (!self->d)
        Py_RETURN_NONE;
    return Py_BuildValue("(ss)", item_name(self->kt), item_name(self->vt));
}

/* _type_of(value): Numba's type name of a Python value as a dict item ("int64", "float64",
 * "unicode_type", ...), which Dict() takes at its first insert. */
static PyObject *td_type_of(PyObject *cls, PyObject *o)
{
    (void)cls;
    ArgSlot slot;
    memset(&slot, 0, sizeof slot);
    uint32_t code = 0;
    void *ptr = NULL;
    if (classify(o, 0, &slot, &code, &ptr) != 0)
        PyErr_Clear();
    release_slots(&slot, 1);
    int kind = CODE_KIND(code);
    if (kind == K_STR)
        return PyLong_FromLong(NJ_DICT_STR);
    if (kind == K_SCALAR)
        return PyLong_FromLong((long)CODE_DTYPE(code));
    PyErr_Format(g_typing_error, "numjit's numba.typed.Dict holds numbers and strings given "
                 "from Python code, not %s (docs/python.md)", type_name(o));
    return NULL;
}

static PyObject *td_popitem(PyObject *o, PyObject *unused)
{
    (void)unused;
    TypedDictObject *self = (TypedDictObject *)o;
    int64_t ix = self->d ? nj_dict_last(self->d) : -1;
    if (ix < 0) {
        PyErr_SetString(PyExc_KeyError, "dictionary is empty");
        return NULL;
    }
    PyObject *k = typed_item_box(self->kt, nj_dict_key(self->d, ix));
    PyObject *v = k ? typed_item_box(self->vt, nj_dict_value(self->d, ix)) : NULL;
    PyObject *r = v ? PyTuple_Pack(2, k, v) : NULL;
    Py_XDECREF(k);
    Py_XDECREF(v);
    if (r)
        nj_dict_delete(self->d, ix);
    return r;
}

static PyObject *td_clear(PyObject *o, PyObject *unused)
{
    (void)unused;
    TypedDictObject *self = (TypedDictObject *)o;
    if (self->d)
        nj_dict_clear(self->d);
    Py_RETURN_NONE;
}

/* _copy_into(other): other (an empty TypedDictBase) gets this dict's types and items. */
static PyObject *td_copy_into(PyObject *o, PyObject *other)
{
    TypedDictObject *self = (TypedDictObject *)o, *to = (TypedDictObject *)other;
    if (!PyObject_TypeCheck(other, g_typeddict_base)) {
        PyErr_SetString(PyExc_TypeError, "_copy_into takes a typed dict");
        return NULL;
    }
    if (!self->d)
        Py_RETURN_NONE;
    if (set_types(to, self->kt, self->vt) != 0)
        return NULL;
    for (int64_t ix = nj_dict_next(self->d, 0); ix >= 0; ix = nj_dict_next(self->d, ix + 1))
        if (nj_dict_set(to->d, self->kt, self->vt, nj_dict_key(self->d, ix),
                        nj_dict_value(self->d, ix)) != NJ_OK)
            return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* _same_storage(other): whether both objects hold one dict (compiled code returned it). */
static PyObject *td_same_storage(PyObject *o, PyObject *other)
{
    TypedDictObject *self = (TypedDictObject *)o;
    return PyBool_FromLong(PyObject_TypeCheck(other, g_typeddict_base) && self->d &&
                           self->d == ((TypedDictObject *)other)->d);
}

static PyMethodDef td_methods[] = {
    {"_set_types", td_set_types, METH_VARARGS, "a new empty table of these item codes"},
    {"_types", td_types, METH_NOARGS, "(key type name, value type name), or None"},
    {"_type_of", td_type_of, METH_O | METH_CLASS, "Numba's item code of a Python value"},
    {"_keys_list", td_keys_list, METH_NOARGS, "the keys, in insertion order"},
    {"_values_list", td_values_list, METH_NOARGS, "the values, in insertion order"},
    {"_items_list", td_items_list, METH_NOARGS, "the (key, value) pairs, in insertion order"},
    {"popitem", td_popitem, METH_NOARGS, "removes and returns the last item"},
    {"clear", td_clear, METH_NOARGS, "removes every item"},
    {"_copy_into", td_copy_into, METH_O, "copies types and items into an empty typed dict"},
    {"_same_storage", td_same_storage, METH_O, "whether both hold one dict"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot td_slots[] = {
    {Py_tp_new, (void *)td_new},
    {Py_tp_dealloc, (void *)td_dealloc},
    {Py_tp_iter, (void *)td_iter},
    {Py_tp_methods, td_methods},
    {Py_mp_length, (void *)td_len},
    {Py_mp_subscript, (void *)td_getitem},
    {Py_mp_ass_subscript, (void *)td_setitem},
    {Py_sq_contains, (void *)td_contains},
    {Py_tp_doc, (void *)"The storage of numba.typed.Dict: the runtime's dict, shared with "
                        "compiled code."},
    {0, NULL},
};

static PyType_Spec td_spec = {
    "numjit._numjit.TypedDictBase",
    sizeof(TypedDictObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    td_slots,
};

int typeddict_add_type(PyObject *module)
{
    g_typeddict_base = (PyTypeObject *)PyType_FromSpec(&td_spec);
    if (!g_typeddict_base)
        return -1;
    Py_INCREF((PyObject *)g_typeddict_base);
    if (PyModule_AddObject(module, "TypedDictBase", (PyObject *)g_typeddict_base) != 0) {
        Py_DECREF((PyObject *)g_typeddict_base);
        return -1;
    }
    return 0;
}

int typeddict_check(PyObject *o)
{
    return g_typeddict_base && PyObject_TypeCheck(o, g_typeddict_base);
}

/* A typed dict argument: the dict itself (code K_DICT with its item codes). */
int typeddict_classify(PyObject *o, int idx, uint32_t *code, void **ptr)
{
    TypedDictObject *self = (TypedDictObject *)o;
    if (!self->d) { /* Numba: typeof of an untyped Dict fails so */
        (void)idx;
        PyErr_SetString(PyExc_TypeError, "invalid operation on untyped dictionary");
        return -1;
    }
    *code = CODE(K_DICT, self->kt, self->vt, 0);
    *ptr = self->d;
    return 0;
}

/* A dict compiled code returned (its reference taken over) as a numba.typed.Dict. */
PyObject *box_dict(NjDict *d, int kt, int vt)
{
    if (!d) {
        PyErr_SetString(g_numjit_error, "numjit: compiled code returned no dict");
        return NULL;
    }
    if (!g_typeddict_class) {
        PyObject *m = PyImport_ImportModule("numjit.typed");
        g_typeddict_class = m ? PyObject_GetAttrString(m, "Dict") : NULL;
        Py_XDECREF(m);
    }
    PyObject *o = g_typeddict_class ? PyObject_CallNoArgs(g_typeddict_class) : NULL;
    if (!o || !typeddict_check(o)) {
        if (o) {
            Py_DECREF(o);
            PyErr_SetString(g_numjit_error, "numjit: numjit.typed.Dict is not a typed dict");
        }
        nj_dict_release(d);
        return NULL;
    }
    TypedDictObject *self = (TypedDictObject *)o;
    nj_dict_release(self->d);
    self->d = d;
    self->kt = kt;
    self->vt = vt;
    return o;
}
