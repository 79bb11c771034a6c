/* numba.c — the names of the numba module itself that compiled code may use: numba.cuda (the
 * module of the kernel intrinsics, lib/cuda.c), numba.prange and numba.literal_unroll.  NumPy's and Numba's scalar
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

static const LibEntry rows[] = {
    {"numba.literal_unroll", "container", 0, NULL, literal_unroll_call, "literal_unroll", 0, 0},
    {"numba.cuda", "", LIB_MODULE, lib_module, NULL, "cuda", 0, 0},
    /* prange is range, marked: a for loop over it in a parallel=True function runs on the
     * thread pool (typer_parfor.c); anywhere else it is a serial range, as in Numba */
    {"numba.prange", "start, stop[, step]", 0, NULL, lib_range_call, "prange", 0, 0},
    {NULL},
};
const LibTable lib_numba_table = {"numba", rows};
