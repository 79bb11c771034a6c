/* _resolve.c — calls of a dispatcher with declared signatures, as Numba's dispatcher makes them.
 *
 * `@njit("float64(float64)")` compiles its signatures when it is decorated and then compiles
 * nothing more (Numba's disable_compile).  A call whose argument types are not exactly one of
 * them is resolved as Numba's typeconv does it (numba/core/typeconv, TypeManager.selectOverload):
 *
 *   1. each argument type is rated against each declared signature's type: exact, promote,
 *      safe, unsafe, or no conversion at all (then the signature is out).  Scalar ratings come
 *      from Numba's casting rules (numba/core/typeconv/rules.py: bool -> int8 safe, int8 ->
 *      int16 promote, int64 -> float64 safe, ...) closed over paths as its TypeGraph closes
 *      them: a path is as loose as its loosest step, a pair takes its strictest path.  An array
 *      converts only to an array of its dtype and ndim, to its own layout or 'A' (safe), and
 *      a read-only array never to a writable one;
 *   2. the signature with the fewest unsafe conversions, then safe ones, then promotions wins;
 *      a tie is ambiguous and no match is "No matching definition" (both raised by
 *      dispatcher.py, which spells the types);
 *   3. each scalar argument is then unboxed as the chosen type the way Numba's unboxing does it
 *      (int(x) then the C width for integers, float(x) for floats, truth for bool), so that
 *      `2**62` reaches a float64 parameter as 4.611686018427388e+18 and 2.7 an int32 one as 2,
 *      and the errors (OverflowError, ValueError for NaN) are CPython's, as under Numba;
 *   4. a declared return type converts the compiled function's result as Numba's lowering
 *      casts a return value (rs_cast_scalar: LLVM's trunc/ext, fptosi/sitofp, != 0 for bool).
 */
#include "_numjit.h"

#include <math.h>

/* Step 1-2 choose among the dispatcher's cache entries (CacheEntry, _numjit.h): a call so
 * resolved gets an entry of its own, keyed by its codes, whose `formal` are the declared
 * codes, so the next call of those types finds it directly; _compile and _freeze (the
 * declared signatures' side of the Dispatcher type) are at the end of this file. */

enum { CV_NONE = 0, CV_EXACT = 1, CV_PROMOTE = 2, CV_SAFE = 3, CV_UNSAFE = 4 };

/* NjDType order, then float16 (a node of Numba's graph that numjit has no values of). */
#define NT (NJ_DTYPE_COUNT + 1)
#define F16 NJ_DTYPE_COUNT

static unsigned char g_conv[NT][NT];
static int g_conv_ready;

static void rule(int a, int b, int ab, int ba)
{
    g_conv[a][b] = (unsigned char)ab;
    if (ba)
        g_conv[b][a] = (unsigned char)ba;
}

