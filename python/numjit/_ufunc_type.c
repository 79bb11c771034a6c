/* _ufunc_type.c — the Ufunc type of the _numjit extension apart from its call path
 * (_ufunc.c): outputs allocated with NumPy's own allocator (PyArray_NewFromDescr, taken from
 * NumPy's C-API capsule once probe arrays show it matches numpy.empty), the methods that bind
 * the library's ufunc and serve reduce, result dtypes and numpy.ufunc's loops, the type's
 * spec, and the module functions that configure it and the thread pool.
 */
#include "_ufunc.h"

PyObject *g_np_empty, *g_np_asarray, *g_order_f;
PyObject *g_np_dtypes[NJ_DTYPE_COUNT];
NewFromDescrFn g_new_from_descr;

/* A new C- or F-ordered array: NumPy's PyArray_NewFromDescr when verified, else numpy.empty. */
PyObject *uf_new_array(const int64_t *shape, int nd, NjDType dt, int order_f)
{
    if (g_new_from_descr && nd <= NJ_MAX_NDIM) {
        Py_ssize_t dims[NJ_MAX_NDIM];
        for (int d = 0; d < nd; d++)
            dims[d] = (Py_ssize_t)shape[d];
        Py_INCREF(g_np_dtypes[dt]); /* stolen */
        return g_new_from_descr(g_ndarray_type, g_np_dtypes[dt], nd, dims, NULL, NULL, order_f,
                                NULL);
    }
    PyObject *shp = PyTuple_New(nd);
    if (!shp)
        return NULL;
    for (int d = 0; d < nd; d++)
        PyTuple_SetItem(shp, d, PyLong_FromLongLong(shape[d]));
    PyObject *o;
    if (order_f) {
        PyObject *a = PyTuple_Pack(2, shp, g_np_dtypes[dt]);
        o = a ? PyObject_Call(g_np_empty, a, g_order_f) : NULL;
        Py_XDECREF(a);
    } else {
        o = PyObject_CallFunctionObjArgs(g_np_empty, shp, g_np_dtypes[dt], NULL);
    }
    Py_DECREF(shp);
    return o;
}

/* numpy.empty(shape, dtype[, order='F']) and its NjArray. New reference, or NULL. */
PyObject *uf_empty(const int64_t *shape, int nd, NjDType dt, int order_f, NjArray *arr)
{
    PyObject *o = uf_new_array(shape, nd, dt, order_f);
    if (!o)
        return NULL;
    ArgSlot slot;
    if (uf_out_array(o, 0, &slot, arr) != 0) {
        Py_DECREF(o);
        return NULL;
    }
    release_slots(&slot, 1);
    return o;
}

static PyObject *ufunc_bind(PyObject *self, PyObject *args)
{
    UfuncObject *f = (UfuncObject *)self;
    PyObject *mod, *sigs, *layout;
    const char *name;
    int target;
    if (!PyArg_ParseTuple(args, "O!sO!Oi", g_module_type, &mod, &name, &PyList_Type, &sigs,
                          &layout, &target))
        return NULL;
    if (f->u)
        Py_RETURN_NONE;
    Py_ssize_t ns = PyList_Size(sigs);
    if (ns > 64) {
        PyErr_SetString(PyExc_ValueError, "numjit: at most 64 signatures");
        return NULL;
    }
    const char *sv[64];
    for (Py_ssize_t i = 0; i < ns; i++)
        if (!(sv[i] = PyUnicode_AsUTF8AndSize(PyList_GetItem(sigs, i), NULL)))
            return NULL;
    const char *lay = NULL;
    if (layout != Py_None && !(lay = PyUnicode_AsUTF8AndSize(layout, NULL)))
        return NULL;
    NjUfunc *u;
    NjStatus st = nj_ufunc_new(((ModuleObject *)mod)->mod, name, sv, (int)ns, lay,
                               (NjTarget)target, &u);
    if (st != NJ_OK)
        return raise_status(st);
    if (nj_ufunc_nin(u) + nj_ufunc_nout(u) > UF_MAX) {
        PyErr_SetString(g_unsupported_error, "numjit: a ufunc takes at most 16 arguments");
        return NULL;
    }
    Py_INCREF(mod);
    PyObject *old = f->module_ref;
    f->module_ref = mod;
    Py_XDECREF(old);
    f->u = u;
    f->nin = nj_ufunc_nin(u);
    f->nout = nj_ufunc_nout(u);
    f->gufunc = lay != NULL;
    Py_RETURN_NONE;
}

