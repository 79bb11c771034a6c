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
 * numpy.empty.  Its section below says how.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numjit.h"

#pragma weak nj_function_entry_info
#pragma weak nj_function_raise

#define MAX_STACK_ARGS 16
#define MAX_ARGS 256

/* ---- global state -------------------------------------------------------------------------- */

static NjContext *g_ctx;
/* Exception classes from numjit.errors (set by _configure; builtins until then). */
static PyObject *g_typing_error, *g_syntax_error, *g_numjit_error, *g_compile_error,
    *g_unsupported_error, *g_cuda_error;
static PyTypeObject *g_ndarray_type; /* numpy.ndarray, or NULL before _configure */
static int g_fast_ndarray;           /* the struct road is verified */

/* ---- type codes ---------------------------------------------------------------------------- */

enum { K_SCALAR = 1, K_ARRAY = 2 };
enum { L_C = 0, L_F = 1, L_A = 2 };
#define CODE(kind, dt, ndim, lay) \
    ((uint32_t)(kind) << 12 | (uint32_t)(lay) << 10 | (uint32_t)(ndim) << 5 | (uint32_t)(dt))
#define CODE_KIND(c) ((int)((c) >> 12) & 3)
#define CODE_LAYOUT(c) ((int)((c) >> 10) & 3)
#define CODE_NDIM(c) ((int)((c) >> 5) & 31)
#define CODE_DTYPE(c) ((NjDType)((c) & 31))

typedef union Scalar {
    uint8_t b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    uint64_t pad[32]; /* room for a returned tuple (NjEntryInfo.result_size <= 256) */
} Scalar;

typedef struct ArgSlot {
    Scalar s;
    int has_buf;
    Py_buffer buf;
    NjArray arr;
} ArgSlot;

/* ---- NumPy's leading struct fields (stable across 1.x and 2.x; verified at _configure) ---- */

typedef struct NpDescrHead {
    PyObject ob_base;
    PyTypeObject *typeobj;
    char kind, type, byteorder, flags_or_pad;
    int type_num;
} NpDescrHead;

typedef struct NpArrayHead {
    PyObject ob_base;
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    NpDescrHead *descr;
    int flags;
} NpArrayHead;

#define NPY_C_CONTIGUOUS 0x0001
#define NPY_F_CONTIGUOUS 0x0002

static const signed char np_typenum_dtype[13] = {
    NJ_BOOL, NJ_INT8, NJ_UINT8, NJ_INT16, NJ_UINT16, NJ_INT32, NJ_UINT32,
    -1 /* long: by size */, -1 /* ulong */, NJ_INT64, NJ_UINT64, NJ_FLOAT32, NJ_FLOAT64,
};

static int np_dtype_of(const NpDescrHead *d)
{
    if (d->byteorder == '>')
        return -1;
    if (d->type_num == 7)
        return sizeof(long) == 8 ? NJ_INT64 : NJ_INT32;
    if (d->type_num == 8)
        return sizeof(long) == 8 ? NJ_UINT64 : NJ_UINT32;
    if (d->type_num < 0 || d->type_num > 12)
        return -1;
    return np_typenum_dtype[d->type_num];
}

/* ---- buffers ------------------------------------------------------------------------------- */

/* The dtype of a struct-module format string with the given item size, or -1. */
static int fmt_dtype(const char *fmt, Py_ssize_t itemsize)
{
    if (!fmt)
        return itemsize == 1 ? NJ_UINT8 : -1; /* "B" is implied when format is not requested */
    if (*fmt == '@' || *fmt == '=' || *fmt == '<')
        fmt++;
    else if (*fmt == '>' || *fmt == '!')
        return -1;
    if (!fmt[0] || fmt[1])
        return -1;
    switch (fmt[0]) {
    case '?':
        return itemsize == 1 ? NJ_BOOL : -1;
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
        switch (itemsize) {
        case 1: return NJ_INT8;
        case 2: return NJ_INT16;
        case 4: return NJ_INT32;
        case 8: return NJ_INT64;
        }
        return -1;
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
        switch (itemsize) {
        case 1: return NJ_UINT8;
        case 2: return NJ_UINT16;
        case 4: return NJ_UINT32;
        case 8: return NJ_UINT64;
        }
        return -1;
    case 'f': case 'd':
        return itemsize == 4 ? NJ_FLOAT32 : itemsize == 8 ? NJ_FLOAT64 : -1;
    }
    return -1;
}

