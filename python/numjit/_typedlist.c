/* _typedlist.c — the storage of numba.typed.List: a Python object holding the NjList compiled
 * code works on (numjit.h; codegen/list.c), so a typed list crosses into compiled functions
 * without a copy.
 *
 * numjit.typed.List is a Python class (a MutableSequence) whose base is the type made here,
 * TypedListBase: one reference to an NjList, the item code (an NjDType, or NJ_DTYPE_COUNT for
 * str; -1 while untyped, `List()` before its first item) and, for a list of str, a Python list
 * keeping alive the str objects whose UTF-8 text the items stored from Python borrow (owner
 * NULL, as a str argument's; strings compiled code stores own their text).  The items block is
 * malloc'ed and grows by realloc, as compiled code grows it; the NjList's destructor (ours, or
 * the one compiled code installs when it grows the list) frees it with the list's last
 * reference.  A typed list argument crosses as the NjList itself (code K_TLIST, spelled
 * `reflected list(float64)` as a list argument is, so one specialization serves both) and is
 * not reflected afterwards: compiled code changed the very items Python reads.  Items go in
 * cast as Numba's typed list casts them (typed_item_unbox, _typeddict.c).  The methods here are
 * the core over positions 0 <= i < len (typed.py normalizes indices and slices, and writes the
 * rest of the sequence interface).
 */
#include "_numjit.h"

typedef struct TypedListObject {
    PyObject_HEAD
    NjList *l; /* NULL until typed */
    int it;
    PyObject *keep; /* a list of str: the str objects its items borrow from */
} TypedListObject;

static PyTypeObject *g_typedlist_base;

static size_t item_size(int it)
{
    return it == NJ_DTYPE_COUNT ? sizeof(NjStr) : (size_t)nj_dtype_size((NjDType)it);
}

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
    if (l && __atomic_fetch_sub(&l->refcount, 1, __ATOMIC_ACQ_REL) == 1) {
        if (l->dtor)
            l->dtor(l);
        free(l);
    }
}

static char *at(TypedListObject *self, Py_ssize_t i)
{
    return (char *)self->l->items + (size_t)i * item_size(self->it);
}

/* Room for n items; -1 with MemoryError. */
static int reserve(TypedListObject *self, int64_t n)
{
    NjList *l = self->l;
    if (n <= l->capacity)
        return 0;
    int64_t cap = l->capacity * 2 > n ? l->capacity * 2 : n < 4 ? 4 : n;
    void *items = realloc(l->items, (size_t)cap * item_size(self->it));
    if (!items) {
        PyErr_NoMemory();
        return -1;
    }
    l->items = items;
    l->capacity = cap;
    return 0;
}

/* o as an item at out (a str also kept alive by the list); -1 with an exception. */
static int unbox(TypedListObject *self, PyObject *o, void *out)
{
    if (self->it < 0) {
        PyErr_SetString(g_typing_error, "numjit: an untyped numba.typed.List gets its item type "
                        "from typed.py before its first item");
        return -1;
    }
    if (typed_item_unbox(o, self->it, out) != 0)
        return -1;
    if (self->it == NJ_DTYPE_COUNT) {
        if (!self->keep && !(self->keep = PyList_New(0)))
            return -1;
        return PyList_Append(self->keep, o);
    }
    return 0;
}

static void drop(TypedListObject *self, void *item)
{
    if (self->it == NJ_DTYPE_COUNT)
        nj_str_release(item);
}

static PyObject *tl_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)args;
    (void)kwds;
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    TypedListObject *self = (TypedListObject *)alloc(type, 0);
    if (self) {
        self->l = NULL;
        self->it = -1;
        self->keep = NULL;
    }
    return (PyObject *)self;
}

static void tl_dealloc(PyObject *o)
{
    PyTypeObject *tp = Py_TYPE(o);
    TypedListObject *self = (TypedListObject *)o;
    list_release(self->l);
    self->l = NULL;
    Py_CLEAR(self->keep);
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(o);
    Py_DECREF(tp);
}