/* Numba 0.56's _init_casting_rules, then the min-max closure over paths. */
static void conv_init(void)
{
    for (int i = 0; i < NT; i++)
        for (int j = 0; j < NT; j++)
            g_conv[i][j] = i == j ? CV_EXACT : CV_NONE;
    rule(NJ_BOOL, NJ_INT8, CV_SAFE, CV_UNSAFE);
    rule(NJ_BOOL, NJ_UINT8, CV_SAFE, CV_UNSAFE);
    rule(NJ_INT8, NJ_INT16, CV_PROMOTE, CV_UNSAFE);
    rule(NJ_UINT8, NJ_UINT16, CV_PROMOTE, CV_UNSAFE);
    rule(NJ_INT16, NJ_INT32, CV_PROMOTE, CV_UNSAFE);
    rule(NJ_UINT16, NJ_UINT32, CV_PROMOTE, CV_UNSAFE);
    rule(NJ_INT32, NJ_INT64, CV_PROMOTE, CV_UNSAFE);
    rule(NJ_UINT32, NJ_UINT64, CV_PROMOTE, CV_UNSAFE);
    rule(NJ_UINT8, NJ_INT16, CV_SAFE, CV_UNSAFE);
    rule(NJ_UINT16, NJ_INT32, CV_SAFE, CV_UNSAFE);
    rule(NJ_UINT32, NJ_INT64, CV_SAFE, CV_UNSAFE);
    rule(NJ_INT16, NJ_FLOAT32, CV_SAFE, CV_UNSAFE);
    rule(NJ_INT32, NJ_FLOAT64, CV_SAFE, CV_UNSAFE);
    rule(NJ_INT16, F16, CV_UNSAFE, CV_UNSAFE);
    rule(NJ_INT32, NJ_FLOAT32, CV_UNSAFE, CV_UNSAFE);
    rule(NJ_INT64, NJ_FLOAT64, CV_SAFE, CV_UNSAFE);
    rule(NJ_UINT64, NJ_FLOAT64, CV_SAFE, CV_UNSAFE);
    rule(F16, NJ_FLOAT32, CV_PROMOTE, CV_UNSAFE);
    rule(NJ_FLOAT32, NJ_FLOAT64, CV_PROMOTE, CV_UNSAFE);
    rule(NJ_FLOAT32, NJ_COMPLEX64, CV_SAFE, CV_NONE);
    rule(NJ_FLOAT64, NJ_COMPLEX128, CV_SAFE, CV_NONE);
    rule(NJ_COMPLEX64, NJ_COMPLEX128, CV_PROMOTE, CV_UNSAFE);
    for (int k = 0; k < NT; k++)
        for (int i = 0; i < NT; i++)
            for (int j = 0; j < NT; j++) {
                if (!g_conv[i][k] || !g_conv[k][j])
                    continue;
                int via = g_conv[i][k] > g_conv[k][j] ? g_conv[i][k] : g_conv[k][j];
                if (!g_conv[i][j] || via < g_conv[i][j])
                    g_conv[i][j] = (unsigned char)via;
            }
    g_conv_ready = 1;
}

int rs_can_convert(uint32_t from, uint32_t to)
{
    if (!g_conv_ready)
        conv_init();
    if (from == to)
        return CV_EXACT;
    if (CODE_KIND(from) != CODE_KIND(to) || CODE_KIND(from) == K_TUPLE) /* tuples: exact only */
        return CV_NONE;
    if (CODE_KIND(from) == K_SCALAR)
        return g_conv[CODE_DTYPE(from)][CODE_DTYPE(to)];
    if (CODE_DTYPE(from) != CODE_DTYPE(to) || CODE_NDIM(from) != CODE_NDIM(to))
        return CV_NONE;
    if (CODE_LAYOUT(to) != L_A && CODE_LAYOUT(to) != CODE_LAYOUT(from))
        return CV_NONE;
    if (CODE_READONLY(from) && !CODE_READONLY(to))
        return CV_NONE;
    return CV_SAFE;
}

int rs_select(const uint32_t *codes, int n, const uint32_t *const *cands, int ncand,
              int *selected)
{
    int matches = 0, best[3] = {0, 0, 0};
    for (int c = 0; c < ncand; c++) {
        int r[3] = {0, 0, 0}; /* unsafe, safe, promote: compared in this order */
        int ok = 1;
        for (int i = 0; i < n && ok; i++) {
            int cv = rs_can_convert(codes[i], cands[c][i]);
            if (cv == CV_NONE)
                ok = 0;
            else if (cv == CV_UNSAFE)
                r[0]++;
            else if (cv == CV_SAFE)
                r[1]++;
            else if (cv == CV_PROMOTE)
                r[2]++;
        }
        if (!ok)
            continue;
        int cmp = matches == 0 ? -1 : 0;
        if (matches > 0) {
            for (int k = 0; k < 3; k++)
                if (r[k] != best[k]) {
                    cmp = r[k] < best[k] ? -1 : 1;
                    break;
                }
        }
        if (cmp < 0) {
            memcpy(best, r, sizeof r);
            *selected = c;
            matches = 1;
        } else if (cmp == 0) {
            matches++;
        }
    }
    return matches;
}