static PyObject *ufunc_is_bound(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(((UfuncObject *)self)->u != NULL);
}

static PyObject *ufunc_nargs(PyObject *self, PyObject *unused)
{
    UfuncObject *f = (UfuncObject *)self;
    return Py_BuildValue("(ii)", f->nin, f->nout);
}

/* _reduce(array, axis, out): nj_ufunc_reduce into out (an ndarray of the result's dtype). */
static PyObject *ufunc_reduce_c(PyObject *self, PyObject *args)
{
    UfuncObject *f = (UfuncObject *)self;
    PyObject *a, *o;
    int axis;
    if (!PyArg_ParseTuple(args, "OiO", &a, &axis, &o))
        return NULL;
    if (!f->u) {
        PyErr_SetString(g_numjit_error, "numjit: ufunc is not bound");
        return NULL;
    }
    ArgSlot s1, s2;
    uint32_t code;
    void *p;
    s1.has_buf = s2.has_buf = 0;
    NjArray out;
    if (classify(a, 0, &s1, &code, &p) != 0 || CODE_KIND(code) != K_ARRAY) {
        release_slots(&s1, 1);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "reduce: the input must be an array");
        return NULL;
    }
    if (uf_out_array(o, 0, &s2, &out) != 0) {
        release_slots(&s1, 1);
        return NULL;
    }
    NjStatus st;
    NjUfunc *u = f->u;
    NjArray in = s1.arr;
    Py_BEGIN_ALLOW_THREADS
    st = nj_ufunc_reduce(u, &in, axis, &out);
    Py_END_ALLOW_THREADS
    release_slots(&s1, 1);
    release_slots(&s2, 1);
    if (st != NJ_OK)
        return uf_raise(st);
    Py_RETURN_NONE;
}

/* _result_dtype(dtype_a, dtype_b) -> the output dtype of the loop for arrays of these dtypes
 * (compiles it); for reduce. */
static PyObject *ufunc_result_dtype(PyObject *self, PyObject *args)
{
    UfuncObject *f = (UfuncObject *)self;
    int da, db;
    if (!PyArg_ParseTuple(args, "ii", &da, &db))
        return NULL;
    if (!f->u || f->nin != 2 || f->nout != 1 || da < 0 || db < 0 || da >= NJ_DTYPE_COUNT ||
        db >= NJ_DTYPE_COUNT) {
        PyErr_SetString(PyExc_ValueError, "numjit: _result_dtype needs a bound binary ufunc");
        return NULL;
    }
    static int64_t one = 1;
    int64_t shp[1] = {1};
    NjArray ins[2] = {nj_array_c(&one, (NjDType)da, 1, shp), nj_array_c(&one, (NjDType)db, 1, shp)};
    NjArray out;
    memset(&out, 0, sizeof out);
    NjStatus st;
    NjUfunc *u = f->u;
    Py_BEGIN_ALLOW_THREADS
    st = nj_ufunc_resolve(u, ins, 2, &out, 1);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK)
        return uf_raise(st);
    return PyLong_FromLong((long)out.dtype);
}

/* _numpy_loop(sig, dtypes) -> (sig, dtypes, loop, data): the inner loop of signature sig (or,
 * sig < 0 on a dynamic ufunc, of a new one for the input dtypes given) for numpy.ufunc
 * (nj_ufunc_numpy_loop); loop and data as ints, dtypes as NjDType numbers of every argument. */
