/* _result.c — arrays that compiled functions return, as NumPy arrays.
 *
 * The entry writes a returned array as an NjArray (numjit.h).  Two cases:
 *
 *   owner != NULL   compiled code made the memory and hands over one reference to it.  It
 *                   goes into a small Owner object that exports the memory through the buffer
 *                   protocol; numpy.asarray(owner) makes the ndarray, whose base (a memoryview
 *                   of the owner) keeps the owner alive.  When the last view dies the owner's
 *                   dealloc calls nj_array_release, and the memory goes back unless compiled
 *                   code still holds it.  No copy is made.
 *   owner == NULL   the memory belongs to an argument (`return a`, or a view of it), or to a
 *                   global NumPy array frozen for compiled code (python/numjit/source.py
 *                   notes each copy here: the result is then read-only, as Numba's is, so
 *                   that no caller changes the constant).  For an argument, as in
 *                   Numba, the argument object itself comes back when the result is exactly it
 *                   (same data, shape, strides and dtype); otherwise an Owner without a reference
 *                   wraps the memory and keeps the argument (or, when no single argument spans
 *                   it, the whole argument tuple) alive as its base.  Keeping it alive is not
 *                   enough for an argument that is not an ndarray (a bytearray, an array.array,
 *                   a memoryview): `bytearray.extend` would move the memory under the view.  So
 *                   the Owner also holds a buffer export of each such argument, as NumPy's own
 *                   views do (np.frombuffer), and resizing it raises BufferError until the
 *                   last view is gone.  An array member of a jitclass instance argument
 *                   (numjit.jitclass) comes back as the member's ndarray, or as a view based
 *                   on it, so that replacing the member later leaves the result valid.
 *
 * Everything here uses the stable ABI: Py_bf_getbuffer and Py_bf_releasebuffer are slots of
 * the limited API since 3.11.
 */
#include "_numjit.h"

typedef struct OwnerObject {
    PyObject_HEAD
    NjArray arr;       /* owner: the reference this object holds (or NULL) */
    PyObject *base;    /* what keeps borrowed memory alive, or NULL */
    Py_buffer *views;  /* buffer exports held on non-ndarray arguments the memory is theirs */
    int nviews;
    int readonly;
    char format[3];
    Py_ssize_t shape[NJ_MAX_NDIM], strides[NJ_MAX_NDIM];
} OwnerObject;

static PyTypeObject *g_owner_type;
static PyObject *g_asarray;

/* the struct-module format of each NjDType ("Zf", "Zd": PEP 3118's complex) */
static const char *const dtype_format[NJ_DTYPE_COUNT] = {
    "?", "b", "h", "i", sizeof(long) == 8 ? "l" : "q", "B", "H", "I",
    sizeof(long) == 8 ? "L" : "Q", "f", "d", "Zf", "Zd",
};

static void owner_dealloc(PyObject *self)
{
    OwnerObject *o = (OwnerObject *)self;
    nj_array_release(&o->arr);
    for (int i = 0; i < o->nviews; i++)
        PyBuffer_Release(&o->views[i]);
    PyMem_Free(o->views);
    Py_CLEAR(o->base);
    PyTypeObject *tp = Py_TYPE(self);
    freefunc tfree = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tfree(self);
    Py_DECREF(tp);
}

static int owner_c_contiguous(const OwnerObject *o)
{
    int64_t sd = nj_dtype_size(o->arr.dtype);
    for (int i = o->arr.ndim - 1; i >= 0; i--) {
        if (o->shape[i] == 0)
            return 1;
        if (o->shape[i] != 1 && o->strides[i] != sd)
            return 0;
        sd *= o->shape[i];
    }
    return 1;
}

static int owner_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    OwnerObject *o = (OwnerObject *)self;
    if ((flags & PyBUF_WRITABLE) && o->readonly) {
        PyErr_SetString(PyExc_BufferError, "numjit: the array is read-only");
        return -1;
    }
    if (!(flags & PyBUF_STRIDES) && !owner_c_contiguous(o)) {
        PyErr_SetString(PyExc_BufferError, "numjit: the array is not C-contiguous");
        return -1;
    }
    Py_ssize_t item = nj_dtype_size(o->arr.dtype), n = 1;
    for (int i = 0; i < o->arr.ndim; i++)
        n *= o->shape[i];
    view->buf = o->arr.data;
    view->obj = Py_NewRef(self);
    view->len = n * item;
    view->itemsize = item;
    view->readonly = o->readonly;
    view->ndim = o->arr.ndim;
    view->format = (flags & PyBUF_FORMAT) ? o->format : NULL;
    view->shape = (flags & PyBUF_ND) ? o->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) ? o->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static void owner_releasebuffer(PyObject *self, Py_buffer *view)
{
    (void)self;
    (void)view;
}

static PyType_Slot owner_slots[] = {
    {Py_tp_dealloc, owner_dealloc},
    {Py_bf_getbuffer, owner_getbuffer},
    {Py_bf_releasebuffer, owner_releasebuffer},
    {Py_tp_doc, "The memory of an array a numjit-compiled function returned."},
    {0, NULL},
};

