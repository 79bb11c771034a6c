/* _npufunc.c — numpy.ufunc objects over numjit's compiled loops.
 *
 * @vectorize and @guvectorize give real NumPy ufuncs, built the way NumPy's own C extensions
 * build theirs: PyUFunc_FromFuncAndDataAndSignatureAndIdentity (entry 42 of NumPy's ufunc
 * C-API table, the _UFUNC_API capsule of numpy.core._multiarray_umath, in NumPy 1.16 to 2.x)
 * with one inner loop per signature.  numjit's loops already have NumPy's inner-loop shape
 * (char **args, npy_intp *dims, npy_intp *steps, void *data; nj_ufunc_numpy_loop), so they are
 * registered as they are; everything around a loop (broadcasting, casting, buffering, out=,
 * where=, reduce/accumulate/outer/at, __array_ufunc__, subclasses) is then NumPy's own.
 *
 * Which loop a call runs must be Numba's: its ufuncs search their signatures in declared
 * order with 'safe' casting (float32 inputs run a float64 loop listed first), because Numba
 * creates the ufunc with no loops and then fills in the loop arrays (functions, data, types,
 * ntypes), so NumPy >= 1.21 knows no exact-dtype loops and asks its legacy type resolver,
 * which is that linear search.  A ufunc created with its loops instead registers each as an
 * exact match that wins over declared order.  So this file does as Numba does: the ufunc is
 * created empty and the leading fields of NumPy's PyUFuncObject (NpUfuncHead below, the same
 * in NumPy 1.x and 2.x) are filled in, a gufunc's outputs flagged read-write as Numba flags
 * them, after a probe at the first use checked that a ufunc
 * created with a loop shows it at those offsets; if the probe fails, loops are passed to the
 * constructor (exact-dtype matches first; a documented difference).
 *
 * NumPy keeps the arrays (loops, data, type numbers, name, doc) without copying them, so they
 * live in one block owned by a capsule: NumPy's `obj` field (released when the ufunc is
 * freed) holds it where the probe passed, else ufunc.py keeps it for the process's life.
 */
#include "_numjit.h"

typedef void (*NpLoop)(char **args, Py_ssize_t *dims, Py_ssize_t *steps, void *data);
typedef PyObject *(*FromFuncFn)(NpLoop *func, void **data, char *types, int ntypes, int nin,
                                int nout, int identity, const char *name, const char *doc,
                                int unused, const char *signature, PyObject *identity_value);

static FromFuncFn g_from_func;
static int g_fields_ok; /* the probe saw NpUfuncHead's layout */

/* The leading fields of NumPy's PyUFuncObject (numpy/ufuncobject.h, unchanged from 1.7 to 2.x). */
typedef struct NpUfuncHead {
    PyObject_HEAD
    int nin, nout, nargs;
    int identity;
    NpLoop *functions;
    void **data;
    int ntypes;
    int reserved1;
    const char *name;
    char *types;
    const char *doc;
    void *ptr;
    PyObject *obj;
    PyObject *userloops;
    int core_enabled, core_num_dim_ix;
    int *core_num_dims, *core_dim_ixs, *core_offsets;
    char *core_signature;
    void *type_resolver, *legacy_inner_loop_selector, *reserved2, *masked_inner_loop_selector;
    uint32_t *op_flags; /* per operand: NpyIter flags added to the defaults */
    uint32_t iter_flags;
} NpUfuncHead;

/* NpyIter's operand flags (numpy/ndarraytypes.h) that Numba gives every output and numjit
 * gives a gufunc's: its kernel may read its outputs and reads whole core arrays, so NumPy must
 * copy an output that overlaps an input instead of assuming an elementwise operation.  (On a
 * plain ufunc they would also make where= fail in NumPy's iterator, as it does for Numba's.) */
#define NPY_ITER_READWRITE 0x00010000u
#define NPY_ITER_UPDATEIFCOPY 0x00800000u
#define NPY_ITER_ALLOCATE 0x01000000u

static void probe_loop(char **args, Py_ssize_t *dims, Py_ssize_t *steps, void *data)
{
    (void)args, (void)dims, (void)steps, (void)data;
}