static PyObject *ufunc_numpy_loop(PyObject *self, PyObject *args)
{
    UfuncObject *f = (UfuncObject *)self;
    int sig;
    PyObject *dl;
    if (!PyArg_ParseTuple(args, "iO!", &sig, &PyList_Type, &dl))
        return NULL;
    if (!f->u) {
        PyErr_SetString(g_numjit_error, "numjit: ufunc is not bound");
        return NULL;
    }
    int na = f->nin + f->nout;
    NjDType dt[UF_MAX];
    for (int k = 0; k < na; k++) {
        long v = k < PyList_Size(dl) ? PyLong_AsLong(PyList_GetItem(dl, k)) : 0;
        if (v == -1 && PyErr_Occurred())
            return NULL;
        dt[k] = (NjDType)v;
    }
    NjUfuncLoop fn = NULL;
    void *data = NULL;
    NjStatus st;
    NjUfunc *u = f->u;
    Py_BEGIN_ALLOW_THREADS
    st = nj_ufunc_numpy_loop(u, &sig, dt, &fn, &data);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK)
        return uf_raise(st);
    PyObject *dts = PyList_New(na);
    for (int k = 0; dts && k < na; k++)
        PyList_SetItem(dts, k, PyLong_FromLong((long)dt[k]));
    if (!dts)
        return NULL;
    return Py_BuildValue("(iNNN)", sig, dts, PyLong_FromVoidPtr((void *)fn),
                         PyLong_FromVoidPtr(data));
}

