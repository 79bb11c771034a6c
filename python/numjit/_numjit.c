/* _numjit.c — the CPython extension of numjit: the dispatcher's hot path, in C, over libnumjit.
 *
 * Built on CPython's stable ABI (Py_LIMITED_API = 3.11, an abi3 module), so one build serves
 * every CPython >= 3.11 with NumPy 1.x or 2.x: arrays are read through the buffer protocol
 * (PyObject_GetBuffer with PyBUF_RECORDS_RO gives format, shape and strides), never through
 * NumPy's C API.
 *
 * A Dispatcher (a heap type from PyType_FromSpec, subclassed in dispatcher.py) wraps one
 * NjFunction.  A call runs:
 *
 *   1. classify each argument into a 32-bit type code (kind, dtype, ndim, layout) and fill its
 *      slot: the scalar converted to its C type, or an NjArray from the buffer;
 *   2. look the codes up in the dispatcher's small cache (most recent hit first; a handful of
 *      entries in practice); on a miss, spell the Numba-style signature "(float64[::1], int64)",
 *      ask the library for the specialization's C-ABI entry with the GIL released, and add it;
 *   3. call `int32_t entry(void **args, void *result)`, release the buffers, box the result as
 *      Numba does (any float → Python float, any int → Python int, bool → bool, None);
 *   4. a nonzero return is a raise site: the library renders it and names the exception.
 *
 * A dispatcher with declared signatures (`@njit(sig)`) compiles nothing after decoration: a
 * miss in step 2 is resolved among the declared signatures as Numba does it (_resolve.c).
 *
 * Exact NumPy arrays take a faster road than the buffer protocol: the leading fields of
 * NumPy's array and dtype structs (data, nd, dimensions, strides, descr, flags; kind, type,
 * byteorder, type_num) have the same layout in NumPy 1.x and 2.x.  _configure() checks that
 * layout against the buffer protocol on probe arrays of every dtype and layout, and enables the
 * fast road only when every probe agrees; otherwise everything goes through buffers.
 *
 * When the library lacks nj_function_entry_info (declared weak below), every call goes through
 * nj_call instead: same results, more overhead.
 *
 * A Ufunc (another heap type, subclassed in ufunc.py) is the call path of @vectorize and
 * @guvectorize over nj_ufunc_call: inputs classified the same way, a per-object cache keyed on
 * dtypes (and NumPy 1.x's value-based type of scalars) giving the loop, outputs allocated with
 * numpy.empty; _ufunc.c says how.
 *
 * Step 1 and the spelling of codes are in _classify.c, the exceptions of step 4 in _errors.c.
 */
#include "_numjit.h"

#pragma weak nj_function_entry_info
#pragma weak nj_function_raise

#define MAX_STACK_ARGS 16

/* ---- global state -------------------------------------------------------------------------- */

NjContext *g_ctx;
/* Exception classes from numjit.errors (set by _configure; builtins until then). */
PyObject *g_typing_error, *g_syntax_error, *g_numjit_error, *g_compile_error,
    *g_unsupported_error, *g_cuda_error;
PyTypeObject *g_ndarray_type; /* numpy.ndarray, or NULL before _configure */
PyTypeObject *g_dispatcher_type; /* _numjit.Dispatcher, the base of every jitted function */
int g_fast_ndarray;           /* the struct road is verified */

/* ---- Module: a compiled source file -------------------------------------------------------- */


PyTypeObject *g_module_type;

static void module_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    freefunc tfree = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tfree(self);
    Py_DECREF(tp);
}

static PyType_Slot module_slots[] = {
    {Py_tp_dealloc, (void *)module_dealloc},
    {Py_tp_doc, (void *)"A source file compiled by numjit (its module table)."},
    {0, NULL},
};

static PyType_Spec module_spec = {
    "numjit._numjit.Module", sizeof(ModuleObject), 0, Py_TPFLAGS_DEFAULT, module_slots,
};

/* ---- Dispatcher ---------------------------------------------------------------------------- */


static void dispatcher_dealloc(PyObject *self)
{
    DispatcherObject *d = (DispatcherObject *)self;
    for (int i = 0; i < d->ncache; i++) {
        free(d->cache[i]->sig); /* NULL for a converted call */
        free(d->cache[i]->rnodes);
        free(d->cache[i]);
    }
    free(d->cache);
    Py_CLEAR(d->module_ref);
    PyTypeObject *tp = Py_TYPE(self);
    freefunc tfree = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tfree(self);
    Py_DECREF(tp);
}

CacheEntry *cache_find(DispatcherObject *d, const uint32_t *codes, int n)
{
    size_t bytes = (size_t)n * sizeof(uint32_t);
    if (d->last < d->ncache && !memcmp(d->cache[d->last]->codes, codes, bytes))
        return d->cache[d->last];
    for (int i = 0; i < d->ncache; i++)
        if (!memcmp(d->cache[i]->codes, codes, bytes)) {
            d->last = i;
            return d->cache[i];
        }
    return NULL;
}

/* Room for one more entry; -1 when out of memory. */
int cache_grow(DispatcherObject *d)
{
    if (d->ncache < d->capcache)
        return 0;
    int cap = d->capcache ? d->capcache * 2 : 4;
    CacheEntry **c = realloc(d->cache, (size_t)cap * sizeof *c);
    if (!c)
        return -1;
    d->cache = c;
    d->capcache = cap;
    return 0;
}

