/* linalg.c — np.dot, np.vdot, np.trace, np.cross and numpy.linalg's norm, det, inv and
 * solve.  typer_linalg.c types them (Numba's checks and messages) and calls the runtime's
 * kernels (ir/linalg.def, runtime/linalg.c) for the matrix work.
 */
#include "lib.h"

static Val linalg_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_linalg_call(fn, le->spell, call);
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
    {NULL},
};
const LibTable lib_linalg_table = {"numpy: linear algebra", rows};
