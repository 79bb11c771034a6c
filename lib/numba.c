/* numba.c — the names of the numba module itself that compiled code may use: numba.cuda (the
 * module of the kernel intrinsics, lib/cuda.c) and numba.prange.  NumPy's and Numba's scalar
 * types used as functions (numba.float32(x), np.int64(x)) come from the type table
 * (types.c), not from rows: registry.c looks them up after the rows.  `numjit` is the same
 * module as `numba` (sys.modules['numba'] = numjit).
 */
#include "lib.h"

static const LibEntry rows[] = {
    {"numba.cuda", "", LIB_MODULE, lib_module, NULL, "cuda", 0, 0},
    /* prange is range, marked: a for loop over it in a parallel=True function runs on the
     * thread pool (typer_parfor.c); anywhere else it is a serial range, as in Numba */
    {"numba.prange", "start, stop[, step]", 0, NULL, lib_range_call, "prange", 0, 0},
    {NULL},
};
const LibTable lib_numba_table = {"numba", rows};