/* Compiles the specialization for codes and caches it.  NULL with an exception on failure. */
CacheEntry *cache_add(DispatcherObject *d, const uint32_t *codes, int n)
{
    char *sig = spell_signature(codes, n);
    if (!sig) {
        PyErr_NoMemory();
        return NULL;
    }
    NjEntryInfo info;
    memset(&info, 0, sizeof info);
    NjStatus st;
    NjFunction *fn = d->fn;
    Py_BEGIN_ALLOW_THREADS
    st = nj_function_entry_info(fn, sig, &info);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK) {
        free(sig);
        raise_status(st);
        return NULL;
    }
    CacheEntry *e = cache_find(d, codes, n); /* another thread may have added it meanwhile */
    if (e) {
        free(sig);
        return e;
    }
    e = malloc(sizeof *e + (size_t)n * sizeof(uint32_t));
    if (!e || cache_grow(d) != 0) {
        free(e);
        free(sig);
        PyErr_NoMemory();
        return NULL;
    }
    e->entry = info.entry;
    e->rkind = info.result_kind;
    e->rdtype = info.result_dtype;
    e->tcount = info.result_count;
    memcpy(e->tdtypes, info.result_dtypes, sizeof e->tdtypes);
    memcpy(e->toffsets, info.result_offsets, sizeof e->toffsets);
    for (int k = 0; k < 16; k++) /* a library without result_kinds leaves them 0 */
        e->tkinds[k] = info.result_kinds[k] == NJ_KIND_ARRAY || info.result_kinds[k] == NJ_KIND_LIST ||
                               info.result_kinds[k] == NJ_KIND_STR || info.result_kinds[k] == NJ_KIND_SET
                           ? info.result_kinds[k]
                           : NJ_KIND_SCALAR;
    e->rnodes = NULL;
    e->rnnodes = e->rsize = 0;
    if ((e->rkind == NJ_KIND_TUPLE || e->rkind == NJ_KIND_OPTIONAL) &&
        result_layout(fn, e->entry, &e->rnodes, &e->rnnodes, &e->rsize) != 0) {
        free(e);
        free(sig);
        return NULL;
    }
    e->rdescr = NULL;
    if (e->rkind == NJ_KIND_ARRAY || e->rkind == NJ_KIND_TUPLE) {
        /* an array of records comes back as bytes (_record.c); a named tuple as its class */
        int failed;
        e->rdescr = e->rkind == NJ_KIND_ARRAY ? record_result_dtype(fn, sig, &failed)
                                              : namedtuple_result_class(fn, sig, &failed);
        if (failed) {
            free(e->rnodes);
            free(e);
            free(sig);
            return NULL;
        }
    }
    e->sig = sig;
    e->formal = NULL;
    e->ret_cast = 0;
    e->ret_dtype = info.result_dtype;
    memcpy(e->codes, codes, (size_t)n * sizeof(uint32_t));
    d->last = d->ncache;
    d->cache[d->ncache++] = e;
    return e;
}

PyObject *box_scalar(NjDType dt, const Scalar *r)
{
    switch (dt) {
    case NJ_BOOL: return PyBool_FromLong(r->b != 0);
    case NJ_INT8: return PyLong_FromLong(r->i8);
    case NJ_INT16: return PyLong_FromLong(r->i16);
    case NJ_INT32: return PyLong_FromLong(r->i32);
    case NJ_INT64: return PyLong_FromLongLong(r->i64);
    case NJ_UINT8: return PyLong_FromLong(r->u8);
    case NJ_UINT16: return PyLong_FromLong(r->u16);
    case NJ_UINT32: return PyLong_FromUnsignedLong(r->u32);
    case NJ_UINT64: return PyLong_FromUnsignedLongLong(r->u64);
    case NJ_FLOAT32: return PyFloat_FromDouble((double)r->f32);
    case NJ_FLOAT64: return PyFloat_FromDouble(r->f64);
    case NJ_COMPLEX64: return PyComplex_FromDoubles((double)r->c64[0], (double)r->c64[1]);
    case NJ_COMPLEX128: return PyComplex_FromDoubles(r->c128[0], r->c128[1]);
    default: break;
    }
    PyErr_SetString(g_compile_error, "numjit: unknown result type");
    return NULL;
}

/* The storage of a result: a scalar, an NjArray, or a tuple of those (NJ_RESULT_MAX). */
typedef union Result {
    Scalar s;
    NjArray a;
    NjStr str;
    unsigned char bytes[NJ_RESULT_MAX];
} Result;

/* A str of the text a compiled function returned; its reference given back. */
PyObject *box_str(NjStr *s)
{
    PyObject *r = PyUnicode_DecodeUTF8(s->data, (Py_ssize_t)s->nbytes, NULL);
    nj_str_release(s);
    return r;
}

PyObject *raise_site(DispatcherObject *d, NjEntry entry, int32_t site)
{
    if (!nj_function_raise) {
        PyErr_Format(PyExc_RuntimeError, "numjit: the compiled function raised (site %d)",
                     (int)site);
        return NULL;
    }
    const char *name = NULL;
    nj_function_raise(d->fn, entry, site, &name);
    const char *msg = nj_error_message(g_ctx);
    PyObject *exc = exc_for_runtime(name, msg);
    /* the program's own raise reads "KeyError: text" (a located diagnostic never starts with
     * the class name): str(e) is the text, as under Numba */
    size_t nn = name ? strlen(name) : 0;
    if (msg && nn && !strncmp(msg, name, nn) && msg[nn] == ':' && msg[nn + 1] == ' ')
        msg += nn + 2;
    if (msg && !*msg && name)
        PyErr_SetNone(exc); /* `raise IndexError`, `assert c`: no arguments, as in Python */
    else
        PyErr_SetString(exc, msg && *msg ? msg : "error in compiled code");
    return NULL;
}

