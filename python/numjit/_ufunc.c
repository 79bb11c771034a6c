/* _ufunc.c — the Ufunc type of the _numjit extension: the call path of @vectorize and
 * @guvectorize over nj_ufunc_call.  Its other methods, its spec, the allocation of outputs and
 * the module functions that configure it are _ufunc_type.c; _ufunc.h is private to the two.
 */
#include "_ufunc.h"

/* ---- Ufunc: the object behind @vectorize and @guvectorize -----------------------------------
 *
 * A Ufunc (subclassed in ufunc.py) wraps one NjUfunc.  A call runs, all in C on a hit:
 *
 *   1. classify each input with classify() above: an array of ndim >= 1 stays an array; a
 *      Python or NumPy scalar or a 0-d array is a *scalar* whose value is kept; anything else
 *      goes through numpy.asarray first (lists, tuples);
 *   2. build a key: per input (array or scalar, dtype, and for a scalar NumPy 1.x's value-based
 *      type: min_scalar_type and its "small unsigned" bit, and whether it is a Python number:
 *      NumPy 2's weak scalar), per output its dtype or "allocate";
 *   3. look the key up in the object's small cache; a miss asks ufunc.py's _resolve(desc),
 *      which runs NumPy's linear loop search with 'safe' casting and value-based scalars,
 *      and returns the chosen loop's input dtypes; nj_ufunc_resolve then compiles the loop
 *      (GIL released) and gives the output dtypes; the entry is cached;
 *   4. store each scalar converted to its loop dtype as a 0-d NjArray;
 *   5. allocate missing outputs with numpy.empty (NumPy's allocator: its huge-page advice and
 *      its memory accounting), shape from broadcasting the inputs here (ufuncs) or from
 *      nj_ufunc_resolve (gufuncs: core dimensions);
 *   6. nj_ufunc_call, with the GIL released for large problems; return the output (a NumPy
 *      scalar when it is 0-d and was allocated, as NumPy ufuncs do), the given out=, or a
 *      tuple for several outputs.
 */


void ufunc_dealloc(PyObject *self)
{
    UfuncObject *f = (UfuncObject *)self;
    free(f->cache);
    Py_CLEAR(f->module_ref);
    PyTypeObject *tp = Py_TYPE(self);
    freefunc tfree = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tfree(self);
    Py_DECREF(tp);
}

/* NumPy's min_scalar_type of a scalar value (NumPy 1.x's value-based casting). */
static int uf_min_unsigned(uint64_t u, int *small)
{
    if (u < 256) { *small = u < 128; return NJ_UINT8; }
    if (u < 65536) { *small = u < 32768; return NJ_UINT16; }
    if (u < 4294967296ull) { *small = u < 2147483648ull; return NJ_UINT32; }
    *small = u < 9223372036854775808ull;
    return NJ_UINT64;
}

static int uf_min_scalar(NjDType dt, const Scalar *s, int *small)
{
    *small = 0;
    int64_t v;
    double x;
    switch (dt) {
    case NJ_BOOL: return NJ_BOOL;
    case NJ_INT8: v = s->i8; break;
    case NJ_INT16: v = s->i16; break;
    case NJ_INT32: v = s->i32; break;
    case NJ_INT64: v = s->i64; break;
    case NJ_UINT8: return uf_min_unsigned(s->u8, small);
    case NJ_UINT16: return uf_min_unsigned(s->u16, small);
    case NJ_UINT32: return uf_min_unsigned(s->u32, small);
    case NJ_UINT64: return uf_min_unsigned(s->u64, small);
    case NJ_FLOAT32:
    case NJ_FLOAT64:
        x = dt == NJ_FLOAT32 ? (double)s->f32 : s->f64;
        if ((x > -65000 && x < 65000) || x != x || x - x != 0)
            return UF_F16;
        if (dt == NJ_FLOAT32 || (x > -3.4e38 && x < 3.4e38))
            return NJ_FLOAT32;
        return NJ_FLOAT64;
    default: return (int)dt;
    }
    if (v >= 0)
        return uf_min_unsigned((uint64_t)v, small);
    if (v >= -128) return NJ_INT8;
    if (v >= -32768) return NJ_INT16;
    if (v >= -2147483648ll) return NJ_INT32;
    return NJ_INT64;
}

