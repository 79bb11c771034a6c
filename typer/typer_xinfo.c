/* typer_xinfo.c — np.finfo(X).attr and np.iinfo(X).attr, as Numba 0.56 has them
 * (numba/np/arraymath.py generate_xinfo): X is a scalar type (np.float32), a dtype (a.dtype),
 * an array or a number (their dtype); the attribute is a constant of NumPy's machine limits.
 *
 * finfo has eps, epsneg, max, min, resolution and tiny (numbers of the float type: float32 for
 * float32 and complex64, else float64) and bits, iexp, machep, maxexp, minexp, negep, nexp,
 * nmant and precision (int64), as NumPy's finfo gives them; iinfo has min, max and bits
 * (int64, except iinfo(np.uint64).max, a uint64 as Numba types the Python int 2**64-1).  Numba
 * refuses finfo of an integer type and iinfo of a float type, and so does numjit, at X.
 *
 * numjit reads the attribute at compile time, where the call is written (np.finfo(dt).eps):
 * the object np.finfo returns, kept in a variable, is not supported yet (lib/numpy.c says so).
 */
#include "typer_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

static Val peek(Fn *fn, Node *e) {
    bool emit = fn->emit;
    fn->emit = false;
    Val v = ty_expr(fn, e);
    fn->emit = emit;
    return v;
}

/* The element type X names, or NULL. */
static const Type *type_named(Fn *fn, Node *x) {
    const Type *t = NULL;
    if (!(x = ty_dtype_unwrap(fn, x, &t)))
        return NULL;
    if (t)
        return t;
    if (x->kind == ND_STR) /* Numba: no overload for a string */
        return NULL;
    Val v = peek(fn, x);
    if (v.k == V_TYPE)
        return v.t;
    if (v.k == V_VAL && v.t->kind == TY_ARRAY)
        return v.t->dtype;
    if (v.k == V_VAL && ty_is_elem(v.t))
        return v.t;
    return NULL;
}

typedef struct {
    const char *name;
    double f32, f64; /* the value for float32 and for float64 */
    bool is_float;   /* a number of the float type; else int64 */
} FinfoAttr;

static const FinfoAttr finfo_attrs[] = {
    {"eps", FLT_EPSILON, DBL_EPSILON, true},
    {"epsneg", 0x1p-24, 0x1p-53, true},
    {"max", FLT_MAX, DBL_MAX, true},
    {"min", -FLT_MAX, -DBL_MAX, true},
    {"resolution", 1e-6, 1e-15, true},
    {"tiny", FLT_MIN, DBL_MIN, true},
    {"bits", 32, 64, false},
    {"iexp", 8, 11, false},
    {"machep", -23, -52, false},
    {"maxexp", 128, 1024, false},
    {"minexp", -126, -1022, false},
    {"negep", -24, -53, false},
    {"nexp", 8, 11, false},
    {"nmant", 23, 52, false},
    {"precision", 6, 15, false},
};

static Val finfo_attr(Fn *fn, const Type *t, const char *attr, Loc loc) {
    bool single = t == ty_f32 || t == ty_c64;
    const Type *ft = single ? ty_f32 : ty_f64;
    for (size_t i = 0; i < sizeof finfo_attrs / sizeof *finfo_attrs; i++) {
        const FinfoAttr *a = &finfo_attrs[i];
        if (strcmp(a->name, attr))
            continue;
        double x = single ? a->f32 : a->f64;
        if (a->is_float)
            return vval(ft, ty_const_float(fn, ft, single ? (double)(float)x : x, loc));
        return vval(ty_i64, ty_const_int(fn, ty_i64, (int64_t)x, loc));
    }
    ty_error(fn, loc, "np.finfo has no attribute '%s' in Numba 0.56 (eps, epsneg, max, min, "
             "resolution, tiny, bits, iexp, machep, maxexp, minexp, negep, nexp, nmant, "
             "precision)", attr);
    return verr();
}

static Val iinfo_attr(Fn *fn, const Type *t, const char *attr, Loc loc) {
    int bits = (int)ty_size(t) * 8;
    bool sign = ty_is_signed(t);
    if (!strcmp(attr, "bits"))
        return vval(ty_i64, ty_const_int(fn, ty_i64, bits, loc));
    if (!strcmp(attr, "min")) {
        int64_t v = sign ? (bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
        return vval(ty_i64, ty_const_int(fn, ty_i64, v, loc));
    }
    if (!strcmp(attr, "max")) {
        if (!sign && bits == 64) /* 2**64-1: a uint64, as Numba types the Python int */
            return vval(ty_u64, ty_const_int(fn, ty_u64, (int64_t)UINT64_MAX, loc));
        int64_t v = sign ? (bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1)
                         : ((int64_t)1 << bits) - 1;
        return vval(ty_i64, ty_const_int(fn, ty_i64, v, loc));
    }
    ty_error(fn, loc, "np.iinfo has no attribute '%s' in Numba 0.56 (min, max, bits)", attr);
    return verr();
}

bool ty_xinfo_attr(Fn *fn, Node *e, Val *r) {
    Node *call = e->a;
    if (call->kind != ND_CALL || call->a->kind != ND_ATTR)
        return false;
    const char *which = call->a->name;
    if (strcmp(which, "finfo") && strcmp(which, "iinfo"))
        return false;
    Val m = peek(fn, call->a->a);
    if (m.k != V_MODULE || strcmp(m.name, "numpy"))
        return false;
    bool f = which[0] == 'f';
    if (call->list.n != 1 || call->list2.n != 0) {
        ty_error(fn, call->loc, "np.%s() takes one argument, a dtype, an array or a number",
                 which);
        *r = verr();
        return true;
    }
    Node *x = call->list.items[0];
    const Type *t = type_named(fn, x);
    if (!t || t == ty_bool || (f && !ty_is_float(t) && !ty_is_complex(t)) ||
        (!f && !ty_is_int(t))) {
        ty_error(fn, x->loc, "np.%s() takes %s type, a dtype, array or number of one, not %s", which,
                 f ? "a float or complex" : "an integer", t ? t->name : "this argument");
        *r = verr();
        return true;
    }
    *r = f ? finfo_attr(fn, t, e->name, e->loc) : iinfo_attr(fn, t, e->name, e->loc);
    return true;
}