/* The generic road: nj_call with NjValues (used when the library has no entry_info). */
static PyObject *call_generic(DispatcherObject *d, ArgSlot *slots, const uint32_t *codes, int n)
{
    NjValue stackv[MAX_STACK_ARGS], *vals = n <= MAX_STACK_ARGS ? stackv : PyMem_Calloc((size_t)n, sizeof(NjValue));
    if (!vals)
        return PyErr_NoMemory();
    for (int i = 0; i < n; i++) {
        NjDType dt = CODE_DTYPE(codes[i]);
        NjValue *v = &vals[i];
        memset(v, 0, sizeof *v);
        v->dtype = dt;
        if (CODE_KIND(codes[i]) == K_LIST || CODE_KIND(codes[i]) == K_SET ||
            CODE_KIND(codes[i]) == K_DICT || CODE_KIND(codes[i]) == K_TLIST) {
            if (vals != stackv)
                PyMem_Free(vals);
            PyErr_SetString(g_unsupported_error, "numjit: list, set and dict arguments need a library "
                            "with nj_function_entry_info");
            return NULL;
        }
        if (CODE_KIND(codes[i]) == K_ARRAY) {
            v->kind = CODE_READONLY(codes[i]) ? NJ_KIND_READONLY_ARRAY : NJ_KIND_ARRAY;
            v->v.a = &slots[i].arr;
            continue;
        }
        if (CODE_KIND(codes[i]) == K_STR) {
            v->kind = NJ_KIND_STR;
            v->v.s = &slots[i].str;
            continue;
        }
        v->kind = NJ_KIND_SCALAR;
        const Scalar *s = &slots[i].s;
        switch (dt) {
        case NJ_BOOL: v->v.b = s->b != 0; break;
        case NJ_INT8: v->v.i = s->i8; break;
        case NJ_INT16: v->v.i = s->i16; break;
        case NJ_INT32: v->v.i = s->i32; break;
        case NJ_INT64: v->v.i = s->i64; break;
        case NJ_UINT8: v->v.u = s->u8; break;
        case NJ_UINT16: v->v.u = s->u16; break;
        case NJ_UINT32: v->v.u = s->u32; break;
        case NJ_UINT64: v->v.u = s->u64; break;
        case NJ_FLOAT32: v->v.f = s->f32; break;
        default: v->v.f = s->f64; break;
        }
    }
    NjValue res;
    memset(&res, 0, sizeof res);
    NjStatus st;
    NjFunction *fn = d->fn;
    Py_BEGIN_ALLOW_THREADS
    st = nj_call(fn, vals, n, &res);
    Py_END_ALLOW_THREADS
    if (vals != stackv)
        PyMem_Free(vals);
    if (st != NJ_OK)
        return raise_status(st);
    if (res.kind != NJ_KIND_SCALAR)
        Py_RETURN_NONE;
    switch (res.dtype) {
    case NJ_BOOL: return PyBool_FromLong(res.v.b);
    case NJ_INT8: case NJ_INT16: case NJ_INT32: case NJ_INT64:
        return PyLong_FromLongLong(res.v.i);
    case NJ_UINT8: case NJ_UINT16: case NJ_UINT32: case NJ_UINT64:
        return PyLong_FromUnsignedLongLong(res.v.u);
    default: return PyFloat_FromDouble(res.v.f);
    }
}

/* Whether o is a jitted function, a @cfunc, or a tuple holding one: an argument that
 * dispatcher.py passes on to a variant compiled for those functions (Numba types each as a
 * Dispatcher type of its own). */
static int holds_function(PyObject *o)
{
    if (g_dispatcher_type && PyObject_TypeCheck(o, g_dispatcher_type))
        return 1;
    if (PyTuple_Check(o)) {
        for (Py_ssize_t k = 0; k < PyTuple_Size(o); k++)
            if (holds_function(PyTuple_GetItem(o, k)))
                return 1;
        return 0;
    }
    PyObject *cls = (PyObject *)Py_TYPE(o);
    int r = PyObject_HasAttrString(cls, "_numjit_function_value");
    return r > 0;
}