static Py_ssize_t tl_len(PyObject *o)
{
    TypedListObject *self = (TypedListObject *)o;
    return self->l ? (Py_ssize_t)self->l->size : 0;
}

/* _set_type(code): a new empty list of items of this code. */
static PyObject *tl_set_type(PyObject *o, PyObject *arg)
{
    TypedListObject *self = (TypedListObject *)o;
    long it = PyLong_AsLong(arg);
    if (it == -1 && PyErr_Occurred())
        return NULL;
    if (it < 0 || it > NJ_DTYPE_COUNT) {
        PyErr_SetString(PyExc_ValueError, "not an item code");
        return NULL;
    }
    NjList *l = malloc(sizeof *l);
    if (!l)
        return PyErr_NoMemory();
    *l = (NjList){.refcount = 1, .nbytes = 24,
                  .dtor = it == NJ_DTYPE_COUNT ? str_items_free : items_free};
    list_release(self->l);
    Py_CLEAR(self->keep);
    self->l = l;
    self->it = (int)it;
    Py_RETURN_NONE;
}

static PyObject *tl_item_code(PyObject *o, PyObject *unused)
{
    (void)unused;
    TypedListObject *self = (TypedListObject *)o;
    if (self->it < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(self->it);
}

static int index_arg(TypedListObject *self, PyObject *arg, Py_ssize_t *i, int end)
{
    *i = PyLong_AsSsize_t(arg);
    if (*i == -1 && PyErr_Occurred())
        return -1;
    if (*i < 0 || *i > tl_len((PyObject *)self) - (end ? 0 : 1)) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return -1;
    }
    return 0;
}

static PyObject *tl_get(PyObject *o, PyObject *arg)
{
    TypedListObject *self = (TypedListObject *)o;
    Py_ssize_t i;
    if (index_arg(self, arg, &i, 0) != 0)
        return NULL;
    return typed_item_box(self->it, at(self, i));
}

/* _set(i, value) */
static PyObject *tl_set(PyObject *o, PyObject *args)
{
    TypedListObject *self = (TypedListObject *)o;
    PyObject *ix, *v;
    Py_ssize_t i;
    _Alignas(16) unsigned char item[sizeof(NjStr)], old[sizeof(NjStr)];
    if (!PyArg_ParseTuple(args, "OO", &ix, &v) || index_arg(self, ix, &i, 0) != 0 ||
        unbox(self, v, item) != 0)
        return NULL;
    size_t es = item_size(self->it);
    memcpy(old, at(self, i), es);
    memcpy(at(self, i), item, es);
    drop(self, old);
    Py_RETURN_NONE;
}

/* _insert(i, value), 0 <= i <= len */
static PyObject *tl_insert(PyObject *o, PyObject *args)
{
    TypedListObject *self = (TypedListObject *)o;
    PyObject *ix, *v;
    Py_ssize_t i;
    _Alignas(16) unsigned char item[sizeof(NjStr)];
    if (!PyArg_ParseTuple(args, "OO", &ix, &v) || index_arg(self, ix, &i, 1) != 0 ||
        unbox(self, v, item) != 0 || reserve(self, self->l->size + 1) != 0)
        return NULL;
    size_t es = item_size(self->it);
    memmove(at(self, i + 1), at(self, i), (size_t)(self->l->size - i) * es);
    memcpy(at(self, i), item, es);
    self->l->size++;
    Py_RETURN_NONE;
}

static PyObject *tl_append(PyObject *o, PyObject *v)
{
    TypedListObject *self = (TypedListObject *)o;
    _Alignas(16) unsigned char item[sizeof(NjStr)];
    if (unbox(self, v, item) != 0 || reserve(self, self->l->size + 1) != 0)
        return NULL;
    memcpy(at(self, (Py_ssize_t)self->l->size), item, item_size(self->it));
    self->l->size++;
    Py_RETURN_NONE;
}