static PyType_Spec owner_spec = {
    "numjit._numjit.ArrayOwner", sizeof(OwnerObject), 0, Py_TPFLAGS_DEFAULT, owner_slots,
};

int result_init(PyObject *module)
{
    g_owner_type = (PyTypeObject *)PyType_FromSpec(&owner_spec);
    if (!g_owner_type || instance_init(module))
        return -1;
    return PyModule_AddObjectRef(module, "ArrayOwner", (PyObject *)g_owner_type);
}

/* Holds a buffer export of base (or of each element of the argument tuple base) that is not
 * an ndarray, so that its memory cannot move or go while o is alive.  -1 with an exception. */
static int hold_exports(OwnerObject *o, PyObject *base)
{
    int n = base && PyTuple_Check(base) ? (int)PyTuple_Size(base) : base ? 1 : 0;
    if (n == 0)
        return 0;
    o->views = PyMem_Calloc((size_t)n, sizeof *o->views);
    if (!o->views) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *x = PyTuple_Check(base) ? PyTuple_GetItem(base, i) : base;
        if ((g_ndarray_type && PyObject_TypeCheck(x, g_ndarray_type)) || !PyObject_CheckBuffer(x))
            continue;
        if (PyObject_GetBuffer(x, &o->views[o->nviews], PyBUF_FULL_RO) != 0)
            return -1;
        o->nviews++;
    }
    return 0;
}

/* A new ndarray over a's memory; takes over a's reference (released on failure too). */
static PyObject *wrap(NjArray *a, PyObject *base, int readonly)
{
    if (!g_asarray) {
        PyObject *np = PyImport_ImportModule("numpy");
        g_asarray = np ? PyObject_GetAttrString(np, "asarray") : NULL;
        Py_XDECREF(np);
        if (!g_asarray) {
            nj_array_release(a);
            return NULL;
        }
    }
    if ((unsigned)a->dtype >= NJ_DTYPE_COUNT || a->ndim < 1 || a->ndim > NJ_MAX_NDIM) {
        nj_array_release(a);
        PyErr_SetString(g_compile_error, "numjit: a returned array has a bad descriptor");
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(g_owner_type, Py_tp_alloc);
    OwnerObject *o = (OwnerObject *)alloc(g_owner_type, 0);
    if (!o) {
        nj_array_release(a);
        return NULL;
    }
    o->arr = *a;
    a->owner = NULL;
    o->base = Py_XNewRef(base);
    o->views = NULL;
    o->nviews = 0;
    o->readonly = readonly;
    if (hold_exports(o, base) != 0) {
        Py_DECREF(o);
        return NULL;
    }
    snprintf(o->format, sizeof o->format, "%s", dtype_format[a->dtype]);
    for (int i = 0; i < a->ndim; i++) {
        o->shape[i] = (Py_ssize_t)a->shape[i];
        o->strides[i] = (Py_ssize_t)a->strides[i];
    }
    PyObject *r = PyObject_CallFunctionObjArgs(g_asarray, (PyObject *)o, NULL);
    Py_DECREF(o);
    return r;
}

static int same_array(const NjArray *a, const NjArray *b)
{
    if (a->data != b->data || a->ndim != b->ndim || a->dtype != b->dtype)
        return 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i] || a->strides[i] != b->strides[i])
            return 0;
    return 1;
}

/* The byte range [lo, hi) a's elements reach; 0 when a is empty. */
static int span(const NjArray *a, intptr_t *lo, intptr_t *hi)
{
    intptr_t l = (intptr_t)a->data, h = l + nj_dtype_size(a->dtype);
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] == 0)
            return 0;
        intptr_t ext = (intptr_t)((a->shape[i] - 1) * a->strides[i]);
        if (ext < 0)
            l += ext;
        else
            h += ext;
    }
    *lo = l;
    *hi = h;
    return 1;
}