static PyObject *dispatch(DispatcherObject *d, PyObject *args)
{
    Py_ssize_t n = PyTuple_Size(args);
    if (n < 0)
        return NULL;
    if (n != d->nparams) {
        PyErr_Format(PyExc_TypeError, "expected %d arguments, got %d", d->nparams, (int)n);
        return NULL;
    }
    if (n > MAX_ARGS) {
        PyErr_SetString(PyExc_TypeError, "numjit: too many arguments");
        return NULL;
    }
    ArgSlot stack_slots[MAX_STACK_ARGS];
    uint32_t stack_codes[MAX_STACK_ARGS];
    void *stack_argv[MAX_STACK_ARGS];
    ArgSlot *slots = stack_slots;
    uint32_t *codes = stack_codes;
    void **argv = stack_argv;
    if (n > MAX_STACK_ARGS) {
        slots = PyMem_Calloc((size_t)n, sizeof *slots);
        codes = PyMem_Calloc((size_t)n, sizeof *codes);
        argv = PyMem_Calloc((size_t)n, sizeof *argv);
        if (!slots || !codes || !argv) {
            PyMem_Free(slots);
            PyMem_Free(codes);
            PyMem_Free(argv);
            return PyErr_NoMemory();
        }
    }
    PyObject *ret = NULL;
    int i, functions = 0;
    for (i = 0; i < n; i++) {
        slots[i].has_buf = 0;
        if (PyTuple_GetItem(args, i) == Py_None && !d->frozen) { /* typed `none` */
            codes[i] = CODE(K_NONE, 0, 0, 0);
            argv[i] = &slots[i].s;
            continue;
        }
        if (classify_arg(PyTuple_GetItem(args, i), (int)i, &slots[i], &codes[i], &argv[i]) != 0) {
            PyObject *et, *ev, *tb; /* holds_function looks attributes up: keep the error */
            PyErr_Fetch(&et, &ev, &tb);
            if (holds_function(PyTuple_GetItem(args, i))) { /* dispatcher.py: a variant */
                Py_XDECREF(et);
                Py_XDECREF(ev);
                Py_XDECREF(tb);
                functions = 1;
                goto done;
            }
            PyErr_Restore(et, ev, tb);
            if (d->frozen) { /* as Numba: a type no declared signature takes */
                PyErr_Clear();
                explain_call(d, "_explain_matching_error", args, NULL);
            }
            goto done;
        }
    }
    if (d->generic) {
        ret = call_generic(d, slots, codes, (int)n);
        goto done;
    }
    /* Numba's C dispatcher types every Python int as int64 when it chooses among declared
     * signatures (one past int64 then fails to unbox, as there) */
    int big = 0;
    for (int k = 0; d->frozen && k < n; k++)
        if (codes[k] == CODE(K_SCALAR, NJ_UINT64, 0, 0) && PyLong_CheckExact(PyTuple_GetItem(args, k))) {
            codes[k] = CODE(K_SCALAR, NJ_INT64, 0, 0);
            big = 1;
        }
    CacheEntry *e = cache_find(d, codes, (int)n);
    if (!e && !(e = d->frozen ? cache_resolve(d, args, codes, (int)n) : cache_add(d, codes, (int)n)))
        goto done;
    if ((e->formal || big) && convert_args(e, args, slots, codes, (int)n, big) != 0)
        goto done;
    /* Copied out: with the GIL released, e must not be touched again. */
    NjEntry entry = e->entry;
    NjKind rkind = e->rkind;
    NjDType rdtype = e->rdtype;
    int ret_cast = e->ret_cast;
    NjDType ret_dtype = e->ret_dtype;
    PyObject *rdescr = e->rdescr; /* held by the entry, which lives as long as d */
    NjDType e_key = e->tdtypes[0], e_val = e->tdtypes[1]; /* a dict's item codes */
    Result res;
    res.s.pad[0] = res.s.pad[1] = 0;
    void *rbuf = &res;
    if (rkind == NJ_KIND_TUPLE || rkind == NJ_KIND_OPTIONAL) {
        memset(&res, 0, sizeof res);
        if (e->rsize > (int)sizeof res && !(rbuf = PyMem_Calloc(1, (size_t)e->rsize))) {
            PyErr_NoMemory();
            goto done;
        }
    }
    int32_t site;
    if (d->nogil) {
        Py_BEGIN_ALLOW_THREADS
        site = entry(argv, rbuf);
        Py_END_ALLOW_THREADS
    } else {
        GIL_HELD_CALL(site = entry(argv, rbuf));
    }
    /* the slots are released at the end: an array of a tuple argument that comes back is
     * found among its leaves (box_array) */
    if (site == 0 && reflect_lists(args, slots, codes, (int)n) != 0)
        site = -1; /* the Python error is set */
    if (site == -1) {
        if (!PyErr_Occurred()) /* the entry found no memory for a set argument's items */
            PyErr_NoMemory();
        ret = NULL;
    }
    else if (site != 0)
        ret = raise_site(d, entry, site);
    else if (rkind == NJ_KIND_SCALAR && ret_cast) {
        Scalar cast;
        rs_cast_scalar(rdtype, &res.s, ret_dtype, &cast);
        ret = box_scalar(ret_dtype, &cast);
    } else if (rkind == NJ_KIND_SCALAR)
        ret = box_scalar(rdtype, &res.s);
    else if (rkind == NJ_KIND_NONE) {
        Py_INCREF(Py_None);
        ret = Py_None;
    } else if (rkind == NJ_KIND_TUPLE && d->generator && e->rsize == 4 * (int)sizeof(int64_t)) {
        ret = gen_new(d, entry, (const int64_t *)rbuf, args); /* a coroutine's (_gen.c) */
    } else if (rkind == NJ_KIND_TUPLE) {
        ret = box_layout(e->rnodes, e->rnnodes, rbuf, args, slots, codes, (int)n);
        if (ret && rdescr) { /* a named tuple: an instance of its class */
            PyObject *plain = ret;
            ret = PyObject_CallObject(rdescr, plain);
            Py_DECREF(plain);
        }
    }
    else if (rkind == NJ_KIND_OPTIONAL) /* None, or the value: the pair's layout says */
        ret = box_layout(e->rnodes, e->rnnodes, rbuf, args, slots, codes, (int)n);
    else if (rkind == NJ_KIND_ARRAY && rdescr)
        ret = record_result(&res.a, rdescr, args, slots, codes, (int)n);
    else if (rkind == NJ_KIND_ARRAY)
        ret = box_array(&res.a, args, slots, codes, (int)n);
    else if (rkind == NJ_KIND_LIST)
        ret = box_list(&res.a);
    else if (rkind == NJ_KIND_SET)
        ret = box_set(&res.a);
    else if (rkind == NJ_KIND_STR)
        ret = box_str(&res.str);
    else if (rkind == NJ_KIND_DICT) /* the dict's address; its item codes in tdtypes */
        ret = box_dict((NjDict *)(uintptr_t)res.s.pad[0], (int)e_key, (int)e_val);
    else
        PyErr_SetString(g_unsupported_error, "numjit: this result type is not supported");
    if (rbuf != &res)
        PyMem_Free(rbuf);
done:
    release_slots(slots, i < n ? i + 1 : (int)n);
    if (slots != stack_slots) {
        PyMem_Free(slots);
        PyMem_Free(codes);
        PyMem_Free(argv);
    }
    if (functions) /* jitted functions as arguments: compiled per function, in Python */
        ret = PyObject_CallMethod((PyObject *)d, "_call_with_functions", "(O)", args);
    return ret;
}