/* A scalar of dtype `from` at p, converted to `to` at q (C casts, as NumPy's). */
static void uf_convert(NjDType from, const void *p, NjDType to, void *q)
{
    int isf = 0, isu = 0;
    double f = 0, im = 0;
    int64_t i = 0;
    uint64_t u = 0;
    switch (from) {
    case NJ_COMPLEX64: f = ((const float *)p)[0], im = ((const float *)p)[1]; isf = 1; break;
    case NJ_COMPLEX128: f = ((const double *)p)[0], im = ((const double *)p)[1]; isf = 1; break;
    case NJ_BOOL: i = *(const uint8_t *)p != 0; break;
    case NJ_INT8: i = *(const int8_t *)p; break;
    case NJ_INT16: i = *(const int16_t *)p; break;
    case NJ_INT32: i = *(const int32_t *)p; break;
    case NJ_INT64: i = *(const int64_t *)p; break;
    case NJ_UINT8: u = *(const uint8_t *)p; isu = 1; break;
    case NJ_UINT16: u = *(const uint16_t *)p; isu = 1; break;
    case NJ_UINT32: u = *(const uint32_t *)p; isu = 1; break;
    case NJ_UINT64: u = *(const uint64_t *)p; isu = 1; break;
    case NJ_FLOAT32: f = *(const float *)p; isf = 1; break;
    default: f = *(const double *)p; isf = 1; break;
    }
    if (isu)
        i = (int64_t)u;
    else if (!isf)
        u = (uint64_t)i;
    if (to == NJ_COMPLEX64 || to == NJ_COMPLEX128) {
        double d = isf ? f : isu ? (double)u : (double)i;
        if (to == NJ_COMPLEX64)
            ((float *)q)[0] = (float)d, ((float *)q)[1] = (float)im;
        else
            ((double *)q)[0] = d, ((double *)q)[1] = im;
        return;
    }
    if (to == NJ_FLOAT32 || to == NJ_FLOAT64) {
        double d = isf ? f : isu ? (double)u : (double)i;
        if (to == NJ_FLOAT32)
            *(float *)q = (float)d;
        else
            *(double *)q = d;
        return;
    }
    if (to == NJ_BOOL) {
        *(uint8_t *)q = isf ? f != 0 : u != 0;
        return;
    }
    if (isf) {
        i = (f != f || f >= 9.3e18 || f <= -9.3e18) ? INT64_MIN : (int64_t)f;
        u = (uint64_t)i;
    }
    switch (to) {
    case NJ_INT8: case NJ_UINT8: *(uint8_t *)q = (uint8_t)u; break;
    case NJ_INT16: case NJ_UINT16: *(uint16_t *)q = (uint16_t)u; break;
    case NJ_INT32: case NJ_UINT32: *(uint32_t *)q = (uint32_t)u; break;
    default: *(uint64_t *)q = u; break;
    }
}

/* Raises for a failed ufunc library call: argument problems (broadcasting, shapes) are
 * ValueError as in NumPy; the rest as raise_status. */
PyObject *uf_raise(NjStatus st)
{
    if (st == NJ_ERR_ARGS) {
        const char *msg = nj_error_message(g_ctx);
        PyErr_SetString(PyExc_ValueError, msg && *msg ? msg : nj_status_name(st));
        return NULL;
    }
    return raise_status(st);
}

/* Classifies input o into a. Returns 0, or -1 with an exception set. */
static int uf_classify_input(PyObject *o, int idx, UfArg *a)
{
    uint32_t code;
    void *ptr;
    a->slot.has_buf = 0;
    a->tmp = NULL;
    a->weak = PyFloat_CheckExact(o) || PyLong_CheckExact(o) || PyBool_Check(o);
    if (classify(o, idx, &a->slot, &code, &ptr) != 0) {
        if (!PyErr_ExceptionMatches(PyExc_TypeError) || !g_np_asarray)
            return -1;
        PyErr_Clear();
        release_slots(&a->slot, 1);
        a->tmp = PyObject_CallFunctionObjArgs(g_np_asarray, o, NULL);
        if (!a->tmp)
            return -1;
        if (classify(a->tmp, idx, &a->slot, &code, &ptr) != 0) {
            PyErr_Clear();
            PyObject *dt = PyObject_GetAttrString(a->tmp, "dtype");
            PyObject *ds = dt ? PyObject_Str(dt) : NULL;
            PyErr_Clear();
            PyErr_Format(g_typing_error, "input %d: numjit ufuncs do not support the dtype %s "
                         "(a value of type '%s')", idx + 1,
                         ds ? PyUnicode_AsUTF8AndSize(ds, NULL) : "?", type_name(o));
            Py_XDECREF(dt);
            Py_XDECREF(ds);
            return -1;
        }
    }
    a->dt = CODE_DTYPE(code);
    if (CODE_KIND(code) == K_SCALAR || CODE_NDIM(code) == 0) {
        if (CODE_KIND(code) == K_ARRAY)
            memcpy(&a->slot.s, a->slot.arr.data, (size_t)nj_dtype_size(a->dt));
        a->scalar = 1;
        a->min_dt = uf_min_scalar(a->dt, &a->slot.s, &a->small_u);
    } else {
        a->scalar = 0;
        a->arr = a->slot.arr;
    }
    return 0;
}