static void store_int(Scalar *out, NjDType dt, uint64_t bits)
{
    switch (dt) {
    case NJ_BOOL: out->b = bits != 0; break;
    case NJ_INT8: case NJ_UINT8: out->u8 = (uint8_t)bits; break;
    case NJ_INT16: case NJ_UINT16: out->u16 = (uint16_t)bits; break;
    case NJ_INT32: case NJ_UINT32: out->u32 = (uint32_t)bits; break;
    default: out->u64 = bits; break;
    }
}

static int is_int(NjDType t) { return t >= NJ_INT8 && t <= NJ_UINT64; }
static int is_signed(NjDType t) { return t >= NJ_INT8 && t <= NJ_INT64; }
static int is_complex(NjDType t) { return t == NJ_COMPLEX64 || t == NJ_COMPLEX128; }

int rs_unbox_as(PyObject *o, uint32_t actual, const Scalar *val, NjDType dt, Scalar *out)
{
    if (dt == NJ_BOOL) {
        int t = PyObject_IsTrue(o);
        if (t < 0)
            return -1;
        out->b = (uint8_t)t;
        return 0;
    }
    if (is_int(dt)) {
        PyObject *l = PyNumber_Long(o);
        if (!l)
            return -1;
        uint64_t bits;
        if (is_signed(dt)) {
            long long v = PyLong_AsLongLong(l);
            bits = (uint64_t)v;
        } else {
            bits = PyLong_AsUnsignedLongLong(l);
        }
        Py_DECREF(l);
        if (PyErr_Occurred())
            return -1;
        store_int(out, dt, bits);
        return 0;
    }
    double re, im = 0.0;
    if (is_complex(dt) && CODE_KIND(actual) == K_SCALAR && is_complex(CODE_DTYPE(actual))) {
        re = CODE_DTYPE(actual) == NJ_COMPLEX64 ? val->c64[0] : val->c128[0];
        im = CODE_DTYPE(actual) == NJ_COMPLEX64 ? val->c64[1] : val->c128[1];
    } else {
        PyObject *f = PyNumber_Float(o);
        if (!f)
            return -1;
        re = PyFloat_AsDouble(f);
        Py_DECREF(f);
        if (re == -1.0 && PyErr_Occurred())
            return -1;
    }
    switch (dt) {
    case NJ_FLOAT32: out->f32 = (float)re; break;
    case NJ_FLOAT64: out->f64 = re; break;
    case NJ_COMPLEX64: out->c64[0] = (float)re; out->c64[1] = (float)im; break;
    default: out->c128[0] = re; out->c128[1] = im; break;
    }
    return 0;
}

/* x86's cvttsd2si, which LLVM's fptosi/fptoui become: out of range or NaN gives the
 * "integer indefinite" value of the conversion's width (32 bits for the narrow types). */
static uint64_t float_to_bits(double d, NjDType to)
{
    int wide = to == NJ_INT64 || to == NJ_UINT64 || to == NJ_UINT32;
    if (to == NJ_UINT64 && d >= 9223372036854775808.0 && d < 18446744073709551616.0)
        return (uint64_t)d;
    if (wide)
        return (!isnan(d) && d > -9223372036854775809.0 && d < 9223372036854775808.0)
                   ? (uint64_t)(int64_t)d
                   : (uint64_t)INT64_MIN;
    return (!isnan(d) && d > -2147483649.0 && d < 2147483648.0) ? (uint64_t)(int64_t)(int32_t)d
                                                              : (uint64_t)(uint32_t)INT32_MIN;
}

