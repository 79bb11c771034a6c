/* linalg.c — np.dot, np.vdot, np.trace, np.cross and numpy.linalg's norm, det, inv and
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

static const LibEntry rows[] = {
    {"numpy.dot", "a, b, out=None", LIB_KEYWORDS, NULL, linalg_call, "np.dot", 0, 0},
    {"numpy.vdot", "a, b, /", LIB_KEYWORDS, NULL, linalg_call, "np.vdot", 0, 0},
    {"numpy.trace", "a, offset=0, axis1=0, axis2=1, dtype=None, out=None", LIB_KEYWORDS, NULL, linalg_call, "np.trace", 0, 0},
    {"numpy.cross", "a, b, axisa=-1, axisb=-1, axisc=-1, axis=None", LIB_KEYWORDS, NULL, linalg_call, "np.cross", 0, 0},
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
