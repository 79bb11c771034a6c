/* linalg.c — np.dot, np.vdot, np.trace, np.cross, np.kron (stdlib/npfunc.py's loop) and numpy.linalg's norm, det, inv and
 * solve, which typer_linalg.c types (Numba's checks and messages), and numpy.linalg's
 * decompositions (eig, eigh, svd, qr, lstsq, pinv ...), which typer_decomp.c types; both call
 * the runtime's kernels (ir/linalg.def, runtime/linalg.c, linalg_decomp.c, linalg_eig.c) for
 * the matrix work.
 */
#include "lib.h"

static Val linalg_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_linalg_call(fn, le->spell, call);
}

static Val decomp_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_decomp_call(fn, le->spell, call);
}

/* np.kron(a, b): Numba's kron_impl — scalars or 1-d and 2-d arrays of layout C or F (typing
 * errors else), each made a 2-d array by stdlib/npfunc.py, the product's rows filled there in
 * a new C array of a's dtype, then shaped as Numba returns it: 2-d when either is, 1-d for two
 * vectors, the array's shape beside a scalar, a 1-element vector for two scalars. */
static Val kron_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    LibArgs b;
    if (!lib_bind(fn, le, call, &b))
        return verr();
    Loc loc = call->loc;
    Val v[2], m[2];
    for (int k = 0; k < 2; k++) {
        if ((v[k] = ty_value(fn, b.node[k])).k != V_VAL)
            return verr();
        const Type *t = v[k].t;
        if (t->kind == TY_ARRAY && t->ndim > 2) {
            ty_error(fn, loc, "np.kron() only supported on 1 and 2-D arrays ");
            return verr();
        }
        if (t->kind == TY_ARRAY && t->layout == LAYOUT_A) {
            ty_error(fn, loc, "np.linalg.kron only supports 'C' or 'F' layout input arrays. "
                     "Received an input of layout 'A'.");
            return verr();
        }
        if (t->kind != TY_ARRAY && !ty_is_scalar(t) && !ty_is_complex(t)) {
            ty_error(fn, b.at[k], "np.kron() of %s is not supported", t->name);
            return verr();
        }
        const char *norm = t->kind != TY_ARRAY ? "_nj_np_kron_scalar"
                           : t->ndim == 1      ? "_nj_np_kron_row"
                                               : "_nj_np_kron_mat";
        if ((m[k] = ty_lib_call(fn, norm, "np.kron", "numpy", &v[k], 1, loc)).k != V_VAL)
            return verr();
    }
    const Type *dt = v[0].t->kind == TY_ARRAY ? v[0].t->dtype : v[0].t;
    const Type *ct = ty_array(dt, 2, LAYOUT_C);
    Val out = vval(ct, NULL);
    if (fn->emit) {
        IrInst *dims[2];
        for (int d = 0; d < 2; d++)
            dims[d] = bin(fn, IR_MUL, ty_i64, extent(fn, m[0].v, d, loc),
                          extent(fn, m[1].v, d, loc), loc);
        if ((out = ty_alloc(fn, ct, dims, false, loc)).k != V_VAL)
            return verr();
    }
    Val args[3] = {m[0], m[1], out};
    if (ty_lib_call(fn, "_nj_np_kron", "np.kron", "numpy", args, 3, loc).k == V_ERR)
        return verr();
    bool aa = v[0].t->kind == TY_ARRAY, ba = v[1].t->kind == TY_ARRAY;
    if (aa && ba && (v[0].t->ndim == 2 || v[1].t->ndim == 2))
        return out;
    if (aa && ba)
        return ty_lib_call(fn, "_nj_np_kron_flat", "np.kron", "numpy", &out, 1, loc);
    if (!aa && !ba)
        return ty_lib_call(fn, "_nj_np_kron_first", "np.kron", "numpy", &out, 1, loc);
    Val like[2] = {out, aa ? v[0] : v[1]};
    return ty_lib_call(fn, "_nj_np_kron_like", "np.kron", "numpy", like, 2, loc);
}

static const LibEntry rows[] = {
    {"numpy.dot", "a, b, out=None", LIB_KEYWORDS, NULL, linalg_call, "np.dot", 0, 0},
    {"numpy.vdot", "a, b, /", LIB_KEYWORDS, NULL, linalg_call, "np.vdot", 0, 0},
    {"numpy.trace", "a, offset=0, axis1=0, axis2=1, dtype=None, out=None", LIB_KEYWORDS, NULL, linalg_call, "np.trace", 0, 0},
    {"numpy.cross", "a, b, axisa=-1, axisb=-1, axisc=-1, axis=None", LIB_KEYWORDS, NULL, linalg_call, "np.cross", 0, 0},
    {"numpy.kron", "a, b", LIB_CPU | LIB_KEYWORDS | LIB_NEW_ARRAY, NULL, kron_call, "np.kron", 0, 0},
    {"numpy.linalg.norm", "x, ord=None, axis=None, keepdims=False", LIB_KEYWORDS, NULL, linalg_call, "np.linalg.norm", 0, 0},
    {"numpy.linalg.det", "a", LIB_KEYWORDS, NULL, linalg_call, "np.linalg.det", 0, 0},
    {"numpy.linalg.inv", "a", LIB_KEYWORDS, NULL, linalg_call, "np.linalg.inv", 0, 0},
    {"numpy.linalg.solve", "a, b", LIB_KEYWORDS, NULL, linalg_call, "np.linalg.solve", 0, 0},
    {"numpy.linalg.eig", "a", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.eig", 0, 0},
    {"numpy.linalg.eigvals", "a", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.eigvals", 0, 0},
    {"numpy.linalg.eigh", "a", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.eigh", 0, 0},
    {"numpy.linalg.eigvalsh", "a", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.eigvalsh", 0, 0},
    {"numpy.linalg.svd", "a, full_matrices=1", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.svd", 0, 0},
    {"numpy.linalg.qr", "a", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.qr", 0, 0},
    {"numpy.linalg.lstsq", "a, b, rcond=-1.0", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.lstsq", 0, 0},
    {"numpy.linalg.pinv", "a, rcond=1e-15", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.pinv", 0, 0},
    {"numpy.linalg.slogdet", "a", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.slogdet", 0, 0},
    {"numpy.linalg.matrix_rank", "a, tol=None", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.matrix_rank", 0, 0},
    {"numpy.linalg.cond", "a, p=None", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.cond", 0, 0},
    {"numpy.linalg.cholesky", "a", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.cholesky", 0, 0},
    {"numpy.linalg.matrix_power", "a, n", LIB_KEYWORDS, NULL, decomp_call, "np.linalg.matrix_power", 0, 0},
    {NULL},
};
const LibTable lib_linalg_table = {"numpy: linear algebra", rows};