static void load_num(NjDType t, const Scalar *in, uint64_t *bits, double *re, double *im)
{
    *im = 0.0;
    switch (t) {
    case NJ_BOOL: *bits = in->b != 0; break;
    case NJ_INT8: *bits = (uint64_t)(int64_t)in->i8; break;
    case NJ_INT16: *bits = (uint64_t)(int64_t)in->i16; break;
    case NJ_INT32: *bits = (uint64_t)(int64_t)in->i32; break;
    case NJ_INT64: *bits = (uint64_t)in->i64; break;
    case NJ_UINT8: *bits = in->u8; break;
    case NJ_UINT16: *bits = in->u16; break;
    case NJ_UINT32: *bits = in->u32; break;
    case NJ_UINT64: *bits = in->u64; break;
    case NJ_FLOAT32: *re = in->f32; break;
    case NJ_FLOAT64: *re = in->f64; break;
    case NJ_COMPLEX64: *re = in->c64[0]; *im = in->c64[1]; break;
    default: *re = in->c128[0]; *im = in->c128[1]; break;
    }
    if (t == NJ_BOOL || is_int(t))
        *re = is_signed(t) ? (double)(int64_t)*bits : (double)*bits;
}

void rs_cast_scalar(NjDType from, const Scalar *in, NjDType to, Scalar *out)
{
    uint64_t bits = 0;
    double re, im;
    load_num(from, in, &bits, &re, &im);
    int from_int = from == NJ_BOOL || is_int(from);
    memset(out, 0, sizeof out->c128);
    if (to == NJ_BOOL)
        out->b = from_int ? bits != 0 : (re != 0.0 || im != 0.0 || isnan(re) || isnan(im));
    else if (is_int(to))
        store_int(out, to, from_int ? bits : float_to_bits(re, to));
    else if (to == NJ_FLOAT32)
        out->f32 = (float)re;
    else if (to == NJ_FLOAT64)
        out->f64 = re;
    else if (to == NJ_COMPLEX64) {
        out->c64[0] = (float)re;
        out->c64[1] = (float)im;
    } else {
        out->c128[0] = re;
        out->c128[1] = im;
    }
}

/* ---- the dispatcher's side: declared signatures, resolved calls ------------------------- */

/* Remembers that calls with codes run the declared entry t, their arguments converted. */
static CacheEntry *cache_alias(DispatcherObject *d, const CacheEntry *t, const uint32_t *codes,
                               int n)
{
    CacheEntry *e = malloc(sizeof *e + (size_t)n * sizeof(uint32_t));
    if (!e || cache_grow(d) != 0) {
        free(e);
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(e, t, sizeof *e);
    e->sig = NULL;
    e->rnodes = NULL; /* each entry frees its own */
    if (t->rnodes) {
        size_t bytes = (size_t)(t->rnnodes ? t->rnnodes : 1) * sizeof *t->rnodes;
        if (!(e->rnodes = malloc(bytes))) {
            free(e);
            PyErr_NoMemory();
            return NULL;
        }
        memcpy(e->rnodes, t->rnodes, bytes);
    }
    e->formal = t->codes;
    memcpy(e->codes, codes, (size_t)n * sizeof(uint32_t));
    d->last = d->ncache;
    d->cache[d->ncache++] = e;
    return e;
}

/* Calls dispatcher.py's explanation (it raises Numba's TypeError); NULL. */
CacheEntry *explain_call(DispatcherObject *d, const char *how, PyObject *args, PyObject *tied)
{
    PyObject *r = PyObject_CallMethod((PyObject *)d, how, "OO", args, tied ? tied : Py_None);
    Py_XDECREF(r);
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "numjit: no matching definition");
    return NULL;
}

/* A call of a frozen dispatcher whose types are none of its declared signatures: the best
 * declared signature by Numba's conversion rules (_resolve.c), or its TypeError. */