static PyObject *dispatcher_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    DispatcherObject *d = (DispatcherObject *)self;
    if (!d->fn) {
        PyObject *r = PyObject_CallMethod(self, "_bind_now", NULL);
        if (!r)
            return NULL;
        Py_DECREF(r);
        if (!d->fn) {
            PyErr_SetString(g_numjit_error, "numjit: dispatcher is not bound to a function");
            return NULL;
        }
    }
    if ((kwargs && PyDict_Size(kwargs) > 0) || PyTuple_Size(args) != d->nparams) {
        /* keywords and defaults: folded into a positional tuple by dispatcher.py */
        PyObject *folded = PyObject_CallMethod(self, "_fold_args", "OO", args,
                                               kwargs ? kwargs : Py_None);
        if (!folded)
            return NULL;
        PyObject *r = dispatch(d, folded);
        Py_DECREF(folded);
        return r;
    }
    return dispatch(d, args);
}

/* _bind(module, name, nparams, nogil): once per dispatcher; a later call (two threads racing
 * through their first call) keeps the first binding, so cache entries are never freed while
 * a call may use them. */
static PyObject *dispatcher_bind(PyObject *self, PyObject *args)
{
    DispatcherObject *d = (DispatcherObject *)self;
    PyObject *mod;
    const char *name;
    int nparams, nogil;
    if (!PyArg_ParseTuple(args, "O!sip", g_module_type, &mod, &name, &nparams, &nogil))
        return NULL;
    if (d->fn)
        Py_RETURN_NONE;
    if (nparams < 0 || nparams > MAX_ARGS) {
        PyErr_SetString(PyExc_TypeError, "numjit: too many parameters");
        return NULL;
    }
    NjFunction *fn;
    NjStatus st = nj_module_function(((ModuleObject *)mod)->mod, name, &fn);
    if (st != NJ_OK)
        return raise_status(st);
    Py_INCREF(mod);
    PyObject *old = d->module_ref;
    d->module_ref = mod;
    Py_XDECREF(old);
    d->fn = fn;
    d->nparams = nparams;
    d->nogil = nogil;
    d->generic = nj_function_entry_info == NULL || getenv("NUMJIT_GENERIC_CALL") != NULL;
    Py_RETURN_NONE;
}

static PyObject *dispatcher_is_bound(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(((DispatcherObject *)self)->fn != NULL);
}

/* _dump(signature, what) -> str: "typed", "llvm" or "asm". */
static PyObject *dispatcher_dump(PyObject *self, PyObject *args)
{
    DispatcherObject *d = (DispatcherObject *)self;
    const char *sig, *what;
    if (!PyArg_ParseTuple(args, "ss", &sig, &what))
        return NULL;
    if (!d->fn) {
        PyErr_SetString(g_numjit_error, "numjit: dispatcher is not bound to a function");
        return NULL;
    }
    char *text = NULL;
    NjStatus st;
    NjFunction *fn = d->fn;
    Py_BEGIN_ALLOW_THREADS
    st = nj_function_dump(fn, sig, what, &text);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK)
        return raise_status(st);
    PyObject *r = PyUnicode_FromString(text ? text : "");
    nj_free_string(text);
    return r;
}

/* _cfunc(signature, symbol) -> the address of a C function of that signature running the
 * function (nj_function_cfunc; numjit.cfunc makes the rest of Numba's @cfunc of it). */
static PyObject *dispatcher_cfunc(PyObject *self, PyObject *args)
{
    DispatcherObject *d = (DispatcherObject *)self;
    const char *sig, *sym;
    if (!PyArg_ParseTuple(args, "ss", &sig, &sym))
        return NULL;
    if (!d->fn) {
        PyErr_SetString(g_numjit_error, "numjit: dispatcher is not bound to a function");
        return NULL;
    }
    void *addr = NULL;
    NjStatus st;
    NjFunction *fn = d->fn;
    Py_BEGIN_ALLOW_THREADS
    st = nj_function_cfunc(fn, sig, sym, &addr);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK)
        return raise_status(st);
    return PyLong_FromVoidPtr(addr);
}