/* NumPy's contiguity rule (size-1 dimensions ignored; an empty array is both). */
static int layout_of(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    int c = 1, f = 1;
    int64_t sd = itemsize;
    for (int i = 0; i < ndim; i++)
        if (shape[i] == 0)
            return L_C;
    for (int i = ndim - 1; i >= 0; i--) {
        if (shape[i] != 1) {
            if (strides[i] != sd)
                c = 0;
            sd *= shape[i];
        }
    }
    sd = itemsize;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] != 1) {
            if (strides[i] != sd)
                f = 0;
            sd *= shape[i];
        }
    }
    return c ? L_C : f ? L_F : L_A;
}

static void release_slots(ArgSlot *slots, int n)
{
    for (int i = 0; i < n; i++)
        if (slots[i].has_buf) {
            PyBuffer_Release(&slots[i].buf);
            slots[i].has_buf = 0;
        }
}

static void store_scalar(Scalar *s, NjDType dt, const void *p)
{
    memcpy(s, p, (size_t)nj_dtype_size(dt));
}

static const char *type_name(PyObject *o)
{
    static char buf[128];
    PyObject *n = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__name__");
    const char *s = n ? PyUnicode_AsUTF8AndSize(n, NULL) : NULL;
    snprintf(buf, sizeof buf, "%s", s ? s : "?");
    Py_XDECREF(n);
    PyErr_Clear();
    return buf;
}

static void typing_error(int idx, PyObject *o, const char *why)
{
    PyErr_Format(g_typing_error, "argument %d: %s (a value of type '%s')", idx + 1, why,
                 type_name(o));
}

/* Classifies argument o, fills its slot and *code; *ptr receives what args[k] points at.
 * Returns 0, or -1 with an exception set. */
