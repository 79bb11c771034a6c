/* numba.c — the names of the numba module itself that compiled code may use: numba.cuda (the
 * module of the kernel intrinsics, lib/cuda.c), numba.prange, numba.literal_unroll,
 * numba.literally and numba.carray/farray.  NumPy's and Numba's scalar
 * types used as functions (numba.float32(x), np.int64(x)) come from the type table
 * (types.c), not from rows: registry.c looks them up after the rows.  `numjit` is the same
 * module as `numba` (sys.modules['numba'] = numjit).
 */
#include "lib.h"

/* literal_unroll(t): Numba versions a loop's body per element type of a heterogeneous tuple.
 * numjit types a variable once per function, so it takes tuples whose elements share one type
 * (then the loop is the tuple's own: typer_seq.c) and refuses the others at the call. */
static Val literal_unroll_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    if (n != 1 || a[0].t->kind != TY_TUPLE) {
        ty_error(fn, call->loc, "numjit's literal_unroll() takes one tuple%s%s",
                 n == 1 ? ", not " : "", n == 1 ? a[0].t->name : "");
        return verr();
    }
    for (int i = 1; i < a[0].t->nelems; i++)
        if (a[0].t->elems[i] != a[0].t->elems[0]) {
            ty_error(fn, call->loc, "literal_unroll() of the heterogeneous tuple %s is not "
                     "supported by numjit yet (its elements must share one type)",
                     a[0].t->name);
            return verr();
        }
    return a[0];
}

/* literally(x): Numba compiles the caller again with x's argument typed as a literal, so that
 * typing functions (@overload, generated_jit) can read its value; the value itself is x.
 * numjit's typing hook sees argument types, not literals, so literally is x here, which is
 * what the code computes with. */
static Val literally_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    Val a[16];
    int n;
    (void)le;
    if (!lib_args(fn, callee, call, a, &n))
        return verr();
    if (n != 1) {
        ty_error(fn, call->loc, "literally() takes one argument (%d given)", n);
        return verr();
    }
    return a[0];
}

/* carray(ptr, shape, dtype=None) and farray: a C (Fortran) ordered view of `shape` elements at
 * a raw pointer.  A pointer, in compiled code, is what a C callback's pointer parameter is (a
 * one-dimensional C array from the address on: codegen/cfunc.c), so the view is that array
 * reshaped (IR_RESHAPE, which takes the extents as they are) and, for farray, the C view of
 * the reversed shape transposed.  A dtype other than the pointer's is taken for a pointer of
 * bytes only (void *, which numjit passes as uint8): Numba's "mismatching dtype" otherwise. */
static Val carray_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    (void)callee;
    LibArgs b;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    Loc loc = call->loc;
    Val p = ty_value(fn, b.node[0]);
    if (p.k != V_VAL)
        return verr();
    if (p.t->kind != TY_ARRAY || p.t->ndim != 1 || p.t->layout != LAYOUT_C) {
        ty_error(fn, b.at[0], "%s(): pointer argument expected, got '%s' (numjit's pointers "
                 "are a C callback's pointer arguments)", le->spell, p.t->name);
        return verr();
    }
    const Type *dt = p.t->dtype;
    if (b.node[2]) {
        const Type *want = ty_np_dtype(fn, b.node[2], false);
        if (!want)
            return verr();
        if (want != dt && dt != ty_u8) {
            ty_error(fn, b.at[2], "%s(): mismatching dtype '%s' for pointer type '%s*'",
                     le->spell, want->name, dt->name);
            return verr();
        }
        dt = want;
    }
    Val s = ty_value(fn, b.node[1]);
    if (s.k != V_VAL)
        return verr();
    int nd = s.t->kind == TY_TUPLE ? s.t->nelems : 1;
    bool ok = nd >= 1 && nd <= TY_MAX_NDIM;
    for (int k = 0; ok && k < nd; k++)
        ok = ty_is_int(s.t->kind == TY_TUPLE ? s.t->elems[k] : s.t);
    if (!ok) {
        ty_error(fn, b.at[1], "%s(): invalid shape '%s'", le->spell, s.t->name);
        return verr();
    }
    bool fortran = le->idx != 0;
    const Type *ct = ty_array(dt, nd, LAYOUT_C);
    const Type *rt = fortran && nd > 1 ? ty_array(dt, nd, LAYOUT_F) : ct;
    if (!fn->emit)
        return vval(rt, NULL);
    IrInst *ops[1 + TY_MAX_NDIM];
    ops[0] = p.v;
    for (int k = 0; k < nd; k++) {
        const Type *et = s.t->kind == TY_TUPLE ? s.t->elems[k] : s.t;
        IrInst *x = s.v;
        if (s.t->kind == TY_TUPLE && (x = ty_emit(fn, IR_EXTRACT, et, loc, 1, &s.v)))
            x->imm.index = k;
        ops[1 + (fortran ? nd - 1 - k : k)] = ty_cast(fn, x, et, ty_i64, loc);
    }
    IrInst *v = ty_emit(fn, IR_RESHAPE, ct, loc, 1 + nd, ops);
    if (rt != ct)
        v = ty_emit(fn, IR_TRANSPOSE, rt, loc, 1, &v);
    return vval(rt, v);
}

static const LibEntry rows[] = {
    {"numba.carray", "ptr, shape, dtype=None", LIB_CPU | LIB_KEYWORDS, NULL, carray_call, "carray", 0, 0},
    {"numba.farray", "ptr, shape, dtype=None", LIB_CPU | LIB_KEYWORDS, NULL, carray_call, "farray", 1, 0},
    /* objmode(ID, "T0;T1", inputs...): what numjit.objmode leaves of a `with objmode` block */
    {"numba.objmode", "*args", LIB_CPU, NULL, lib_objmode_call, "objmode", 0, 0},
    /* _nj_new_instance(DT): the jitclass constructor's allocation (instance.c) */
    {"numba._nj_new_instance", "dtype", LIB_CPU, NULL, lib_new_instance_call, "_nj_new_instance", 0, 0},
    {"numba.literal_unroll", "container", 0, NULL, literal_unroll_call, "literal_unroll", 0, 0},
    {"numba.literally", "obj", 0, NULL, literally_call, "literally", 0, 0},
    {"numba.cuda", "", LIB_MODULE, lib_module, NULL, "cuda", 0, 0},
    /* prange is range, marked: a for loop over it in a parallel=True function runs on the
     * thread pool (typer_parfor.c); anywhere else it is a serial range, as in Numba */
    {"numba.prange", "start, stop[, step]", 0, NULL, lib_range_call, "prange", 0, 0},
    {NULL},
};
const LibTable lib_numba_table = {"numba", rows};