CacheEntry *cache_resolve(DispatcherObject *d, PyObject *args, const uint32_t *codes, int n)
{
    const uint32_t *stack[16], **cands = stack;
    int ndecl = 0;
    if (d->ncache > 16 && !(cands = malloc((size_t)d->ncache * sizeof *cands))) {
        PyErr_NoMemory();
        return NULL;
    }
    int *which = malloc((size_t)(d->ncache + 1) * sizeof *which);
    if (!which) {
        if (cands != stack)
            free(cands);
        PyErr_NoMemory();
        return NULL;
    }
    for (int i = 0; i < d->ncache; i++)
        if (!d->cache[i]->formal) {
            which[ndecl] = i;
            cands[ndecl++] = d->cache[i]->codes;
        }
    int sel = 0, m = rs_select(codes, n, cands, ndecl, &sel);
    CacheEntry *e = NULL;
    if (m == 1) {
        e = cache_alias(d, d->cache[which[sel]], codes, n);
    } else if (m == 0) {
        explain_call(d, "_explain_matching_error", args, NULL);
    } else {
        /* the tied signatures, as indices among the declared ones (dispatcher.py spells them) */
        PyObject *tied = PyList_New(0);
        for (int c = 0; tied && c < ndecl; c++) {
            int one = 0;
            const uint32_t *pair[2] = {cands[sel], cands[c]};
            if (rs_select(codes, n, pair, 2, &one) == 2) {
                PyObject *k = PyLong_FromLong(c);
                if (!k || PyList_Append(tied, k) != 0)
                    Py_CLEAR(tied);
                Py_XDECREF(k);
            }
        }
        if (tied)
            explain_call(d, "_explain_ambiguous", args, tied);
        Py_XDECREF(tied);
    }
    free(which);
    if (cands != stack)
        free(cands);
    return e;
}

/* Unboxes the scalar arguments of a resolved call as its declared types (and, with big, every
 * Python int as well); -1 on error. */
int convert_args(const CacheEntry *e, PyObject *args, ArgSlot *slots, const uint32_t *codes,
                 int n, int big)
{
    const uint32_t *formal = e->formal ? e->formal : e->codes;
    for (int i = 0; i < n; i++) {
        PyObject *o = PyTuple_GetItem(args, i);
        if (CODE_KIND(formal[i]) != K_SCALAR ||
            (formal[i] == codes[i] && !(big && PyLong_CheckExact(o))))
            continue;
        Scalar v;
        if (rs_unbox_as(o, codes[i], &slots[i].s, CODE_DTYPE(formal[i]), &v) != 0)
            return -1;
        slots[i].s = v;
    }
    return 0;
}

/* The type code of a spec from dispatcher.py: (dtype name, ndim or -1 for a scalar, layout
 * 'C'/'F'/'A', read-only).  -1 with a TypeError when it is not one numjit has. */
static int spec_code(PyObject *spec, uint32_t *code)
{
    const char *dn, *lay;
    int nd, ro;
    if (!PyArg_ParseTuple(spec, "sisp", &dn, &nd, &lay, &ro))
        return -1;
    int dt = -1;
    for (int t = 0; t < NJ_DTYPE_COUNT; t++)
        if (!strcmp(nj_dtype_name((NjDType)t), dn))
            dt = t;
    int l = lay[0] == 'C' ? L_C : lay[0] == 'F' ? L_F : lay[0] == 'A' ? L_A : -1;
    if (dt < 0 || l < 0 || nd < -1 || nd > NJ_MAX_NDIM) {
        PyErr_Format(PyExc_TypeError, "numjit: no such argument type (%s, %d, %s)", dn, nd, lay);
        return -1;
    }
    *code = nd < 0 ? CODE(K_SCALAR, dt, 0, 0) : CODE(K_ARRAY, dt, nd, l) | (ro ? CODE_RO : 0);
    return 0;
}

/* A declared return type against what the entry returns: the conversion of a scalar result,
 * or Numba's TypingError when there is none. */
