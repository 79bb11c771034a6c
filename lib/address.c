/* address.c — C functions that compiled code calls through their address: Numba's
 * WrapperAddressProtocol objects (an address and a signature; numba-stats wraps SciPy's
 * Cython special functions, scipy.special.cython_special, this way) and ctypes function
 * pointers, used as globals; and global NumPy arrays, which compiled code reads at the
 * address of a frozen copy.
 *
 * How: the Python package writes such a global into the compiled text as
 * `NAME = numjit._address_function(ADDRESS, "float64(float64, float64)")`, a module constant
 * (frontend/module.c keeps it).  Reading NAME gives a callable (this file's first row) that
 * carries the signature and the address; calling it binds the arguments by position, converts
 * each to its parameter's type as Numba does for a FunctionType call, and emits `calladdr`
 * (ir/ops.def), an indirect call in the C calling convention.  Integers and floats only:
 * the scalars that travel in registers the same way in C and in compiled code.  CPU only.
 */
#include "lib.h"

#include <string.h>

static Val address_call(Fn *fn, const LibEntry *le, Node *call, Val callee);

static const LibEntry call_row = {"numba._address_function.__call__", "*args", LIB_CPU, NULL,
                                  address_call, "a C function", 0, 0};

static bool c_scalar(const Type *t) {
    return ty_is_int(t) || ty_is_float(t);
}

/* _address_function(ADDRESS, "SIGNATURE"): both literals, written by the package. */
static Val address_function(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)le, (void)callee;
    if (call->list.n != 2 || call->list2.n || call->list.items[0]->kind != ND_INT ||
        call->list.items[1]->kind != ND_STR) {
        ty_error(fn, call->loc, "_address_function() takes an integer address and a "
                 "signature string");
        return verr();
    }
    Node *addr = call->list.items[0];
    Val v = {.k = V_BUILTIN, .name = call->list.items[1]->str, .lib = &call_row};
    v.rt[0] = ty_i64;
    v.r[0] = ty_const_int(fn, ty_i64, addr->ival, addr->loc);
    return v;
}

static Val address_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)le;
    const Type *ret, *params[16];
    const char *err = NULL;
    int np = ty_parse_sig(callee.name, &ret, params, 16, &err);
    if (np < 0) {
        ty_error(fn, call->loc, "the C function's signature '%s': %s", callee.name, err);
        return verr();
    }
    if (!c_scalar(ret) && ret != ty_void) {
        ty_error(fn, call->loc, "numjit calls C functions of integers and floats only, and "
                 "this one returns %s", ret->name);
        return verr();
    }
    for (int i = 0; i < np; i++)
        if (!c_scalar(params[i])) {
            ty_error(fn, call->loc, "numjit calls C functions of integers and floats only, and "
                     "parameter %d of this one is %s", i + 1, params[i]->name);
            return verr();
        }
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    if (n != np) {
        ty_error(fn, call->loc, "the C function of signature %s takes %d argument%s (%d given)",
                 callee.name, np, np == 1 ? "" : "s", n);
        return verr();
    }
    IrInst *args[17] = {callee.r[0]};
    for (int i = 0; i < n; i++) {
        if (!ty_is_scalar(a[i].t)) {
            ty_error(fn, call->list.items[i]->loc, "argument %d of the C function of signature "
                     "%s is %s, not a number", i + 1, callee.name, a[i].t->name);
            return verr();
        }
        args[i + 1] = ty_cast(fn, a[i].v, a[i].t, params[i], call->list.items[i]->loc);
    }
    IrInst *r = ty_emit(fn, IR_CALLADDR, ret, call->loc, n + 1, args);
    return vval(ret, r);
}

/* _frozen_array(ADDRESS, "DTYPE", SHAPE): a global NumPy array as Numba freezes it, a
 * read-only constant of the module.  The Python package copies the array when the caller is
 * first compiled (C order, never freed, never written: python/numjit/source.py) and writes
 * this call, all literals, in its place; reading the name gives a readonly C array at that
 * address (IR_ADDRARRAY) without a memory header, which reference counting passes over.
 * Numba types it as readonly array(DTYPE, Nd, C) too, and refuses writes the same way. */
static Val frozen_array(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)le, (void)callee;
    Node *shape = call->list.n == 3 ? call->list.items[2] : NULL;
    bool ok = shape && !call->list2.n && call->list.items[0]->kind == ND_INT &&
              call->list.items[1]->kind == ND_STR && shape->kind == ND_TUPLE &&
              shape->list.n <= TY_MAX_NDIM;
    for (int k = 0; ok && k < shape->list.n; k++)
        ok = shape->list.items[k]->kind == ND_INT && shape->list.items[k]->ival >= 0;
    const Type *dt = ok ? ty_from_name(call->list.items[1]->str) : NULL;
    const Type *at = dt ? ty_array_ex(dt, shape->list.n, LAYOUT_C, AS_GENERIC, true) : NULL;
    if (!at || dt->kind == TY_RECORD) {
        ty_error(fn, call->loc, "_frozen_array() takes an integer address, a dtype's name and "
                 "a tuple of extents");
        return verr();
    }
    if (!fn->emit)
        return vval(at, NULL);
    IrInst *ops[1 + TY_MAX_NDIM];
    ops[0] = ty_const_int(fn, ty_i64, call->list.items[0]->ival, call->loc);
    for (int k = 0; k < shape->list.n; k++)
        ops[1 + k] = ty_const_int(fn, ty_i64, shape->list.items[k]->ival, call->loc);
    return vval(at, ty_emit(fn, IR_ADDRARRAY, at, call->loc, 1 + shape->list.n, ops));
}

static const LibEntry rows[] = {
    {"numba._address_function", "address, signature", LIB_CPU, NULL, address_function,
     "_address_function", 0, 0},
    {"numba._frozen_array", "address, dtype, shape", LIB_CPU, NULL, frozen_array,
     "_frozen_array", 0, 0},
    {NULL},
};
const LibTable lib_address_table = {"C functions by address", rows};
