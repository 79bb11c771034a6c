/* _list.c — Python lists passed to compiled functions, as Numba's reflected lists.
 *
 * A Python list argument of numbers or of str is unboxed into an NjList (numjit.h): its type is
 * that of its first item as Numba's typeof sees it (int -> int64, float -> float64, bool,
 * complex -> complex128, a NumPy scalar its dtype, str -> unicode_type), every other item must
 * have the same type ("can't unbox heterogeneous list", Numba's TypeError), and an empty list
 * cannot be typed (Numba's ValueError "cannot compute fingerprint of empty list").  The items
 * of a list of str are NjStr that borrow the UTF-8 text the str objects cache (owner NULL, as
 * a str argument's), the objects kept alive by a tuple of them while the call runs.  The
 * compiled function works on the NjList; after a call that returned normally, the list is
 * reflected: when its items differ from what was passed (a copy of the passed bytes is kept to
 * tell; a string compares by its text's address and length), the Python list's contents are
 * replaced by the items boxed again, which is what Numba's reflection does.  The slot then
 * releases the NjList: the last reference runs its destructor (ours, which also gives back the
 * strings compiled code stored, or the one compiled code installed when it grew the list) and
 * frees it.
 */
#include "_numjit.h"

#include <stdatomic.h>

static void items_free(NjList *l) { free(l->items); }

static void str_items_free(NjList *l)
{
    NjStr *items = l->items;
    for (int64_t i = 0; i < l->size; i++)
        nj_str_release(&items[i]);
    free(items);
}

static void list_release(NjList *l)
{
    _Atomic int64_t *rc = (_Atomic int64_t *)&l->refcount;
    if (atomic_fetch_sub_explicit(rc, 1, memory_order_acq_rel) == 1) {
        if (l->dtor)
            l->dtor(l);
        free(l);
    }
}

void list_slot_release(ArgSlot *slot)
{
    if (slot->list)
        list_release(slot->list);
    free(slot->orig);
    Py_CLEAR(slot->keep);
    slot->list = NULL;
    slot->orig = NULL;
}

/* The type code of item o: a scalar's, or K_STR's for a str (0 for anything else). */
uint32_t list_item_code(PyObject *o, int idx, Scalar *out)
{
    ArgSlot s;
    uint32_t code = 0;
    void *p;
    s.has_buf = 0;
    if (PyList_Check(o) || classify(o, idx, &s, &code, &p) != 0) {
        PyErr_Clear();
        code = 0;
    }
    if (code && CODE_KIND(code) != K_SCALAR && CODE_KIND(code) != K_STR)
        code = 0;
    if (code)
        *out = s.s;
    release_slots(&s, 1);
    return code;
}

/* The bytes of item i of a list of code c0 (a scalar's value, or an NjStr of a str). */
static void item_bytes(PyObject *o, const Scalar *v, uint32_t c0, void *out, size_t es)
{
    if (CODE_KIND(c0) == K_STR) {
        Py_ssize_t nbytes;
        const char *text = PyUnicode_AsUTF8AndSize(o, &nbytes); /* cached: classify made it */
        NjStr str = {text, (int64_t)nbytes, (int64_t)PyUnicode_GetLength(o), NULL};
        memcpy(out, &str, sizeof str);
        return;
    }
    memcpy(out, v, es);
}

static void heterogeneous(PyObject *o, uint32_t c0, uint32_t c)
{
    char a[64], b[64];
    spell_code(c0, a, sizeof a);
    if (c)
        spell_code(c, b, sizeof b);
    PyErr_Format(PyExc_TypeError, "can't unbox heterogeneous list: %s != %s", a,
                 c ? b : type_name(o));
}

/* An empty numba.typed.List knows its item type (numjit.typed: `_nj_item_dtype`, a dtype's
 * name or "unicode_type"): the dtype of the list's code, or -1. */
static int typed_empty_dtype(PyObject *o)
{
    PyObject *t = PyObject_GetAttrString(o, "_nj_item_dtype");
    const char *name = t && PyUnicode_Check(t) ? PyUnicode_AsUTF8AndSize(t, NULL) : NULL;
    int dt = -1;
    if (name && !strcmp(name, "unicode_type"))
        dt = NJ_DTYPE_COUNT;
    for (int k = 0; name && dt < 0 && k < NJ_DTYPE_COUNT; k++)
        if (!strcmp(nj_dtype_name((NjDType)k), name))
            dt = k;
    Py_XDECREF(t);
    PyErr_Clear();
    return dt;
}