static void uf_release(UfArg *args, int n)
{
    for (int k = 0; k < n; k++) {
        release_slots(&args[k].slot, 1);
        Py_CLEAR(args[k].tmp);
    }
}

static UfEntryPy *uf_find(UfuncObject *f, const uint16_t *key, int n)
{
    size_t bytes = (size_t)n * sizeof(uint16_t);
    if (f->last < f->ncache && !memcmp(f->cache[f->last].key, key, bytes))
        return &f->cache[f->last];
    for (int i = 0; i < f->ncache; i++)
        if (!memcmp(f->cache[i].key, key, bytes)) {
            f->last = i;
            return &f->cache[i];
        }
    return NULL;
}

/* The array of an output object (writable ndarray).  Returns 0 or -1 with an exception. */
int uf_out_array(PyObject *o, int k, ArgSlot *slot, NjArray *arr)
{
    uint32_t code;
    void *ptr;
    slot->has_buf = 0;
    if (!g_ndarray_type || !PyObject_TypeCheck(o, g_ndarray_type)) {
        PyErr_Format(PyExc_TypeError, "output %d: out= must be a NumPy array, not '%s'", k,
                     type_name(o));
        return -1;
    }
    if (Py_TYPE(o) == g_ndarray_type && g_fast_ndarray &&
        !(((const NpArrayHead *)o)->flags & 0x0400 /* NPY_ARRAY_WRITEABLE */)) {
        PyErr_Format(PyExc_ValueError, "output %d: the out= array is read-only", k);
        return -1;
    }
    if (classify(o, k, slot, &code, &ptr) != 0)
        return -1;
    if (CODE_READONLY(code)) { /* a read-only buffer that is not an exact ndarray */
        PyErr_Format(PyExc_ValueError, "output %d: the out= array is read-only", k);
        return -1;
    }
    *arr = slot->arr;
    return 0;
}

/* Converts the scalars of args to their loop dtypes as 0-d arrays. */
static void uf_place_scalars(UfArg *args, int nin, const uint8_t *loop_dt)
{
    for (int k = 0; k < nin; k++) {
        UfArg *a = &args[k];
        if (!a->scalar)
            continue;
        NjDType to = (NjDType)loop_dt[k];
        uf_convert(a->dt, &a->slot.s, to, &a->conv);
        memset(&a->arr, 0, sizeof a->arr);
        a->arr.data = &a->conv;
        a->arr.ndim = 0;
        a->arr.dtype = to;
    }
}


/* The loop of entry e for the 1-d fast path (ufunc_call): e->fn stays NULL for gufuncs, GPU
 * ufuncs, or when the library's loop would read an input in another dtype than the call
 * passes. */
static void uf_fast_loop(UfuncObject *f, UfEntryPy *e, const UfArg *args, const int *given,
                         const NjArray *outs)
{
    NjDType dt[UF_MAX];
    int nin = f->nin, nout = f->nout;
    e->fn = NULL;
    if (f->gufunc)
        return;
    for (int k = 0; k < nin; k++)
        dt[k] = args[k].scalar ? (NjDType)e->loop_dt[k] : args[k].dt;
    for (int k = 0; k < nout; k++)
        dt[nin + k] = given[k] ? outs[k].dtype : NJ_DTYPE_COUNT;
    NjUfuncLoop fn;
    void *data;
    if (nj_ufunc_loop(f->u, dt, nin + nout, &fn, &data) != NJ_OK)
        return;
    for (int k = 0; k < nout; k++)
        if (dt[nin + k] != (given[k] ? outs[k].dtype : (NjDType)e->out_dt[k]))
            return;
    e->fn = fn;
    e->fdata = data;
}