static int writable(PyObject *o)
{
    Py_buffer b;
    if (PyObject_GetBuffer(o, &b, PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        return 0;
    }
    PyBuffer_Release(&b);
    return 1;
}

/* The byte ranges of the frozen copies of global arrays, which live as long as the process. */
static struct { intptr_t lo, hi; } *g_frozen;
static int g_nfrozen, g_capfrozen;

PyObject *result_note_frozen(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *addr;
    Py_ssize_t nbytes;
    if (!PyArg_ParseTuple(args, "On", &addr, &nbytes))
        return NULL;
    intptr_t lo = (intptr_t)PyLong_AsVoidPtr(addr);
    if (PyErr_Occurred())
        return NULL;
    if (g_nfrozen == g_capfrozen) {
        int cap = g_capfrozen ? 2 * g_capfrozen : 16;
        void *p = PyMem_Realloc(g_frozen, (size_t)cap * sizeof *g_frozen);
        if (!p)
            return PyErr_NoMemory();
        g_frozen = p;
        g_capfrozen = cap;
    }
    g_frozen[g_nfrozen].lo = lo;
    g_frozen[g_nfrozen++].hi = lo + nbytes;
    Py_RETURN_NONE;
}

static int frozen(intptr_t lo, intptr_t hi)
{
    for (int i = 0; i < g_nfrozen; i++)
        if (g_frozen[i].lo <= lo && hi <= g_frozen[i].hi)
            return 1;
    return 0;
}

/* An array member of jitclass instance inst (numjit.jitclass: inst._nj_values.arrays) that a
 * is exactly (a new reference), or NULL; *within gets (borrowed) a member whose memory holds
 * a's.  NULL without an error for anything else. */
static PyObject *member_array(PyObject *inst, const NjArray *a, PyObject **within)
{
    PyObject *vals = PyObject_GetAttrString(inst, "_nj_values");
    PyObject *arrs = vals ? PyObject_GetAttrString(vals, "arrays") : NULL;
    Py_XDECREF(vals);
    PyErr_Clear();
    PyObject *key, *v, *found = NULL;
    Py_ssize_t pos = 0;
    intptr_t lo = 0, hi = 0, mlo = 0, mhi = 0;
    int has_span = span(a, &lo, &hi);
    while (arrs && PyDict_Check(arrs) && !found && PyDict_Next(arrs, &pos, &key, &v)) {
        Py_buffer b;
        if (v == Py_None || PyObject_GetBuffer(v, &b, PyBUF_RECORDS_RO) != 0) {
            PyErr_Clear();
            continue;
        }
        NjArray m = {.data = b.buf, .ndim = b.ndim, .dtype = a->dtype};
        for (int i = 0; i < b.ndim && i < NJ_MAX_NDIM; i++) {
            m.shape[i] = b.shape[i];
            m.strides[i] = b.strides ? b.strides[i] : (int64_t)b.itemsize;
        }
        if (b.ndim <= NJ_MAX_NDIM && same_array(a, &m))
            found = Py_NewRef(v);
        else if (b.ndim <= NJ_MAX_NDIM && has_span && span(&m, &mlo, &mhi) && mlo <= lo &&
                 hi <= mhi)
            *within = v; /* the dict and the instance keep it alive while we box */
        PyBuffer_Release(&b);
    }
    Py_XDECREF(arrs);
    return found;
}

PyObject *box_array(NjArray *a, PyObject *args, const ArgSlot *slots, const uint32_t *codes,
                    int n)
{
    if (a->owner)
        return wrap(a, NULL, 0);
    intptr_t lo = 0, hi = 0, alo = 0, ahi = 0;
    int has_span = span(a, &lo, &hi);
    PyObject *base = args;
    for (int i = 0; i < n; i++) {
        if (CODE_KIND(codes[i]) == K_TUPLE) /* an array of a tuple argument comes back as itself */
            for (int k = 0; k < slots[i].nsub; k++)
                if (slots[i].sub[k].arr.data && same_array(a, &slots[i].sub[k].arr))
                    return Py_NewRef(slots[i].sub[k].obj);
        if (CODE_KIND(codes[i]) == K_RECORD) { /* an array member of a jitclass instance */
            PyObject *within = NULL, *m = member_array(PyTuple_GetItem(args, i), a, &within);
            if (m)
                return m;
            if (within) {
                base = within;
                break;
            }
            continue;
        }
        if (CODE_KIND(codes[i]) != K_ARRAY && CODE_KIND(codes[i]) != K_RECARRAY)
            continue;
        PyObject *arg = PyTuple_GetItem(args, i);
        if (same_array(a, &slots[i].arr))
            return Py_NewRef(arg);
        if (has_span && span(&slots[i].arr, &alo, &ahi) && alo <= lo && hi <= ahi) {
            base = arg;
            break;
        }
    }
    if (base == args && has_span && frozen(lo, hi))
        return wrap(a, NULL, 1);
    return wrap(a, base, base == args ? 0 : !writable(base));
}

/* A list of strings (dtype NJ_DTYPE_COUNT: NjStr items, numjit.h): a str of each item's text;
 * the list (and with it the items) released. */
static PyObject *box_str_list(NjArray *a)
{
    PyObject *l = PyList_New(a->shape[0]);
    const NjStr *items = (const NjStr *)a->data;
    for (int64_t i = 0; l && i < a->shape[0]; i++) {
        PyObject *s = PyUnicode_DecodeUTF8(items[i].data, (Py_ssize_t)items[i].nbytes, NULL);
        if (!s)
            Py_CLEAR(l);
        else
            PyList_SetItem(l, (Py_ssize_t)i, s); /* steals s */
    }
    nj_array_release(a);
    return l;
}

PyObject *box_list(NjArray *a)
{
    if (a->dtype == NJ_DTYPE_COUNT)
        return box_str_list(a);
    if (a->shape[0] == 0) { /* no items: nothing to view (the items' address may be NULL) */
        nj_array_release(a);
        return PyList_New(0);
    }
    PyObject *arr = wrap(a, NULL, 0);
    if (!arr)
        return NULL;
    PyObject *l = PyObject_CallMethod(arr, "tolist", NULL);
    Py_DECREF(arr);
    return l;
}