static int classify(PyObject *o, int idx, ArgSlot *slot, uint32_t *code, void **ptr)
{
    if (g_fast_ndarray && Py_TYPE(o) == g_ndarray_type) {
        const NpArrayHead *a = (const NpArrayHead *)o;
        int dt = np_dtype_of(a->descr);
        if (dt >= 0 && a->nd <= NJ_MAX_NDIM) {
            int lay = (a->flags & NPY_C_CONTIGUOUS) ? L_C
                      : (a->flags & NPY_F_CONTIGUOUS) ? L_F
                                                      : L_A;
            NjArray *arr = &slot->arr;
            arr->data = a->data;
            arr->ndim = a->nd;
            arr->dtype = (NjDType)dt;
            for (int i = 0; i < a->nd; i++) {
                arr->shape[i] = a->dimensions[i];
                arr->strides[i] = a->strides[i];
            }
            *code = CODE(K_ARRAY, dt, a->nd, lay);
            *ptr = arr;
            return 0;
        }
        /* unusual dtype: the buffer road below reports it */
    }
    if (PyFloat_Check(o)) { /* also numpy.float64, a float subclass */
        slot->s.f64 = PyFloat_AsDouble(o);
        *code = CODE(K_SCALAR, NJ_FLOAT64, 0, 0);
        *ptr = &slot->s;
        return 0;
    }
    if (PyBool_Check(o)) {
        slot->s.b = o == Py_True;
        *code = CODE(K_SCALAR, NJ_BOOL, 0, 0);
        *ptr = &slot->s;
        return 0;
    }
    if (PyLong_Check(o)) {
        int ovf = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &ovf);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (ovf == 0) {
            slot->s.i64 = v;
            *code = CODE(K_SCALAR, NJ_INT64, 0, 0);
        } else {
            unsigned long long u = ovf > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
            if (ovf < 0 || (u == (unsigned long long)-1 && PyErr_Occurred())) {
                PyErr_Clear();
                typing_error(idx, o, "integer too large for int64 and uint64");
                return -1;
            }
            slot->s.u64 = u;
            *code = CODE(K_SCALAR, NJ_UINT64, 0, 0);
        }
        *ptr = &slot->s;
        return 0;
    }
    if (PyObject_GetBuffer(o, &slot->buf, PyBUF_RECORDS_RO) != 0) {
        PyErr_Clear();
        typing_error(idx, o, "numjit cannot compile for this argument type");
        return -1;
    }
    slot->has_buf = 1;
    Py_buffer *b = &slot->buf;
    int dt = fmt_dtype(b->format, b->itemsize);
    if (dt < 0) {
        PyErr_Format(g_typing_error, "argument %d: unsupported element type '%s' (a value of type '%s')",
                     idx + 1, b->format ? b->format : "B", type_name(o));
        return -1;
    }
    if (b->ndim > NJ_MAX_NDIM) {
        PyErr_Format(g_typing_error, "argument %d: %d dimensions (at most %d supported)", idx + 1,
                     b->ndim, NJ_MAX_NDIM);
        return -1;
    }
    if (b->ndim == 0 && !(g_ndarray_type && PyObject_TypeCheck(o, g_ndarray_type))) {
        /* a NumPy scalar (numpy.float32(1), numpy.int32(2), numpy.bool_(True), ...) */
        store_scalar(&slot->s, (NjDType)dt, b->buf);
        *code = CODE(K_SCALAR, dt, 0, 0);
        *ptr = &slot->s;
        return 0;
    }
    NjArray *arr = &slot->arr;
    arr->data = b->buf;
    arr->ndim = b->ndim;
    arr->dtype = (NjDType)dt;
    for (int i = 0; i < b->ndim; i++) {
        arr->shape[i] = b->shape[i];
        arr->strides[i] = b->strides ? b->strides[i] : 0;
    }
    if (!b->strides && b->ndim > 0) { /* C-contiguous exporter that omitted strides */
        int64_t sd = b->itemsize;
        for (int i = b->ndim - 1; i >= 0; i--) {
            arr->strides[i] = sd;
            sd *= arr->shape[i];
        }
    }
    *code = CODE(K_ARRAY, dt, b->ndim, layout_of(b->ndim, arr->shape, arr->strides, b->itemsize));
    *ptr = arr;
    return 0;
}

/* Numba's spelling of one argument type: "int64", "float64[::1]", "float32[:, ::1]",
 * "float64[::1, :]", "float64[:, :]", "array(float64, 0d, C)". */
static void spell_code(uint32_t c, char *out, size_t cap)
{
    const char *dn = nj_dtype_name(CODE_DTYPE(c));
    if (CODE_KIND(c) == K_SCALAR) {
        snprintf(out, cap, "%s", dn);
        return;
    }
    int nd = CODE_NDIM(c), lay = CODE_LAYOUT(c);
    if (nd == 0) {
        snprintf(out, cap, "array(%s, 0d, C)", dn);
        return;
    }
    size_t len = (size_t)snprintf(out, cap, "%s[", dn);
    for (int i = 0; i < nd && len < cap; i++) {
        int unit = (lay == L_C && i == nd - 1) || (lay == L_F && i == 0);
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? ", " : "", unit ? "::1" : ":");
    }
    if (len < cap)
        snprintf(out + len, cap - len, "]");
}

/* "(float64[::1], int64)" — malloc'ed. */
static char *spell_signature(const uint32_t *codes, int n)
{
    size_t cap = 3 + (size_t)n * 64;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t len = 0;
    s[len++] = '(';
    for (int i = 0; i < n; i++) {
        char one[64];
        spell_code(codes[i], one, sizeof one);
        len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? ", " : "", one);
    }
    snprintf(s + len, cap - len, ")");
    return s;
}

/* ---- errors -------------------------------------------------------------------------------- */