/* _delete(i): removes item i. */
static PyObject *tl_delete(PyObject *o, PyObject *arg)
{
    TypedListObject *self = (TypedListObject *)o;
    Py_ssize_t i;
    if (index_arg(self, arg, &i, 0) != 0)
        return NULL;
    size_t es = item_size(self->it);
    drop(self, at(self, i));
    memmove(at(self, i), at(self, i + 1), (size_t)(self->l->size - i - 1) * es);
    self->l->size--;
    Py_RETURN_NONE;
}

static PyObject *tl_clear(PyObject *o, PyObject *unused)
{
    (void)unused;
    TypedListObject *self = (TypedListObject *)o;
    for (int64_t i = 0; self->l && i < self->l->size; i++)
        drop(self, at(self, (Py_ssize_t)i));
    if (self->l)
        self->l->size = 0;
    Py_RETURN_NONE;
}

static PyObject *tl_items(PyObject *o, PyObject *unused)
{
    (void)unused;
    TypedListObject *self = (TypedListObject *)o;
    Py_ssize_t n = tl_len(o);
    PyObject *r = PyList_New(n);
    for (Py_ssize_t i = 0; r && i < n; i++) {
        PyObject *x = typed_item_box(self->it, at(self, i));
        if (!x) {
            Py_CLEAR(r);
            break;
        }
        PyList_SetItem(r, i, x);
    }
    return r;
}

static PyObject *tl_iter(PyObject *o)
{
    PyObject *items = tl_items(o, NULL);
    if (!items)
        return NULL;
    PyObject *it = PyObject_GetIter(items);
    Py_DECREF(items);
    return it;
}

static PyMethodDef tl_methods[] = {
    {"_set_type", tl_set_type, METH_O, "a new empty list of items of this code"},
    {"_item_code", tl_item_code, METH_NOARGS, "the item code, or None"},
    {"_get", tl_get, METH_O, "item i (0 <= i < len)"},
    {"_set", tl_set, METH_VARARGS, "item i = value"},
    {"_insert", tl_insert, METH_VARARGS, "value inserted before position i (0 <= i <= len)"},
    {"_delete", tl_delete, METH_O, "removes item i"},
    {"_items", tl_items, METH_NOARGS, "the items, as a Python list"},
    {"append", tl_append, METH_O, "appends value"},
    {"clear", tl_clear, METH_NOARGS, "removes every item"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot tl_slots[] = {
    {Py_tp_new, (void *)tl_new},
    {Py_tp_dealloc, (void *)tl_dealloc},
    {Py_tp_iter, (void *)tl_iter},
    {Py_tp_methods, tl_methods},
    {Py_sq_length, (void *)tl_len},
    {Py_tp_doc, (void *)"The storage of numba.typed.List: the NjList compiled code works on."},
    {0, NULL},
};

static PyType_Spec tl_spec = {
    "numjit._numjit.TypedListBase",
    sizeof(TypedListObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    tl_slots,
};

int typedlist_add_type(PyObject *module)
{
    g_typedlist_base = (PyTypeObject *)PyType_FromSpec(&tl_spec);
    if (!g_typedlist_base)
        return -1;
    Py_INCREF((PyObject *)g_typedlist_base);
    if (PyModule_AddObject(module, "TypedListBase", (PyObject *)g_typedlist_base) != 0) {
        Py_DECREF((PyObject *)g_typedlist_base);
        return -1;
    }
    return 0;
}

int typedlist_check(PyObject *o)
{
    return g_typedlist_base && PyObject_TypeCheck(o, g_typedlist_base);
}

/* A typed list argument: its NjList itself (code K_TLIST). */
int typedlist_classify(PyObject *o, int idx, uint32_t *code, void **ptr)
{
    TypedListObject *self = (TypedListObject *)o;
    (void)idx;
    if (self->it < 0 || !self->l) { /* Numba: typeof of an untyped List fails so */
        PyErr_SetString(PyExc_TypeError, "invalid operation on untyped list");
        return -1;
    }
    *code = CODE(K_TLIST, self->it, 0, 0);
    *ptr = self->l;
    return 0;
}