/* The small 1-d fast path: every input a scalar or a 1-d array of length n or 1, every output
 * allocated here or a given 1-d array of length n that overlaps no input (or is the very same
 * array as one), n below UF_FAST_MAX.  Runs e->fn directly, skipping the library's executor
 * (broadcasting, checks, threads): the ufunc's per-call cost on small arrays.  Returns 1 and
 * sets *ret (NULL with an exception on failure), or 0 when the call does not qualify. */
static int uf_call_fast(UfuncObject *f, const UfEntryPy *e, const NjArray *ins,
                        PyObject *const *outobj, const NjArray *outs, const int *given,
                        PyObject **ret)
{
    int nin = f->nin, nout = f->nout;
    int64_t n = 1;
    int any1d = 0;
    for (int k = 0; k < nin; k++) {
        if (ins[k].ndim > 1)
            return 0;
        if (ins[k].ndim == 1) {
            int64_t m = ins[k].shape[0];
            if (!any1d || n == 1)
                n = m;
            else if (m != n && m != 1)
                return 0;
            any1d = 1;
        }
    }
    if (!any1d || n >= UF_FAST_MAX)
        return 0;
    char *args[UF_MAX];
    int64_t steps[UF_MAX];
    for (int k = 0; k < nin; k++) {
        args[k] = ins[k].data;
        steps[k] = ins[k].ndim == 1 && ins[k].shape[0] != 1 ? ins[k].strides[0] : 0;
        if (steps[k] == 0 && n > 64) /* the executor's broadcast loop is faster there */
            return 0;
    }
    for (int k = 0; k < nout; k++) {
        if (!given[k])
            continue;
        const NjArray *o = &outs[k];
        if (o->ndim != 1 || o->shape[0] != n)
            return 0;
        int64_t isz = nj_dtype_size(o->dtype), st = o->strides[0];
        char *olo = (char *)o->data + (st < 0 ? st * (n - 1) : 0);
        char *ohi = (char *)o->data + (st < 0 ? 0 : st * (n - 1)) + isz;
        for (int j = 0; j < nin; j++) {
            if (ins[j].ndim == 0)
                continue;
            int64_t m = ins[j].shape[0], js = ins[j].strides[0];
            char *lo = (char *)ins[j].data + (js < 0 ? js * (m - 1) : 0);
            char *hi = (char *)ins[j].data + (js < 0 ? 0 : js * (m - 1)) +
                       nj_dtype_size(ins[j].dtype);
            int same = ins[j].data == o->data && m == n && js == st && ins[j].dtype == o->dtype;
            if (lo < ohi && olo < hi && !same)
                return 0;
        }
    }
    PyObject *made[UF_MAX];
    int nmade = 0;
    for (int k = 0; k < nout; k++) {
        if (given[k]) {
            args[nin + k] = outs[k].data;
            steps[nin + k] = outs[k].strides[0];
            continue;
        }
        made[nmade] = uf_new_array(&n, 1, (NjDType)e->out_dt[k], 0);
        if (!made[nmade]) {
            for (int j = 0; j < nmade; j++)
                Py_DECREF(made[j]);
            *ret = NULL;
            return 1;
        }
        args[nin + k] = ((NpArrayHead *)made[nmade])->data;
        steps[nin + k] = nj_dtype_size((NjDType)e->out_dt[k]);
        nmade++;
    }
    GIL_HELD_CALL(e->fn(args, &n, steps, e->fdata));
    PyObject *res[UF_MAX];
    for (int k = 0, m = 0; k < nout; k++) {
        res[k] = given[k] ? outobj[k] : made[m++];
        if (given[k])
            Py_INCREF(res[k]);
    }
    if (nout == 1) {
        *ret = res[0];
        return 1;
    }
    *ret = PyTuple_New(nout);
    for (int k = 0; k < nout; k++) {
        if (*ret)
            PyTuple_SetItem(*ret, k, res[k]);
        else
            Py_DECREF(res[k]);
    }
    return 1;
}