/* _signatures() -> list of the signature strings compiled through this dispatcher's cache. */
static PyObject *dispatcher_signatures(PyObject *self, PyObject *unused)
{
    DispatcherObject *d = (DispatcherObject *)self;
    PyObject *l = PyList_New(0);
    for (int i = 0; l && i < d->ncache; i++) {
        if (d->cache[i]->formal)
            continue; /* a converted call, not a signature */
        PyObject *s = PyUnicode_FromString(d->cache[i]->sig);
        if (!s || PyList_Append(l, s) != 0) {
            Py_XDECREF(s);
            Py_DECREF(l);
            return NULL;
        }
        Py_DECREF(s);
    }
    return l;
}

/* _signature_of(args_tuple) -> the signature string these arguments dispatch to. */
static PyObject *dispatcher_signature_of(PyObject *self, PyObject *args)
{
    PyObject *tup;
    if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &tup))
        return NULL;
    Py_ssize_t n = PyTuple_Size(tup);
    if (n > MAX_ARGS) {
        PyErr_SetString(PyExc_TypeError, "numjit: too many arguments");
        return NULL;
    }
    ArgSlot *slots = PyMem_Calloc((size_t)n + 1, sizeof *slots);
    uint32_t *codes = PyMem_Calloc((size_t)n + 1, sizeof *codes);
    void **argv = PyMem_Calloc((size_t)n + 1, sizeof *argv);
    PyObject *r = NULL;
    if (!slots || !codes || !argv) {
        PyErr_NoMemory();
        goto out;
    }
    Py_ssize_t i;
    for (i = 0; i < n; i++)
        if (classify_arg(PyTuple_GetItem(tup, i), (int)i, &slots[i], &codes[i], &argv[i]) != 0)
            break;
    release_slots(slots, (int)(i < n ? i + 1 : n));
    if (i == n) {
        char *sig = spell_signature(codes, (int)n);
        r = sig ? PyUnicode_FromString(sig) : PyErr_NoMemory();
        free(sig);
    }
out:
    PyMem_Free(slots);
    PyMem_Free(codes);
    PyMem_Free(argv);
    return r;
}

static PyObject *dispatcher_mark_generator(PyObject *self, PyObject *unused)
{
    (void)unused;
    ((DispatcherObject *)self)->generator = 1;
    Py_RETURN_NONE;
}