static PyObject *exc_for_runtime(const char *name, const char *msg)
{
    if (name) {
        if (!strcmp(name, "ZeroDivisionError"))
            return PyExc_ZeroDivisionError;
        if (!strcmp(name, "IndexError"))
            return PyExc_IndexError;
        if (!strcmp(name, "ValueError"))
            return PyExc_ValueError;
        if (!strcmp(name, "OverflowError"))
            return PyExc_OverflowError;
    }
    if (msg) { /* the generic road has only the text */
        if (strstr(msg, "ZeroDivisionError") || strstr(msg, "division by zero") ||
            strstr(msg, "modulo by zero"))
            return PyExc_ZeroDivisionError;
        if (strstr(msg, "IndexError") || strstr(msg, "out of bounds"))
            return PyExc_IndexError;
        if (strstr(msg, "ValueError"))
            return PyExc_ValueError;
    }
    return PyExc_RuntimeError;
}

/* Sets the Python exception for a failed library call; returns NULL. */
static PyObject *raise_status(NjStatus st)
{
    const char *msg = g_ctx ? nj_error_message(g_ctx) : "";
    if (!msg || !*msg)
        msg = nj_status_name(st);
    PyObject *exc;
    switch (st) {
    case NJ_ERR_SYNTAX: exc = g_syntax_error; break;
    case NJ_ERR_TYPE: exc = g_typing_error; break;
    case NJ_ERR_NAME: exc = g_typing_error; break;
    case NJ_ERR_ARGS: exc = PyExc_TypeError; break;
    case NJ_ERR_RUNTIME: exc = exc_for_runtime(NULL, msg); break;
    case NJ_ERR_NOMEM: exc = PyExc_MemoryError; break;
    case NJ_ERR_IO: exc = PyExc_OSError; break;
    case NJ_ERR_UNSUPPORTED: exc = g_unsupported_error; break;
    case NJ_ERR_CUDA: exc = g_cuda_error; break;
    case NJ_ERR_COMPILE:
    case NJ_ERR_INTERNAL: exc = g_compile_error; break;
    default: exc = g_numjit_error; break;
    }
    PyErr_SetString(exc, msg);
    return NULL;
}

/* ---- Module: a compiled source file -------------------------------------------------------- */

typedef struct ModuleObject {
    PyObject_HEAD
    NjModule *mod; /* owned by g_ctx */
} ModuleObject;

static PyTypeObject *g_module_type;

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

typedef struct CacheEntry {
    NjEntry entry;
    NjKind rkind;
    NjDType rdtype;
    int tcount;           /* NJ_KIND_TUPLE: fields, their dtypes and offsets */
    NjDType tdtypes[16];
    int toffsets[16];
    char *sig;
    uint32_t codes[]; /* nparams */
} CacheEntry;

typedef struct DispatcherObject {
    PyObject_HEAD
    NjFunction *fn;       /* NULL until bound */
    PyObject *module_ref; /* the ModuleObject that owns fn */
    int nparams;
    int nogil;
    int generic;          /* no entry_info in the library: every call through nj_call */
    int ncache, capcache, last;
    CacheEntry **cache;
} DispatcherObject;

static void dispatcher_dealloc(PyObject *self)
{
    DispatcherObject *d = (DispatcherObject *)self;
    for (int i = 0; i < d->ncache; i++) {
        free(d->cache[i]->sig);
        free(d->cache[i]);
    }
    free(d->cache);
    Py_CLEAR(d->module_ref);
    PyTypeObject *tp = Py_TYPE(self);
    freefunc tfree = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tfree(self);
    Py_DECREF(tp);
}

static CacheEntry *cache_find(DispatcherObject *d, const uint32_t *codes, int n)
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

/* Compiles the specialization for codes and caches it.  NULL with an exception on failure. */
static CacheEntry *cache_add(DispatcherObject *d, const uint32_t *codes, int n)
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
    if (!e) {
        free(e);
        free(sig);
        PyErr_NoMemory();
        return NULL;
    }
    if (d->ncache == d->capcache) {
        int cap = d->capcache ? d->capcache * 2 : 4;
        CacheEntry **c = realloc(d->cache, (size_t)cap * sizeof *c);
        if (!c) {
            free(e);
            free(sig);
            PyErr_NoMemory();
            return NULL;
        }
        d->cache = c;
        d->capcache = cap;
    }
    e->entry = info.entry;
    e->rkind = info.result_kind;
    e->rdtype = info.result_dtype;
    e->tcount = info.result_count;
    memcpy(e->tdtypes, info.result_dtypes, sizeof e->tdtypes);
    memcpy(e->toffsets, info.result_offsets, sizeof e->toffsets);
    e->sig = sig;
    memcpy(e->codes, codes, (size_t)n * sizeof(uint32_t));
    d->last = d->ncache;
    d->cache[d->ncache++] = e;
    return e;
}