/* The miss path: the loop for this key, through ufunc.py's _resolve and the library. */
static UfEntryPy *uf_miss(UfuncObject *f, const uint16_t *key, UfArg *args, NjArray *outs,
                          const int *given)
{
    int nin = f->nin, nout = f->nout, n = nin + nout;
    PyObject *desc = PyTuple_New(n);
    if (!desc)
        return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *t;
        if (k < nin)
            t = Py_BuildValue("(iiiii)", args[k].scalar, (int)args[k].dt,
                              args[k].scalar ? args[k].min_dt : (int)args[k].dt,
                              args[k].scalar ? args[k].small_u : 0,
                              args[k].scalar && args[k].weak);
        else if (given[k - nin])
            t = PyLong_FromLong((long)outs[k - nin].dtype);
        else {
            t = Py_None;
            Py_INCREF(t);
        }
        if (!t) {
            Py_DECREF(desc);
            return NULL;
        }
        PyTuple_SetItem(desc, k, t);
    }
    PyObject *r = PyObject_CallMethod((PyObject *)f, "_resolve", "(O)", desc);
    Py_DECREF(desc);
    if (!r)
        return NULL;
    UfEntryPy e;
    memset(&e, 0, sizeof e);
    memcpy(e.key, key, sizeof(uint16_t) * (size_t)n);
    if (!PyTuple_Check(r) || PyTuple_Size(r) != nin) {
        Py_DECREF(r);
        PyErr_SetString(g_compile_error, "numjit: _resolve must return a tuple of dtypes");
        return NULL;
    }
    for (int k = 0; k < nin; k++) {
        long v = PyLong_AsLong(PyTuple_GetItem(r, k));
        if (v < 0 || v >= NJ_DTYPE_COUNT) {
            Py_DECREF(r);
            if (!PyErr_Occurred())
                PyErr_SetString(g_compile_error, "numjit: _resolve returned a bad dtype");
            return NULL;
        }
        e.loop_dt[k] = (uint8_t)v;
    }
    Py_DECREF(r);
    uf_place_scalars(args, nin, e.loop_dt);
    NjArray ins[UF_MAX], tout[UF_MAX];
    for (int k = 0; k < nin; k++)
        ins[k] = args[k].arr;
    for (int k = 0; k < nout; k++) {
        tout[k] = outs[k];
        if (!given[k])
            tout[k].data = NULL;
    }
    NjStatus st;
    NjUfunc *u = f->u;
    Py_BEGIN_ALLOW_THREADS
    st = nj_ufunc_resolve(u, ins, nin, tout, nout);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK)
        return (UfEntryPy *)uf_raise(st);
    PyObject *outdt = PyTuple_New(nout);
    if (!outdt)
        return NULL;
    for (int k = 0; k < nout; k++) {
        e.out_dt[k] = (uint8_t)tout[k].dtype;
        PyTuple_SetItem(outdt, k, PyLong_FromLong((long)tout[k].dtype));
    }
    uf_fast_loop(f, &e, args, given, outs);
    PyObject *loopdt = PyTuple_New(nin);
    for (int k = 0; loopdt && k < nin; k++)
        PyTuple_SetItem(loopdt, k, PyLong_FromLong((long)e.loop_dt[k]));
    PyObject *rr = loopdt ? PyObject_CallMethod((PyObject *)f, "_record_loop", "OO", loopdt,
                                                outdt) : NULL;
    Py_XDECREF(loopdt);
    Py_DECREF(outdt);
    if (!rr)
        return NULL;
    Py_DECREF(rr);
    UfEntryPy *hit = uf_find(f, key, n); /* another thread may have added it meanwhile */
    if (hit)
        return hit;
    if (f->ncache == f->capcache) {
        int cap = f->capcache ? f->capcache * 2 : 4;
        UfEntryPy *c = realloc(f->cache, (size_t)cap * sizeof *c);
        if (!c)
            return (UfEntryPy *)PyErr_NoMemory();
        f->cache = c;
        f->capcache = cap;
    }
    f->cache[f->ncache] = e;
    f->last = f->ncache;
    return &f->cache[f->ncache++];
}