static int declare_return(CacheEntry *e, PyObject *ret)
{
    if (ret == Py_None)
        return 0;
    if (PyUnicode_Check(ret)) { /* "none" */
        if (e->rkind == NJ_KIND_NONE)
            return 0;
        PyErr_Format(g_typing_error, "No conversion from the returned value of %s to none "
                     "(the declared return type)", e->sig);
        return -1;
    }
    uint32_t want;
    if (spec_code(ret, &want) != 0)
        return -1;
    char ws[64], hs[64];
    spell_code(want, ws, sizeof ws);
    uint32_t have = CODE(e->rkind == NJ_KIND_ARRAY ? K_ARRAY : K_SCALAR, e->rdtype,
                         e->rkind == NJ_KIND_ARRAY ? CODE_NDIM(want) : 0, CODE_LAYOUT(want));
    if (e->rkind == NJ_KIND_ARRAY && CODE_KIND(want) != K_ARRAY)
        snprintf(hs, sizeof hs, "an array of %s", nj_dtype_name(e->rdtype));
    else if (e->rkind == NJ_KIND_SCALAR || e->rkind == NJ_KIND_ARRAY)
        spell_code(have, hs, sizeof hs);
    else
        snprintf(hs, sizeof hs, "%s", e->rkind == NJ_KIND_NONE ? "none" : "a tuple");
    if ((e->rkind != NJ_KIND_SCALAR && e->rkind != NJ_KIND_ARRAY) ||
        rs_can_convert(have & ~CODE_RO, want & ~CODE_RO) == 0) {
        PyErr_Format(g_typing_error, "No conversion from %s to %s for the return value of the "
                     "signature %s", hs, ws, e->sig);
        return -1;
    }
    e->ret_cast = e->rkind == NJ_KIND_SCALAR && CODE_DTYPE(want) != e->rdtype;
    e->ret_dtype = CODE_DTYPE(want);
    return 0;
}

/* _compile(signature[, return]): compiles an explicit signature now, given as a string
 * ("(float64[::1], int64)") or as a tuple of specs (spec_code), then kept among the
 * dispatcher's specializations (`.signatures`); return: None, "none" or a spec. */
PyObject *dispatcher_compile(PyObject *self, PyObject *args)
{
    DispatcherObject *d = (DispatcherObject *)self;
    PyObject *sigobj, *ret = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &sigobj, &ret))
        return NULL;
    if (!d->fn) {
        PyErr_SetString(g_numjit_error, "numjit: dispatcher is not bound to a function");
        return NULL;
    }
    if (PyUnicode_Check(sigobj)) {
        const char *sig = PyUnicode_AsUTF8AndSize(sigobj, NULL);
        if (!sig)
            return NULL;
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
    if (!PyTuple_Check(sigobj) || PyTuple_Size(sigobj) != d->nparams) {
        PyErr_Format(PyExc_TypeError, "numjit: a signature of %d argument types expected",
                     d->nparams);
        return NULL;
    }
    uint32_t codes[MAX_ARGS + 1];
    for (int i = 0; i < d->nparams; i++)
        if (spec_code(PyTuple_GetItem(sigobj, i), &codes[i]) != 0)
            return NULL;
    CacheEntry *e = cache_find(d, codes, d->nparams);
    if (e && e->formal) { /* a call converted to a declared signature: now its own */
        PyErr_SetString(g_numjit_error, "numjit: cannot compile a dispatcher without compilation");
        return NULL;
    }
    if (!e && !(e = cache_add(d, codes, d->nparams)))
        return NULL;
    if (declare_return(e, ret) != 0)
        return NULL;
    Py_RETURN_NONE;
}

/* _freeze(): compile no more; calls convert to the signatures compiled so far. */
PyObject *dispatcher_freeze(PyObject *self, PyObject *unused)
{
    ((DispatcherObject *)self)->frozen = 1;
    Py_RETURN_NONE;
}

/* _can_convert(from_spec, to_spec) -> Numba's Conversion (0 none, 1 exact ... 4 unsafe). */
PyObject *mod_can_convert(PyObject *self, PyObject *args)
{
    PyObject *a, *b;
    uint32_t ca, cb;
    if (!PyArg_ParseTuple(args, "OO", &a, &b) || spec_code(a, &ca) != 0 || spec_code(b, &cb) != 0)
        return NULL;
    return PyLong_FromLong(rs_can_convert(ca, cb));
}