/* Creates a one-loop ufunc through the API and checks that NpUfuncHead reads it back. */
static int probe_fields(void)
{
    static NpLoop funcs[1] = {probe_loop};
    static void *data[1] = {(void *)&g_fields_ok};
    static char types[2] = {12, 12}; /* NPY_DOUBLE */
    static const char name[] = "numjit_probe", doc[] = "";
    PyObject *u = g_from_func(funcs, data, types, 1, 1, 1, -1, name, doc, 0, "(n)->(n)", NULL);
    if (!u)
        return -1;
    const NpUfuncHead *h = (const NpUfuncHead *)u;
    g_fields_ok = h->nin == 1 && h->nout == 1 && h->nargs == 2 && h->functions == funcs &&
                  h->data == data && h->ntypes == 1 && h->types == types && h->name == name &&
                  h->obj == NULL && h->core_enabled == 1 && h->core_num_dim_ix == 1 &&
                  h->core_signature && !strcmp(h->core_signature, "(n)->(n)") && h->op_flags &&
                  h->op_flags[0] == 0 && h->op_flags[1] == 0;
    Py_DECREF(u);
    return 0;
}

typedef struct NpBlock {
    int n, nargs;
    NpLoop *funcs;
    void **data;
    char *types;
    char *name, *doc, *signature;
} NpBlock;

static void block_free(PyObject *capsule)
{
    NpBlock *b = PyCapsule_GetPointer(capsule, "numjit.npufunc");
    if (!b)
        return;
    free(b->funcs);
    free(b->data);
    free(b->types);
    free(b->name);
    free(b->doc);
    free(b->signature);
    free(b);
}

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int load_table(void)
{
    if (g_from_func)
        return 0;
    /* NumPy 2's name first: under NumPy 2 the 1.x path is a shim that warns (an error where
     * warnings are errors, as in test runners) and may be gone in later releases */
    PyObject *m = PyImport_ImportModule("numpy._core._multiarray_umath");
    if (!m) {
        PyErr_Clear();
        m = PyImport_ImportModule("numpy.core._multiarray_umath");
    }
    if (!m)
        return -1;
    PyObject *cap = PyObject_GetAttrString(m, "_UFUNC_API");
    Py_DECREF(m);
    if (!cap)
        return -1;
    void **api = PyCapsule_GetPointer(cap, NULL);
    Py_DECREF(cap);
    if (!api)
        return -1;
    g_from_func = (FromFuncFn)api[42];
    if (probe_fields() != 0) {
        g_from_func = NULL;
        return -1;
    }
    return 0;
}

/* A capsule owning a block with the loops of list `loops` ((loop, data) address pairs) and
 * their type numbers (bytes, nargs per loop), plus copies of name/doc/signature (NULL: none).
 * NULL with an exception set on bad arguments. */
static PyObject *make_block(int nargs, PyObject *types, PyObject *loops, const char *name,
                            const char *doc, const char *signature, NpBlock **out)
{
    Py_ssize_t n = PyList_Size(loops);
    if (nargs < 2 || nargs > 32 || PyBytes_Size(types) != n * nargs) {
        PyErr_SetString(PyExc_ValueError, "numjit: _numpy_ufunc: types do not match the loops");
        return NULL;
    }
    NpBlock *b = calloc(1, sizeof *b);
    if (!b)
        return PyErr_NoMemory();
    b->n = (int)n;
    b->nargs = nargs;
    b->funcs = calloc((size_t)n + 1, sizeof *b->funcs);
    b->data = calloc((size_t)n + 1, sizeof *b->data);
    b->types = calloc((size_t)(n * nargs) + 1, 1);
    b->name = dup_or_null(name);
    b->doc = dup_or_null(doc);
    b->signature = dup_or_null(signature);
    PyObject *cap = PyCapsule_New(b, "numjit.npufunc", block_free);
    if (!cap) {
        free(b->funcs), free(b->data), free(b->types), free(b->name), free(b->doc);
        free(b->signature), free(b);
        return NULL;
    }
    if (!b->funcs || !b->data || !b->types || (name && !b->name) || (doc && !b->doc) ||
        (signature && !b->signature)) {
        Py_DECREF(cap);
        return PyErr_NoMemory();
    }
    memcpy(b->types, PyBytes_AsString(types), (size_t)(n * nargs));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *fn, *data;
        if (!PyArg_ParseTuple(PyList_GetItem(loops, i), "OO", &fn, &data)) {
            Py_DECREF(cap);
            return NULL;
        }
        b->funcs[i] = (NpLoop)PyLong_AsVoidPtr(fn);
        b->data[i] = data == Py_None ? NULL : PyLong_AsVoidPtr(data);
        if (PyErr_Occurred()) {
            Py_DECREF(cap);
            return NULL;
        }
    }
    *out = b;
    return cap;
}