PyObject *ufunc_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    UfuncObject *f = (UfuncObject *)self;
    if (!f->u) {
        PyObject *r = PyObject_CallMethod(self, "_bind_now", NULL);
        if (!r)
            return NULL;
        Py_DECREF(r);
        if (!f->u) {
            PyErr_SetString(g_numjit_error, "numjit: ufunc is not bound");
            return NULL;
        }
    }
    int nin = f->nin, nout = f->nout;
    Py_ssize_t n = PyTuple_Size(args);
    PyObject *outobj[UF_MAX]; /* first nout used (no zeroing of whole tables: a call is ~400 ns) */
    for (int k = 0; k < nout; k++)
        outobj[k] = NULL;
    int nouts_given = 0;
    if (n != nin && n != nin + nout) {
        PyErr_Format(PyExc_TypeError, "%s() takes from %d to %d positional arguments but %d "
                     "were given", "ufunc", nin, nin + nout, (int)n);
        return NULL;
    }
    for (Py_ssize_t k = nin; k < n; k++)
        if ((outobj[k - nin] = PyTuple_GetItem(args, k)) != Py_None)
            nouts_given = 1;
        else
            outobj[k - nin] = NULL;
    if (kwargs && PyDict_Size(kwargs) > 0) {
        PyObject *key, *val;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwargs, &pos, &key, &val)) {
            const char *ks = PyUnicode_AsUTF8AndSize(key, NULL);
            if (!ks || strcmp(ks, "out") != 0) {
                PyErr_Format(PyExc_TypeError, "numjit ufuncs take only the keyword argument "
                             "out=, not %R", key);
                return NULL;
            }
            if (n > nin) {
                PyErr_SetString(PyExc_TypeError, "cannot specify 'out' as both a positional "
                                "and keyword argument");
                return NULL;
            }
            if (val == Py_None)
                continue;
            if (PyTuple_Check(val)) {
                if (PyTuple_Size(val) != nout) {
                    PyErr_Format(PyExc_ValueError, "out= must be a tuple of %d arrays", nout);
                    return NULL;
                }
                for (int k = 0; k < nout; k++) {
                    PyObject *o = PyTuple_GetItem(val, k);
                    outobj[k] = o == Py_None ? NULL : o;
                    nouts_given |= o != Py_None;
                }
            } else if (nout == 1) {
                outobj[0] = val;
                nouts_given = 1;
            } else {
                PyErr_Format(PyExc_TypeError, "out= must be a tuple of %d arrays", nout);
                return NULL;
            }
        }
    }
    UfArg ua[UF_MAX];
    ArgSlot oslot[UF_MAX];
    NjArray outs[UF_MAX];
    int given[UF_MAX];
    PyObject *made[UF_MAX];
    for (int k = 0; k < nout; k++)
        made[k] = NULL;
    PyObject *ret = NULL;
    int ni = 0, no = 0;
    uint16_t key[UF_MAX] = {0}; /* 32 bytes; filled below (the compiler cannot tell) */
    for (; ni < nin; ni++) {
        if (uf_classify_input(PyTuple_GetItem(args, ni), ni, &ua[ni]) != 0) {
            uf_release(ua, ni + 1);
            return NULL;
        }
        UfArg *a = &ua[ni];
        key[ni] = a->scalar ? (uint16_t)((unsigned)a->weak << 13 | 1u << 10 |
                                         (unsigned)a->small_u << 9 | (unsigned)a->min_dt << 5 |
                                         a->dt)
                            : (uint16_t)(1u << 11 | a->dt);
    }
    for (; no < nout; no++) {
        oslot[no].has_buf = 0;
        given[no] = outobj[no] != NULL;
        outs[no].data = NULL; /* "allocate"; shape and strides are filled when it is made */
        outs[no].ndim = 0;
        outs[no].dtype = NJ_FLOAT64;
        if (given[no] && uf_out_array(outobj[no], no, &oslot[no], &outs[no]) != 0) {
            no++;
            goto done;
        }
        key[nin + no] = (uint16_t)(1u << 12 | (given[no] ? outs[no].dtype : UF_ALLOC));
    }
    UfEntryPy *e = uf_find(f, key, nin + nout);
    if (!e && !(e = uf_miss(f, key, ua, outs, given)))
        goto done;
    uint8_t out_dt[UF_MAX];
    memcpy(out_dt, e->out_dt, sizeof out_dt);
    uf_place_scalars(ua, nin, e->loop_dt);
    NjArray ins[UF_MAX];
    for (int k = 0; k < nin; k++)
        ins[k] = ua[k].arr;
    if (e->fn && g_new_from_descr && uf_call_fast(f, e, ins, outobj, outs, given, &ret))
        goto done;
    /* outputs to allocate */
    int64_t total = 1;
    int nd = 0;
    int64_t shape[NJ_MAX_NDIM];
    if (!f->gufunc) {
        int ok = 1;
        for (int k = 0; k < nin; k++)
            if (ins[k].ndim > nd)
                nd = ins[k].ndim;
        for (int d = 0; d < nd; d++)
            shape[d] = 1;
        for (int k = 0; k < nin && ok; k++)
            for (int j = 0; j < ins[k].ndim; j++) {
                int d = nd - ins[k].ndim + j;
                int64_t s = ins[k].shape[j];
                if (s == shape[d] || s == 1)
                    continue;
                if (shape[d] != 1)
                    ok = 0;
                shape[d] = s;
            }
        if (!ok) { /* the library words the error */
            NjArray tout[UF_MAX];
            memset(tout, 0, sizeof tout);
            NjStatus st = nj_ufunc_resolve(f->u, ins, nin, tout, nout);
            uf_raise(st != NJ_OK ? st : NJ_ERR_ARGS);
            goto done;
        }
        for (int d = 0; d < nd; d++)
            total *= shape[d];
        int order_f = 0;
        if (nd >= 2) {
            order_f = 1;
            int seen = 0;
            for (int k = 0; k < nin && order_f; k++) {
                if (ins[k].ndim != nd)
                    continue;
                int lay = layout_of(nd, ins[k].shape, ins[k].strides, nj_dtype_size(ins[k].dtype));
                order_f = lay == L_F;
                seen = 1;
            }
            order_f = order_f && seen;
        }
        for (int k = 0; k < nout; k++)
            if (!given[k] && !(made[k] = uf_empty(shape, nd, (NjDType)out_dt[k], order_f, &outs[k])))
                goto done;
    } else if (!nouts_given || nout > 1) {
        NjArray tout[UF_MAX];
        for (int k = 0; k < nout; k++) {
            tout[k] = outs[k];
            if (!given[k])
                tout[k].data = NULL;
        }
        NjStatus st = nj_ufunc_resolve(f->u, ins, nin, tout, nout);
        if (st != NJ_OK) {
            uf_raise(st);
            goto done;
        }
        for (int k = 0; k < nout; k++)
            if (!given[k] &&
                !(made[k] = uf_empty(tout[k].shape, tout[k].ndim, tout[k].dtype, 0, &outs[k])))
                goto done;
        for (int d = 0; d < tout[0].ndim; d++)
            total *= tout[0].shape[d];
    } else {
        for (int d = 0; d < outs[0].ndim; d++)
            total *= outs[0].shape[d];
    }
    NjStatus st;
    NjUfunc *u = f->u;
    if (total >= UF_NOGIL_MIN) {
        Py_BEGIN_ALLOW_THREADS
        st = nj_ufunc_call(u, ins, nin, outs, nout);
        Py_END_ALLOW_THREADS
    } else {
        GIL_HELD_CALL(st = nj_ufunc_call(u, ins, nin, outs, nout));
    }
    if (st != NJ_OK) {
        uf_raise(st);
        goto done;
    }
    PyObject *res[UF_MAX];
    for (int k = 0; k < nout; k++) {
        if (made[k] && outs[k].ndim == 0) {
            PyObject *empty = PyTuple_New(0);
            res[k] = empty ? PyObject_GetItem(made[k], empty) : NULL;
            Py_XDECREF(empty);
        } else {
            res[k] = made[k] ? made[k] : outobj[k];
            Py_INCREF(res[k]);
        }
        if (!res[k]) {
            for (int j = 0; j < k; j++)
                Py_DECREF(res[j]);
            goto done;
        }
    }
    if (nout == 1) {
        ret = res[0];
    } else {
        ret = PyTuple_New(nout);
        for (int k = 0; k < nout; k++) {
            if (ret)
                PyTuple_SetItem(ret, k, res[k]);
            else
                Py_DECREF(res[k]);
        }
    }
done:
    uf_release(ua, nin);
    release_slots(oslot, no);
    for (int k = 0; k < nout; k++)
        Py_XDECREF(made[k]);
    return ret;
}

/* _bind(module, name, sigs, layout_or_None, target) */