static PyObject *box_scalar(NjDType dt, const Scalar *r)
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
    default: break;
    }
    PyErr_SetString(g_compile_error, "numjit: unknown result type");
    return NULL;
}

/* A returned tuple: a C struct whose fields the entry info described. */
static PyObject *box_tuple(const CacheEntry *e, const Scalar *r)
{
    PyObject *t = PyTuple_New(e->tcount);
    if (!t)
        return NULL;
    for (int k = 0; k < e->tcount; k++) {
        Scalar one;
        memcpy(&one, (const unsigned char *)r + e->toffsets[k], 8);
        PyObject *v = box_scalar(e->tdtypes[k], &one);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SetItem(t, k, v);
    }
    return t;
}

static PyObject *raise_site(DispatcherObject *d, NjEntry entry, int32_t site)
{
    if (!nj_function_raise) {
        PyErr_Format(PyExc_RuntimeError, "numjit: the compiled function raised (site %d)",
                     (int)site);
        return NULL;
    }
    const char *name = NULL;
    nj_function_raise(d->fn, entry, site, &name);
    const char *msg = nj_error_message(g_ctx);
    PyErr_SetString(exc_for_runtime(name, msg), msg && *msg ? msg : "error in compiled code");
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
        if (CODE_KIND(codes[i]) == K_ARRAY) {
            v->kind = NJ_KIND_ARRAY;
            v->v.a = &slots[i].arr;
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
    int i;
    for (i = 0; i < n; i++) {
        slots[i].has_buf = 0;
        if (classify(PyTuple_GetItem(args, i), (int)i, &slots[i], &codes[i], &argv[i]) != 0)
            goto done;
    }
    if (d->generic) {
        ret = call_generic(d, slots, codes, (int)n);
        goto done;
    }
    CacheEntry *e = cache_find(d, codes, (int)n);
    if (!e && !(e = cache_add(d, codes, (int)n)))
        goto done;
    /* Copied out: with the GIL released, e must not be touched again. */
    NjEntry entry = e->entry;
    NjKind rkind = e->rkind;
    NjDType rdtype = e->rdtype;
    Scalar res;
    res.pad[0] = res.pad[1] = 0;
    if (rkind == NJ_KIND_TUPLE)
        memset(&res, 0, sizeof res);
    int32_t site;
    if (d->nogil) {
        Py_BEGIN_ALLOW_THREADS
        site = entry(argv, &res);
        Py_END_ALLOW_THREADS
    } else {
        site = entry(argv, &res);
    }
    release_slots(slots, (int)n);
    if (site != 0)
        ret = raise_site(d, entry, site);
    else if (rkind == NJ_KIND_SCALAR)
        ret = box_scalar(rdtype, &res);
    else if (rkind == NJ_KIND_NONE) {
        Py_INCREF(Py_None);
        ret = Py_None;
    } else if (rkind == NJ_KIND_TUPLE)
        ret = box_tuple(e, &res);
    else
        PyErr_SetString(g_unsupported_error, "numjit: returning arrays is not supported yet");
done:
    release_slots(slots, i < n ? i + 1 : (int)n);
    if (slots != stack_slots) {
        PyMem_Free(slots);
        PyMem_Free(codes);
        PyMem_Free(argv);
    }
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

/* _compile(signature): compiles an explicit signature now ("(float64[::1], int64)"). */
static PyObject *dispatcher_compile(PyObject *self, PyObject *args)
{
    DispatcherObject *d = (DispatcherObject *)self;
    const char *sig;
    if (!PyArg_ParseTuple(args, "s", &sig))
        return NULL;
    if (!d->fn) {
        PyErr_SetString(g_numjit_error, "numjit: dispatcher is not bound to a function");
        return NULL;
    }
    NjEntry entry = NULL;
    NjStatus st;
    NjFunction *fn = d->fn;
    Py_BEGIN_ALLOW_THREADS
    st = nj_function_entry(fn, sig, &entry);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK)
        return raise_status(st);
    Py_RETURN_NONE;
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

/* _signatures() -> list of the signature strings compiled through this dispatcher's cache. */
static PyObject *dispatcher_signatures(PyObject *self, PyObject *unused)
{
    DispatcherObject *d = (DispatcherObject *)self;
    PyObject *l = PyList_New(0);
    for (int i = 0; l && i < d->ncache; i++) {
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
        if (classify(PyTuple_GetItem(tup, i), (int)i, &slots[i], &codes[i], &argv[i]) != 0)
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

static PyMethodDef dispatcher_methods[] = {
    {"_bind", dispatcher_bind, METH_VARARGS,
     "_bind(module, name, nparams, nogil): attach the compiled module's function."},
    {"_is_bound", dispatcher_is_bound, METH_NOARGS, "True once _bind succeeded."},
    {"_compile", dispatcher_compile, METH_VARARGS, "_compile(signature): compile now."},
    {"_dump", dispatcher_dump, METH_VARARGS, "_dump(signature, what) -> text."},
    {"_signatures", dispatcher_signatures, METH_NOARGS, "Signatures compiled so far."},
    {"_signature_of", dispatcher_signature_of, METH_VARARGS,
     "_signature_of(args) -> the signature these arguments dispatch to."},
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

/* ---- Ufunc: the object behind @vectorize and @guvectorize -----------------------------------
 *
 * A Ufunc (subclassed in ufunc.py) wraps one NjUfunc.  A call runs, all in C on a hit:
 *
 *   1. classify each input with classify() above: an array of ndim >= 1 stays an array; a
 *      Python or NumPy scalar or a 0-d array is a *scalar* whose value is kept; anything else
 *      goes through numpy.asarray first (lists, tuples);
 *   2. build a key: per input (array or scalar, dtype, and for a scalar NumPy 1.x's value-based
 *      type: min_scalar_type and its "small unsigned" bit), per output its dtype or "allocate";
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

#define UF_MAX 16   /* inputs + outputs (the library's RT_UF_MAXARGS) */
#define UF_F16 11   /* float16: a value-based type only (NumPy's min_scalar_type) */
#define UF_ALLOC 31
#define UF_NOGIL_MIN 4096 /* elements: below this the call keeps the GIL */

static PyObject *g_np_empty, *g_np_asarray, *g_order_f;
static PyObject *g_np_dtypes[NJ_DTYPE_COUNT];

typedef struct UfEntryPy {
    uint16_t key[UF_MAX];
    uint8_t loop_dt[UF_MAX]; /* inputs: the dtype a scalar is converted to */
    uint8_t out_dt[UF_MAX];
} UfEntryPy;

typedef struct UfuncObject {
    PyObject_HEAD
    NjUfunc *u;           /* NULL until bound */
    PyObject *module_ref; /* the ModuleObject that owns u */
    int nin, nout, gufunc;
    int ncache, capcache, last;
    UfEntryPy *cache;
} UfuncObject;

typedef struct UfArg {
    ArgSlot slot;
    PyObject *tmp;   /* owned: numpy.asarray(input) */
    int scalar;
    NjDType dt;
    int min_dt, small_u;
    NjArray arr;     /* what the library sees */
    Scalar conv;     /* a scalar converted to its loop dtype */
} UfArg;

static void ufunc_dealloc(PyObject *self)
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
    double f = 0;
    int64_t i = 0;
    uint64_t u = 0;
    switch (from) {
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
static PyObject *uf_raise(NjStatus st)
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
static int uf_out_array(PyObject *o, int k, ArgSlot *slot, NjArray *arr)
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
            t = Py_BuildValue("(iiii)", args[k].scalar, (int)args[k].dt,
                              args[k].scalar ? args[k].min_dt : (int)args[k].dt,
                              args[k].scalar ? args[k].small_u : 0);
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

/* numpy.empty(shape, dtype[, order='F']) and its NjArray. New reference, or NULL. */
static PyObject *uf_empty(const int64_t *shape, int nd, NjDType dt, int order_f, NjArray *arr)
{
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

static PyObject *ufunc_call(PyObject *self, PyObject *args, PyObject *kwargs)
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
    PyObject *outobj[UF_MAX] = {0};
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
    PyObject *made[UF_MAX] = {0};
    PyObject *ret = NULL;
    int ni = 0, no = 0;
    uint16_t key[UF_MAX];
    for (; ni < nin; ni++) {
        if (uf_classify_input(PyTuple_GetItem(args, ni), ni, &ua[ni]) != 0) {
            uf_release(ua, ni + 1);
            return NULL;
        }
        UfArg *a = &ua[ni];
        key[ni] = a->scalar ? (uint16_t)(1u << 10 | (unsigned)a->small_u << 9 |
                                         (unsigned)a->min_dt << 5 | a->dt)
                            : (uint16_t)(1u << 11 | a->dt);
    }
    for (; no < nout; no++) {
        oslot[no].has_buf = 0;
        given[no] = outobj[no] != NULL;
        memset(&outs[no], 0, sizeof outs[no]);
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
        st = nj_ufunc_call(u, ins, nin, outs, nout);
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

static PyMethodDef ufunc_methods[] = {
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

static PyType_Spec ufunc_spec = {
    "numjit._numjit.Ufunc", sizeof(UfuncObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    ufunc_slots,
};

/* _configure_ufunc(numpy.empty, numpy.asarray, dtypes): dtypes[k] is the numpy.dtype of NjDType k. */
static PyObject *mod_configure_ufunc(PyObject *self, PyObject *args)
{
    PyObject *empty, *asarray, *dts;
    if (!PyArg_ParseTuple(args, "OOO!", &empty, &asarray, &PyTuple_Type, &dts))
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
    Py_RETURN_NONE;
}

static PyObject *mod_set_num_threads(PyObject *self, PyObject *args)
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

static PyObject *mod_get_num_threads(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(nj_get_num_threads());
}

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
    st = nj_compile_source(g_ctx, filename, text, &m);
    Py_END_ALLOW_THREADS
    if (st != NJ_OK)
        return raise_status(st);
    ModuleObject *mo = PyObject_New(ModuleObject, g_module_type);
    if (!mo)
        return NULL;
    mo->mod = m;
    return (PyObject *)mo;
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
    int rc = classify(o, 0, &slot, &code, &p);
    release_slots(&slot, 1);
    if (rc != 0)
        return NULL;
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

static PyMethodDef module_functions[] = {
    {"compile_source", mod_compile_source, METH_VARARGS,
     "compile_source(filename, text) -> Module: parse a source file."},
    {"version", mod_version, METH_NOARGS, "The library's version string."},
    {"typeof", mod_typeof, METH_VARARGS, "typeof(value) -> Numba's spelling of its type."},
    {"_configure", mod_configure, METH_VARARGS,
     "_configure(errors_module, ndarray_type, probe_arrays) -> fast array road enabled."},
    {"_configure_ufunc", mod_configure_ufunc, METH_VARARGS,
     "_configure_ufunc(numpy.empty, numpy.asarray, dtypes): what ufunc calls allocate with."},
    {"set_num_threads", mod_set_num_threads, METH_VARARGS,
     "set_num_threads(n): threads of target='parallel' (0: all cores)."},
    {"get_num_threads", mod_get_num_threads, METH_NOARGS,
     "get_num_threads() -> threads of target='parallel'."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef numjit_module = {
    PyModuleDef_HEAD_INIT, "numjit._numjit",
    "numjit's CPython extension: compiled-call dispatch over libnumjit.", -1, module_functions,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__numjit(void)
{
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
    if (!g_module_type || !dt || !ut ||
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