/* Points ufunc u at the loops of block b (Numba's way of adding loops; see the file doc). */
static void set_loops(PyObject *u, const NpBlock *b)
{
    NpUfuncHead *h = (NpUfuncHead *)u;
    h->functions = b->funcs;
    h->data = b->data;
    h->types = b->types;
    h->ntypes = b->n;
}

/* _numpy_ufunc(name, doc, nin, nout, identity, identity_value, signature, types, loops)
 *   -> (ufunc, keepalive).  types: bytes of NumPy type numbers, nin+nout per loop; loops: a
 *   list of (loop, data) address pairs; identity: NumPy's code (PyUFunc_Zero 0, One 1, None -1,
 *   ReorderableNone -2, IdentityValue -3 with identity_value).  keepalive is None when the
 *   ufunc holds its arrays itself (its obj field), else the capsule to keep. */
PyObject *mod_numpy_ufunc(PyObject *self, PyObject *args)
{
    const char *name, *doc, *signature = NULL;
    int nin, nout, identity;
    PyObject *ident_value, *sig_obj, *types, *loops;
    if (!PyArg_ParseTuple(args, "ssiiiOOO!O!", &name, &doc, &nin, &nout, &identity,
                          &ident_value, &sig_obj, &PyBytes_Type, &types, &PyList_Type, &loops))
        return NULL;
    if (sig_obj != Py_None && !(signature = PyUnicode_AsUTF8AndSize(sig_obj, NULL)))
        return NULL;
    /* a gufunc may have no output ("(a),(a),(z)": the kernel writes into an argument) */
    if (nin < 1 || nout < (signature ? 0 : 1) || load_table() != 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "numjit: _numpy_ufunc: nin >= 1 and nout >= 1 "
                                              "(>= 0 for a gufunc) are needed");
        return NULL;
    }
    NpBlock *b;
    PyObject *cap = make_block(nin + nout, types, loops, name, doc, signature, &b);
    if (!cap)
        return NULL;
    PyObject *idv = identity == -3 ? ident_value : NULL;
    PyObject *uf;
    /* Numba's @guvectorize with signatures passes its loops to the constructor, so a loop of
     * the inputs' exact dtypes wins over declared order (float32 inputs run a float32 loop
     * listed after a float64 one); its @vectorize fills them in afterwards (linear search). */
    bool exact_first = signature && b->n > 0;
    if (!g_fields_ok || exact_first) {
        uf = g_from_func(b->funcs, b->data, b->types, b->n, nin, nout, identity, b->name,
                         b->doc, 0, b->signature, idv);
        if (!uf || !g_fields_ok)
            return uf ? Py_BuildValue("(NN)", uf, cap) : (Py_DECREF(cap), NULL);
    } else {
        uf = g_from_func(NULL, NULL, NULL, 0, nin, nout, identity, b->name, b->doc, 0,
                         b->signature, idv);
        if (!uf) {
            Py_DECREF(cap);
            return NULL;
        }
        set_loops(uf, b);
    }
    NpUfuncHead *h = (NpUfuncHead *)uf;
    h->obj = cap; /* the reference passes to the ufunc */
    for (int k = nin; k < nin + nout && signature; k++)
        h->op_flags[k] = NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY | NPY_ITER_ALLOCATE;
    return Py_BuildValue("(NO)", uf, Py_None);
}

/* _numpy_ufunc_set_loops(ufunc, types, loops) -> keepalive: gives a ufunc made by
 * _numpy_ufunc a new list of loops in place (a dynamic ufunc's new loop, as Numba's DUFunc
 * adds one), or returns None where the probe failed (the caller then builds a new ufunc).
 * The previous arrays may still be in use by a call on another thread: the caller keeps every
 * keepalive returned as long as the ufunc. */
PyObject *mod_numpy_ufunc_set_loops(PyObject *self, PyObject *args)
{
    PyObject *uf, *types, *loops;
    if (!PyArg_ParseTuple(args, "OO!O!", &uf, &PyBytes_Type, &types, &PyList_Type, &loops))
        return NULL;
    if (load_table() != 0)
        return NULL;
    if (!g_fields_ok)
        Py_RETURN_NONE;
    PyObject *mod = PyObject_GetAttrString(uf, "nargs");
    long nargs = mod ? PyLong_AsLong(mod) : -1;
    Py_XDECREF(mod);
    if (nargs < 0)
        return NULL;
    NpBlock *b;
    PyObject *cap = make_block((int)nargs, types, loops, NULL, NULL, NULL, &b);
    if (!cap)
        return NULL;
    set_loops(uf, b);
    return cap;
}
