/* _set.c — Python sets and compiled code, as Numba 0.56 reflects sets.
 *
 * A Python set of numbers passed to a compiled function is Numba's reflected set: its type is
 * that of its first item (int -> int64, float -> float64, bool, a NumPy scalar its dtype), every
 * item must be of the same Python type (TypeError "can't unbox heterogeneous set", Numba's), and
 * an empty set cannot be typed (ValueError "cannot compute fingerprint of empty set").  It
 * crosses as an NjList of its items (code K_SET, the slot a list's); the C entry makes a set of
 * them for the function and, after a call that returned normally, puts the set's items back
 * into that list (runtime/set.c numjit_set_fromlist, numjit_set_reflect).  When they differ from
 * what was passed, the Python set's contents are replaced by them, boxed again: what compiled
 * code added or removed is seen by the caller.
 *
 * The C entry hands a returned set of numbers over as an NjArray of its items in the set's
 * iteration order, owning a new list of them (NJ_KIND_SET, runtime/set.c numjit_set_tolist),
 * alone or as a leaf of a returned tuple.  The items are boxed as a returned list's are
 * (box_list: int, float, bool, complex, as Numba boxes them) and put into a new set; the list
 * is released by box_list.  An NjArray without owner means the entry found no memory for the
 * list: MemoryError.
 */
#include "_numjit.h"

PyObject *box_set(NjArray *a)
{
    if (!a->owner)
        return PyErr_NoMemory();
    PyObject *items = box_list(a);
    if (!items)
        return NULL;
    PyObject *s = PySet_New(items);
    Py_DECREF(items);
    return s;
}

static void items_free(NjList *l) { free(l->items); }

static int heterogeneous(void)
{
    PyErr_SetString(PyExc_TypeError, "can't unbox heterogeneous set");
    return -1;
}

/* The items of set o as n values of code c0 at items; -1 with an exception. */
static int set_items(PyObject *o, int idx, uint32_t c0, PyTypeObject *t0, char *items, size_t es)
{
    PyObject *it = PyObject_GetIter(o), *x;
    if (!it)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && (x = PyIter_Next(it)); i++) {
        Scalar v;
        if (Py_TYPE(x) != t0 || list_item_code(x, idx, &v) != c0)
            rc = heterogeneous();
        else
            memcpy(items + i * es, &v, es);
        Py_DECREF(x);
    }
    Py_DECREF(it);
    return rc == 0 && PyErr_Occurred() ? -1 : rc;
}

int set_classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr)
{
    Py_ssize_t n = PySet_Size(o);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "cannot compute fingerprint of empty set");
        return -1;
    }
    PyObject *it = PyObject_GetIter(o);
    PyObject *first = it ? PyIter_Next(it) : NULL;
    Py_XDECREF(it);
    if (!first)
        return -1;
    Scalar v;
    uint32_t c0 = list_item_code(first, idx, &v);
    PyTypeObject *t0 = Py_TYPE(first);
    if (!c0 || CODE_KIND(c0) != K_SCALAR) {
        PyErr_Format(g_typing_error, "argument %d: numjit takes sets of numbers, not of '%s'",
                     idx + 1, type_name(first));
        Py_DECREF(first);
        return -1;
    }
    Py_DECREF(first); /* the set holds it */
    NjDType dt = CODE_DTYPE(c0);
    size_t es = (size_t)nj_dtype_size(dt);
    NjList *l = malloc(sizeof *l);
    char *items = malloc((size_t)n * es), *orig = malloc((size_t)n * es);
    if (!l || !items || !orig) {
        free(l);
        free(items);
        free(orig);
        PyErr_NoMemory();
        return -1;
    }
    if (set_items(o, idx, c0, t0, items, es) != 0) {
        free(l);
        free(items);
        free(orig);
        return -1;
    }
    memcpy(orig, items, (size_t)n * es);
    *l = (NjList){.refcount = 1, .nbytes = 24, .dtor = items_free, .size = n, .capacity = n,
                  .items = items};
    slot->has_buf = SLOT_LIST;
    slot->list = l;
    slot->orig = orig;
    slot->orig_size = n;
    slot->keep = NULL;
    *code = CODE(K_SET, dt, 0, 0);
    *ptr = l;
    return 0;
}

int set_reflect(PyObject *o, const ArgSlot *slot, uint32_t code)
{
    const NjList *l = slot->list;
    NjDType dt = CODE_DTYPE(code);
    size_t es = (size_t)nj_dtype_size(dt);
    if (l->size == slot->orig_size && !memcmp(l->items, slot->orig, (size_t)l->size * es))
        return 0;
    if (PySet_Clear(o) != 0)
        return -1;
    for (int64_t i = 0; i < l->size; i++) {
        Scalar v;
        memcpy(&v, (const char *)l->items + (size_t)i * es, es);
        PyObject *x = box_scalar(dt, &v);
        int rc = x ? PySet_Add(o, x) : -1;
        Py_XDECREF(x);
        if (rc != 0)
            return -1;
    }
    return 0;
}