static PyMethodDef dispatcher_methods[] = {
    {"_bind", dispatcher_bind, METH_VARARGS,
     "_bind(module, name, nparams, nogil): attach the compiled module's function."},
    {"_is_bound", dispatcher_is_bound, METH_NOARGS, "True once _bind succeeded."},
    {"_compile", dispatcher_compile, METH_VARARGS,
     "_compile(signature[, return]): compile now."},
    {"_freeze", dispatcher_freeze, METH_NOARGS,
     "_freeze(): compile nothing more; calls convert to the declared signatures."},
    {"_dump", dispatcher_dump, METH_VARARGS, "_dump(signature, what) -> text."},
    {"_signatures", dispatcher_signatures, METH_NOARGS, "Signatures compiled so far."},
    {"_cfunc", dispatcher_cfunc, METH_VARARGS,
     "_cfunc(signature, symbol) -> address of a C callback running the function."},
    {"_signature_of", dispatcher_signature_of, METH_VARARGS,
     "_signature_of(args) -> the signature these arguments dispatch to."},
    {"_mark_generator", dispatcher_mark_generator, METH_NOARGS,
     "_mark_generator(): the function is a generator; a call gives its generator object."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot dispatcher_slots[] = {
    {Py_tp_dealloc, (void *)dispatcher_dealloc},
    {Py_tp_call, (void *)dispatcher_call},
    {Py_tp_methods, dispatcher_methods},
    {Py_tp_new, (void *)PyType_GenericNew},
    {Py_tp_doc, (void *)"The compiled-call fast path of a numjit function (see dispatcher.py)."},
    {0, NULL},
};

static PyType_Spec dispatcher_spec = {
    "numjit._numjit.Dispatcher", sizeof(DispatcherObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, dispatcher_slots,
};

/* ---- module functions ---------------------------------------------------------------------- */

static int ensure_context(void)
{
    if (g_ctx)
        return 0;
    NjStatus st = nj_context_new(&g_ctx);
    if (st != NJ_OK) {
        g_ctx = NULL;
        PyErr_Format(PyExc_RuntimeError, "numjit: cannot create a context (%s)",
                     nj_status_name(st));
        return -1;
    }
    return 0;
}

/* compile_source(filename, text) -> Module */
static PyObject *mod_compile_source(PyObject *self, PyObject *args)
{
    const char *filename, *text;
    if (!PyArg_ParseTuple(args, "ss", &filename, &text))
        return NULL;
    if (ensure_context() != 0)
        return NULL;
    NjModule *m = NULL;
    NjStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = nj_compile_source_lazy(g_ctx, filename, text, &m); /* each function on its own */
    Py_END_ALLOW_THREADS
    if (st != NJ_OK)
        return raise_status(st);
    ModuleObject *mo = PyObject_New(ModuleObject, g_module_type);
    if (!mo)
        return NULL;
    mo->mod = m;
    return (PyObject *)mo;
}

/* _prepare(): creates the context and starts its JIT on a background thread (at import, so
 * that the first call of a cached function does not wait ~1 ms for it). */
static PyObject *mod_prepare(PyObject *self, PyObject *unused)
{
    if (ensure_context() != 0)
        return NULL;
    nj_context_prepare(g_ctx);
    Py_RETURN_NONE;
}

/* _abi_sizes(): sizeof(NjArray), sizeof(NjValue) — what ctypes mirrors (gpu_ufunc.py) must
 * match; a test compares them. */
static PyObject *mod_abi_sizes(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    return Py_BuildValue("(nn)", (Py_ssize_t)sizeof(NjArray), (Py_ssize_t)sizeof(NjValue));
}

static PyObject *mod_version(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(nj_version());
}

static PyObject *mod_typeof(PyObject *self, PyObject *args)
{
    PyObject *o;
    if (!PyArg_ParseTuple(args, "O", &o))
        return NULL;
    ArgSlot slot;
    uint32_t code;
    void *p;
    slot.has_buf = 0;
    int rc = classify_arg(o, 0, &slot, &code, &p);
    release_slots(&slot, 1);
    if (rc != 0)
        return NULL;
    if (CODE_KIND(code) == K_TUPLE) /* a spelling of any length */
        return PyUnicode_FromString(tuple_spelling(code));
    if (CODE_KIND(code) == K_RECORD || CODE_KIND(code) == K_RECARRAY) {
        char *r = malloc(record_spelling_len(code));
        if (!r)
            return PyErr_NoMemory();
        spell_record_code(code, r, record_spelling_len(code));
        PyObject *out = PyUnicode_FromString(r);
        free(r);
        return out;
    }
    char s[64];
    spell_code(code, s, sizeof s);
    return PyUnicode_FromString(s);
}

/* Checks the struct road against the buffer protocol on one probe array. */
static int probe_agrees(PyObject *o)
{
    if (Py_TYPE(o) != g_ndarray_type)
        return 0;
    ArgSlot slot;
    uint32_t code;
    void *p;
    slot.has_buf = 0;
    int saved = g_fast_ndarray;
    g_fast_ndarray = 0;
    int rc = classify(o, 0, &slot, &code, &p);
    g_fast_ndarray = saved;
    if (rc != 0) {
        PyErr_Clear();
        release_slots(&slot, 1);
        return 0;
    }
    const NpArrayHead *a = (const NpArrayHead *)o;
    const NjArray *b = &slot.arr;
    int ok = CODE_KIND(code) == K_ARRAY && a->data == b->data && a->nd == b->ndim &&
             np_dtype_of(a->descr) == (int)b->dtype;
    int lay = (a->flags & NPY_C_CONTIGUOUS) ? L_C : (a->flags & NPY_F_CONTIGUOUS) ? L_F : L_A;
    ok = ok && lay == CODE_LAYOUT(code);
    int64_t size = 1;
    for (int i = 0; ok && i < b->ndim; i++) {
        ok = a->dimensions[i] == b->shape[i];
        size *= b->shape[i];
    }
    /* NumPy exports canonical strides for contiguous arrays: only strides that address
     * memory (a dimension longer than 1 of a non-empty array) must agree. */
    for (int i = 0; ok && size > 0 && i < b->ndim; i++)
        ok = b->shape[i] <= 1 || a->strides[i] == b->strides[i];
    release_slots(&slot, 1);
    return ok;
}

/* _configure(errors_module, ndarray_type, probes) -> bool (the struct road is on) */
static PyObject *mod_configure(PyObject *self, PyObject *args)
{
    PyObject *errors, *ndarray, *probes;
    if (!PyArg_ParseTuple(args, "OO!O", &errors, &PyType_Type, &ndarray, &probes))
        return NULL;
    struct {
        PyObject **slot;
        const char *name;
    } names[] = {
        {&g_typing_error, "TypingError"},         {&g_syntax_error, "NumjitSyntaxError"},
        {&g_numjit_error, "NumjitError"},         {&g_compile_error, "CompileError"},
        {&g_unsupported_error, "UnsupportedError"}, {&g_cuda_error, "CudaError"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        PyObject *c = PyObject_GetAttrString(errors, names[i].name);
        if (!c)
            return NULL;
        PyObject *old = *names[i].slot;
        *names[i].slot = c;
        Py_XDECREF(old);
    }
    Py_INCREF(ndarray);
    Py_XDECREF((PyObject *)g_ndarray_type);
    g_ndarray_type = (PyTypeObject *)ndarray;
    g_fast_ndarray = 0;
    PyObject *it = PyObject_GetIter(probes);
    if (!it)
        return NULL;
    int ok = 1, count = 0;
    PyObject *o;
    while ((o = PyIter_Next(it))) {
        ok = ok && probe_agrees(o);
        count++;
        Py_DECREF(o);
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return NULL;
    g_fast_ndarray = ok && count > 0 && !getenv("NUMJIT_NO_ARRAY_FAST_PATH");
    return PyBool_FromLong(g_fast_ndarray);
}

/* cache_stats() -> {hits, misses, stores}: what the on-disk cache did in this process. */
static PyObject *mod_cache_stats(PyObject *self, PyObject *unused)
{
    NjCacheStats st;
    nj_cache_stats(&st);
    return Py_BuildValue("{sKsKsK}", "hits", (unsigned long long)st.hits, "misses",
                         (unsigned long long)st.misses, "stores", (unsigned long long)st.stores);
}

/* set_objmode_hook(address): the C function (a ctypes callback of numjit.objmode) that runs
 * numba.objmode blocks for compiled code (nj_set_objmode_hook). */
static PyObject *mod_set_objmode_hook(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *addr;
    if (!PyArg_ParseTuple(args, "O", &addr))
        return NULL;
    void *p = PyLong_AsVoidPtr(addr);
    if (!p && PyErr_Occurred())
        return NULL;
    nj_set_objmode_hook((NjObjmodeHook)p);
    Py_RETURN_NONE;
}

static PyMethodDef module_functions[] = {
    {"cache_stats", mod_cache_stats, METH_NOARGS,
     "cache_stats() -> {hits, misses, stores}: the on-disk cache in this process."},
    {"compile_source", mod_compile_source, METH_VARARGS,
     "compile_source(filename, text) -> Module: parse a source file."},
    {"version", mod_version, METH_NOARGS, "The library's version string."},
    {"set_objmode_hook", mod_set_objmode_hook, METH_VARARGS,
     "set_objmode_hook(address): the C function running objmode blocks."},
    {"set_extension_hook", mod_set_extension_hook, METH_VARARGS,
     "set_extension_hook(hook): who answers the typer for @overload names (numjit.extending)."},
    {"_abi_sizes", mod_abi_sizes, METH_NOARGS, "(sizeof(NjArray), sizeof(NjValue))."},
    {"_note_frozen", result_note_frozen, METH_VARARGS,
     "_note_frozen(address, nbytes): a frozen global array's copy (results there are read-only)."},
    {"_prepare", mod_prepare, METH_NOARGS,
     "_prepare(): create the context and start its JIT in the background."},
    {"typeof", mod_typeof, METH_VARARGS, "typeof(value) -> Numba's spelling of its type."},
    {"_can_convert", mod_can_convert, METH_VARARGS,
     "_can_convert(from, to) -> Numba's conversion kind (0 none, 1 exact, ..., 4 unsafe)."},
    {"_configure", mod_configure, METH_VARARGS,
     "_configure(errors_module, ndarray_type, probe_arrays) -> fast array road enabled."},
    {"_configure_ufunc", mod_configure_ufunc, METH_VARARGS,
     "_configure_ufunc(numpy.empty, numpy.asarray, dtypes): what ufunc calls allocate with."},
    {"_numpy_ufunc", mod_numpy_ufunc, METH_VARARGS,
     "_numpy_ufunc(name, doc, nin, nout, identity, value, signature, types, loops) -> "
     "(numpy.ufunc, keepalive)."},
    {"_numpy_ufunc_set_loops", mod_numpy_ufunc_set_loops, METH_VARARGS,
     "_numpy_ufunc_set_loops(ufunc, types, loops) -> keepalive or None."},
    {"set_num_threads", mod_set_num_threads, METH_VARARGS,
     "set_num_threads(n): threads of target='parallel' (0: all cores)."},
    {"get_num_threads", mod_get_num_threads, METH_NOARGS,
     "get_num_threads() -> threads of target='parallel'."},
    {"parfor_stats", mod_parfor_stats, METH_NOARGS,
     "parfor_stats() -> {loops, pooled, chunks, threads}: what prange loops did."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef numjit_module = {
    PyModuleDef_HEAD_INIT, "numjit._numjit",
    "numjit's CPython extension: compiled-call dispatch over libnumjit.", -1, module_functions,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__numjit(void)
{
    print_install();
    g_typing_error = PyExc_TypeError;
    g_syntax_error = PyExc_SyntaxError;
    g_numjit_error = PyExc_RuntimeError;
    g_compile_error = PyExc_RuntimeError;
    g_unsupported_error = PyExc_NotImplementedError;
    g_cuda_error = PyExc_RuntimeError;
    Py_INCREF(g_typing_error);
    Py_INCREF(g_syntax_error);
    Py_INCREF(g_numjit_error);
    Py_INCREF(g_compile_error);
    Py_INCREF(g_unsupported_error);
    Py_INCREF(g_cuda_error);

    PyObject *m = PyModule_Create(&numjit_module);
    if (!m)
        return NULL;
    g_module_type = (PyTypeObject *)PyType_FromSpec(&module_spec);
    PyObject *dt = PyType_FromSpec(&dispatcher_spec);
    PyObject *ut = PyType_FromSpec(&ufunc_spec);
    g_dispatcher_type = (PyTypeObject *)dt; /* kept alive by the module's reference */
    if (!g_module_type || !dt || !ut || result_init(m) || gen_init(m) ||
        typeddict_add_type(m) || typedlist_add_type(m) ||
        PyModule_AddObjectRef(m, "Module", (PyObject *)g_module_type) ||
        PyModule_AddObjectRef(m, "Dispatcher", dt) || PyModule_AddObjectRef(m, "Ufunc", ut) ||
        PyModule_AddIntConstant(m, "generic_call", nj_function_entry_info == NULL) ||
        PyModule_AddIntConstant(m, "MAX_NDIM", NJ_MAX_NDIM)) {
        Py_XDECREF(dt);
        Py_XDECREF(ut);
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(dt);
    Py_DECREF(ut);
    return m;
}
