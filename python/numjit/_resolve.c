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
    if (CODE_KIND(from) != CODE_KIND(to))
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
