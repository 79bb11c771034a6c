/* test_axis.c — reductions along an axis and cumulative sums from C: a.sum(axis=k) with a
 * literal and a variable axis, argmin along an axis, np.cumsum, each in a loop that makes and
 * drops its result every iteration, assignments between overlapping views (through a
 * temporary copy), the constructors np.array, np.eye, np.diag and np.outer, raises with arrays
 * alive (a bad axis, an empty reduced
 * dimension), and the diagnostic where a kernel would allocate.  Run under ASan, every path
 * here must free what it allocated. */
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "import numpy as np\n"
    "from numba import njit, cuda\n"
    "\n"
    "@njit\n"
    "def cols(a):\n"
    "    return a.sum(axis=0)\n"
    "\n"
    "@njit\n"
    "def along(a, k):\n"
    "    return np.sum(a, k)\n"
    "\n"
    "@njit\n"
    "def loop(a, n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        s += a.sum(axis=1)[0] + np.cumsum(a)[-1] + a.argmax(axis=0)[1]\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def bad(a, k):\n"
    "    t = np.cumsum(a)\n"
    "    return a.argmin(axis=k), t\n"
    "\n"
    "@njit\n"
    "def flip(a, n):\n"
    "    for i in range(n):\n"
    "        a[:] = a[::-1]\n"
    "        a[1:] = a[0, ::-1]\n"
    "    return a[0, 0]\n"
    "\n"
    "@njit\n"
    "def consts(n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        s += np.outer(np.array([1.0, 2.0]), np.eye(3)).sum() + np.diag(np.arange(3)).sum()\n"
    "    return s\n"
    "\n"
    "@cuda.jit\n"
    "def kern(x, out):\n"
    "    out[0] = x.sum(axis=0)[0]\n";

static NjFunction *get(NjModule *m, const char *name) {
    NjFunction *f = NULL;
    CHECK(nj_module_function(m, name, &f) == NJ_OK, "function %s", name);
    return f;
}

static int32_t run(NjContext *ctx, NjModule *m, const char *f, const char *sig, void **argv,
                   void *out) {
    NjEntryInfo info;
    memset(&info, 0, sizeof info);
    NjStatus st = nj_function_entry_info(get(m, f), sig, &info);
    CHECK(st == NJ_OK && info.entry, "entry %s%s: %s", f, sig, nj_error_message(ctx));
    if (st || !info.entry)
        return -1;
    return info.entry(argv, out);
}

static double elem(const NjArray *a, int i) { return ((const double *)a->data)[i]; }

int main(void) {
    NjContext *ctx;
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "axis.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        printf("%d checks, %d failures\n", checks, failures);
        return 1;
    }
    double x[6] = {1, 2, 3, 4, 5, 6};
    int64_t s23[2] = {2, 3};
    NjArray xa = nj_array_c(x, NJ_FLOAT64, 2, s23), r;
    unsigned char buf[NJ_RESULT_MAX];

    void *cv[1] = {&xa};
    CHECK(run(ctx, m, "cols", "(float64[:, ::1])", cv, &r) == 0, "cols runs");
    CHECK(r.owner && r.ndim == 1 && r.shape[0] == 3 && elem(&r, 0) == 5.0 && elem(&r, 2) == 9.0,
          "cols values");
    nj_array_release(&r);

    int64_t one = 1, three = 3, n = 1000;
    void *av[2] = {&xa, &one};
    CHECK(run(ctx, m, "along", "(float64[:, ::1], int64)", av, &r) == 0, "along runs");
    CHECK(r.shape[0] == 2 && elem(&r, 0) == 6.0 && elem(&r, 1) == 15.0, "along values");
    nj_array_release(&r);
    void *av3[2] = {&xa, &three};
    CHECK(run(ctx, m, "along", "(float64[:, ::1], int64)", av3, &r) > 0, "axis 3 raises");

    /* each iteration makes three arrays and drops them: 6 + 21 + 1 */
    double d = 0;
    void *lv[2] = {&xa, &n};
    CHECK(run(ctx, m, "loop", "(float64[:, ::1], int64)", lv, &d) == 0 && d == 28000.0,
          "loop value %g", d);

    /* raises with the cumsum alive: a bad axis, then an empty dimension */
    int64_t five = 5;
    void *bv[2] = {&xa, &five};
    CHECK(run(ctx, m, "bad", "(float64[:, ::1], int64)", bv, buf) > 0, "bad axis raises");
    int64_t s30[2] = {3, 0};
    NjArray ea = nj_array_c(x, NJ_FLOAT64, 2, s30);
    void *ev[2] = {&ea, &one};
    CHECK(run(ctx, m, "bad", "(float64[:, ::1], int64)", ev, buf) > 0, "empty axis raises");
    void *ok[2] = {&xa, &one};
    CHECK(run(ctx, m, "bad", "(float64[:, ::1], int64)", ok, buf) == 0, "bad(x, 1) runs");
    NjArray p, q;
    memcpy(&p, buf, sizeof p);
    memcpy(&q, buf + sizeof(NjArray), sizeof q);
    CHECK(((int64_t *)p.data)[1] == 0 && elem(&q, 5) == 21.0, "bad(x, 1) values");
    nj_array_release(&p);
    nj_array_release(&q);

    /* overlapping assignments copy the source into a temporary first, every iteration */
    double y[6] = {1, 2, 3, 4, 5, 6};
    NjArray ya = nj_array_c(y, NJ_FLOAT64, 2, s23);
    int64_t three_times = 3;
    void *fv[2] = {&ya, &three_times};
    CHECK(run(ctx, m, "flip", "(float64[:, ::1], int64)", fv, &d) == 0 && d == 4.0 && y[3] == 6.0 &&
              y[5] == 4.0,
          "flip values %g %g %g", d, y[3], y[5]);

    /* np.array, np.eye, np.outer, np.diag made and dropped every iteration: (3 + 6) + 3 */
    int64_t hundred = 100;
    void *kv[1] = {&hundred};
    CHECK(run(ctx, m, "consts", "(int64)", kv, &d) == 0 && d == 1200.0, "consts value %g", d);

    char *ptx = NULL;
    st = nj_ptx(m, "kern(float64[:, :], float64[:])", "sm_80", &ptx);
    CHECK(st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "axis.py:40:25: error") &&
              strstr(nj_error_message(ctx), "CUDA code cannot"),
          "axis sum in a kernel: %s", nj_error_message(ctx));
    nj_free_string(ptx);

    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