int list_classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr)
{
    Py_ssize_t n = PyList_Size(o);
    int typed_dt = n == 0 && !PyList_CheckExact(o) ? typed_empty_dtype(o) : -1;
    if (typed_dt >= 0) { /* an empty typed list: no items, its own item type */
        NjList *l = malloc(sizeof *l);
        if (!l) {
            PyErr_NoMemory();
            return -1;
        }
        *l = (NjList){.refcount = 1, .nbytes = 24,
                      .dtor = typed_dt == NJ_DTYPE_COUNT ? str_items_free : items_free};
        *slot = (ArgSlot){.has_buf = SLOT_LIST, .list = l};
        *code = CODE(K_LIST, typed_dt, 0, 0);
        *ptr = l;
        return 0;
    }
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "cannot compute fingerprint of empty list");
        return -1;
    }
    Scalar first;
    uint32_t c0 = list_item_code(PyList_GetItem(o, 0), idx, &first);
    if (!c0) {
        PyErr_Format(g_typing_error, "argument %d: numjit takes lists of numbers or of str, "
                     "not of '%s'", idx + 1, type_name(PyList_GetItem(o, 0)));
        return -1;
    }
    int strs = CODE_KIND(c0) == K_STR;
    NjDType dt = strs ? NJ_DTYPE_COUNT : CODE_DTYPE(c0);
    size_t es = strs ? sizeof(NjStr) : (size_t)nj_dtype_size(dt);
    PyObject *keep = strs ? PyList_AsTuple(o) : NULL; /* the items, alive during the call */
    if (strs && !keep)
        return -1;
    NjList *l = malloc(sizeof *l);
    void *items = malloc((size_t)n * es), *orig = malloc((size_t)n * es);
    if (!l || !items || !orig) {
        free(l);
        free(items);
        free(orig);
        Py_XDECREF(keep);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = keep ? PyTuple_GetItem(keep, i) : PyList_GetItem(o, i);
        Scalar v = first;
        uint32_t c = i ? list_item_code(x, idx, &v) : c0;
        if (c != c0) {
            heterogeneous(x, c0, c);
            free(l);
            free(items);
            free(orig);
            Py_XDECREF(keep);
            return -1;
        }
        item_bytes(x, &v, c0, (char *)items + (size_t)i * es, es);
    }
    memcpy(orig, items, (size_t)n * es);
    *l = (NjList){.refcount = 1, .nbytes = 24, .dtor = strs ? str_items_free : items_free,
                  .size = n, .capacity = n, .items = items};
    slot->has_buf = SLOT_LIST;
    slot->list = l;
    slot->orig = orig;
    slot->orig_size = n;
    slot->keep = keep;
    *code = CODE(K_LIST, dt, 0, 0);
    *ptr = l;
    return 0;
}

int list_reflect(PyObject *o, const ArgSlot *slot, uint32_t code)
{
    const NjList *l = slot->list;
    NjDType dt = CODE_DTYPE(code);
    size_t es = dt == NJ_DTYPE_COUNT ? sizeof(NjStr) : (size_t)nj_dtype_size(dt);
    if (l->size == slot->orig_size &&
        (l->size == 0 || !memcmp(l->items, slot->orig, (size_t)l->size * es)))
        return 0;
    PyObject *fresh = PyList_New((Py_ssize_t)l->size);
    if (!fresh)
        return -1;
    for (int64_t i = 0; i < l->size; i++) {
        Scalar v;
        PyObject *x;
        if (dt == NJ_DTYPE_COUNT) { /* the text, copied; the list keeps its strings */
            const NjStr *str = (const NjStr *)l->items + i;
            x = PyUnicode_DecodeUTF8(str->data, (Py_ssize_t)str->nbytes, NULL);
        } else {
            memcpy(&v, (const char *)l->items + (size_t)i * es, es);
            x = box_scalar(dt, &v);
        }
        if (!x) {
            Py_DECREF(fresh);
            return -1;
        }
        PyList_SetItem(fresh, (Py_ssize_t)i, x);
    }
    int rc = PyList_SetSlice(o, 0, PyList_Size(o), fresh);
    Py_DECREF(fresh);
    return rc;
}