static PyMethodDef ufunc_methods[] = {
    {"_numpy_loop", ufunc_numpy_loop, METH_VARARGS,
     "_numpy_loop(sig, dtypes) -> (sig, dtypes, loop, data) for numpy.ufunc."},
    {"_bind", ufunc_bind, METH_VARARGS,
     "_bind(module, name, sigs, layout, target): create the library's ufunc."},
    {"_is_bound", ufunc_is_bound, METH_NOARGS, "True once _bind succeeded."},
    {"_nargs", ufunc_nargs, METH_NOARGS, "(nin, nout) of the bound ufunc."},
    {"_reduce", ufunc_reduce_c, METH_VARARGS, "_reduce(array, axis, out)."},
    {"_result_dtype", ufunc_result_dtype, METH_VARARGS,
     "_result_dtype(dtype_a, dtype_b) -> output dtype number."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot ufunc_slots[] = {
    {Py_tp_dealloc, (void *)ufunc_dealloc},
    {Py_tp_call, (void *)ufunc_call},
    {Py_tp_methods, ufunc_methods},
    {Py_tp_new, (void *)PyType_GenericNew},
    {Py_tp_doc, (void *)"The compiled-call fast path of a numjit ufunc (see ufunc.py)."},
    {0, NULL},
};

PyType_Spec ufunc_spec = {
    "numjit._numjit.Ufunc", sizeof(UfuncObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    ufunc_slots,
};

/* Whether an array made by f matches numpy.empty(shape, dtype, order) in type, dtype, shape,
 * strides and flags. */
static int probe_new(NewFromDescrFn f, PyObject *dtype, int nd, Py_ssize_t *dims, int order_f)
{
    Py_INCREF(dtype);
    PyObject *a = f(g_ndarray_type, dtype, nd, dims, NULL, NULL, order_f, NULL);
    PyObject *shp = PyTuple_New(nd);
    for (int d = 0; shp && d < nd; d++)
        PyTuple_SetItem(shp, d, PyLong_FromSsize_t(dims[d]));
    PyObject *args = shp ? PyTuple_Pack(2, shp, dtype) : NULL;
    PyObject *b = args ? PyObject_Call(g_np_empty, args, order_f ? g_order_f : NULL) : NULL;
    int ok = a && b && Py_TYPE(a) == Py_TYPE(b) && Py_TYPE(a) == g_ndarray_type;
    if (ok) {
        const NpArrayHead *x = (const NpArrayHead *)a, *y = (const NpArrayHead *)b;
        ok = x->nd == y->nd && x->descr == y->descr && x->flags == y->flags && x->data;
        for (int d = 0; ok && d < nd; d++)
            ok = x->dimensions[d] == y->dimensions[d] && x->strides[d] == y->strides[d];
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(args);
    Py_XDECREF(shp);
    PyErr_Clear();
    return ok;
}

/* The PyArray_NewFromDescr of NumPy's C-API capsule, when it passes the checks above. */
static NewFromDescrFn take_new_from_descr(PyObject *capsule)
{
    if (!capsule || capsule == Py_None || !PyCapsule_CheckExact(capsule) || !g_fast_ndarray ||
        getenv("NUMJIT_NO_NUMPY_ALLOC"))
        return NULL;
    void **api = PyCapsule_GetPointer(capsule, NULL);
    if (!api) {
        PyErr_Clear();
        return NULL;
    }
    unsigned (*abi_version)(void) = (unsigned (*)(void))api[0];
    unsigned v = abi_version();
    if (!((v >= 0x01000009u && v < 0x01000100u) || (v >> 24) == 2))
        return NULL; /* a layout we have not seen: stay with numpy.empty */
    NewFromDescrFn f = (NewFromDescrFn)api[94];
    Py_ssize_t d1[1] = {7}, d3[3] = {2, 3, 4};
    for (int dt = 0; dt < NJ_DTYPE_COUNT; dt++)
        if (!probe_new(f, g_np_dtypes[dt], 1, d1, 0) || !probe_new(f, g_np_dtypes[dt], 3, d3, 0) ||
            !probe_new(f, g_np_dtypes[dt], 3, d3, 1))
            return NULL;
    return f;
}

/* _configure_ufunc(numpy.empty, numpy.asarray, dtypes[, array_api]): dtypes[k] is the
 * numpy.dtype of NjDType k; array_api NumPy's C-API capsule (or None). */
PyObject *mod_configure_ufunc(PyObject *self, PyObject *args)
{
    PyObject *empty, *asarray, *dts, *api = NULL;
    if (!PyArg_ParseTuple(args, "OOO!|O", &empty, &asarray, &PyTuple_Type, &dts, &api))
        return NULL;
    if (PyTuple_Size(dts) != NJ_DTYPE_COUNT) {
        PyErr_SetString(PyExc_ValueError, "numjit: one dtype per NjDType expected");
        return NULL;
    }
    if (!g_order_f) {
        g_order_f = Py_BuildValue("{s:s}", "order", "F");
        if (!g_order_f)
            return NULL;
    }
    Py_INCREF(empty);
    Py_INCREF(asarray);
    Py_XDECREF(g_np_empty);
    Py_XDECREF(g_np_asarray);
    g_np_empty = empty;
    g_np_asarray = asarray;
    for (int k = 0; k < NJ_DTYPE_COUNT; k++) {
        PyObject *d = PyTuple_GetItem(dts, k);
        Py_INCREF(d);
        Py_XDECREF(g_np_dtypes[k]);
        g_np_dtypes[k] = d;
    }
    g_new_from_descr = take_new_from_descr(api);
    return PyBool_FromLong(g_new_from_descr != NULL);
}

PyObject *mod_set_num_threads(PyObject *self, PyObject *args)
{
    int n;
    if (!PyArg_ParseTuple(args, "i", &n))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "the number of threads must be >= 0 (0: all cores)");
        return NULL;
    }
    nj_set_num_threads(n);
    Py_RETURN_NONE;
}

PyObject *mod_get_num_threads(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(nj_get_num_threads());
}

PyObject *mod_parfor_stats(PyObject *self, PyObject *unused)
{
    NjParforStats st;
    nj_parfor_stats(&st);
    return Py_BuildValue("{sLsLsisi}", "loops", (long long)st.loops, "pooled",
                         (long long)st.pooled, "chunks", st.chunks, "threads", st.threads);
}

