/* test_arrexpr.c — whole-array expressions from C: fused expressions making their result in
 * a loop (every temporary freed), results returned alone and in tuples, broadcasting errors
 * and ZeroDivisionError raised while other arrays of the statement are alive, np.where and
 * np.clip over temporaries, in-place updates of an argument's memory, and in CUDA code the
 * diagnostic for an expression that would allocate next to an in-place update that compiles.
 * Run under ASan (the sanitizer build of tests/run_all.sh), every path must free what it
 * allocated. */
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
    "def temps(n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.sqrt(np.arange(4.0) * i) + 1.0\n"
    "        s += (t * t).sum()\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def rebind(n):\n"
    "    x = np.zeros(n)\n"
    "    for i in range(10):\n"
    "        x = x + 1.0\n"
    "        x += 1\n"
    "    return x\n"
    "\n"
    "@njit\n"
    "def pair(n):\n"
    "    x = np.arange(n) * 1.0\n"
    "    return x + 1, x * x, n\n"
    "\n"
    "@njit\n"
    "def mismatch(n, m):\n"
    "    x = np.ones(n) * 2.0\n"
    "    return x + np.ones(m)\n"
    "\n"
    "@njit\n"
    "def zerodiv(a, d):\n"
    "    return np.ones(3) + a * (1.0 / d)\n"
    "\n"
    "@njit\n"
    "def picks(n):\n"
    "    r = np.arange(n)\n"
    "    return np.where(r > 1, r * 1.5, -1.0) + np.clip(r - 2, 0, 1)\n"
    "\n"
    "@njit\n"
    "def update(a, b):\n"
    "    a += b * 2\n"
    "    a[1:] -= a[:-1]\n"
    "    return a.sum()\n"
    "\n"
    "@njit\n"
    "def grid(n, m):\n"
    "    return np.ones((n, 1)) + np.arange(m)\n"
    "\n"
    "@cuda.jit\n"
    "def kern_alloc(x, y):\n"
    "    z = x + y\n"
    "    x[0] = z[0]\n"
    "\n"
    "@cuda.jit\n"
    "def kern_inplace(x, y):\n"
    "    x += y * 2.0\n";

static NjFunction *get(NjModule *m, const char *name) {
    NjFunction *f = NULL;
    CHECK(nj_module_function(m, name, &f) == NJ_OK, "function %s", name);
    return f;
}

/* The entry of f for sig, run on argv into out; returns its status (0: no raise). */
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
    NjStatus st = nj_compile_source(ctx, "arrexpr.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        printf("%d checks, %d failures\n", checks, failures);
        return 1;
    }
    unsigned char buf[NJ_RESULT_MAX];
    NjArray a, b;
    double d;
    int64_t n3 = 3, n4 = 4, n5 = 5, n1000 = 1000;

    /* temporaries in a loop: sum over i of sum_k (sqrt(k i) + 1)^2 */
    void *tv[1] = {&n1000};
    CHECK(run(ctx, m, "temps", "(int64)", tv, &d) == 0, "temps runs");
    double want = 0;
    for (int i = 0; i < 1000; i++) {
        double t = 0;
        for (int k = 0; k < 4; k++) {
            double v = __builtin_sqrt((double)k * i) + 1.0;
            t += v * v;
        }
        want += t;
    }
    CHECK(__builtin_fabs(d - want) <= 1e-9 * want, "temps value %.17g, want %.17g", d, want);

    void *rv[1] = {&n4};
    CHECK(run(ctx, m, "rebind", "(int64)", rv, &a) == 0, "rebind runs");
    CHECK(a.owner && a.shape[0] == 4 && elem(&a, 3) == 20.0, "rebind values %g", elem(&a, 3));
    nj_array_release(&a);

    void *pv[1] = {&n5};
    CHECK(run(ctx, m, "pair", "(int64)", pv, buf) == 0, "pair runs");
    memcpy(&a, buf, sizeof a);
    memcpy(&b, buf + sizeof(NjArray), sizeof b);
    CHECK(elem(&a, 4) == 5.0 && elem(&b, 4) == 16.0 && a.owner != b.owner, "pair values");
    nj_array_release(&a);
    nj_array_release(&b);

    /* errors with arrays alive: the raise frees them (ASan reports a leak otherwise) */
    void *mv[2] = {&n3, &n4};
    CHECK(run(ctx, m, "mismatch", "(int64, int64)", mv, &a) > 0, "mismatch raises");
    void *mv2[2] = {&n3, &n3};
    CHECK(run(ctx, m, "mismatch", "(int64, int64)", mv2, &a) == 0 && elem(&a, 2) == 3.0,
          "mismatch(3, 3)");
    nj_array_release(&a);
    double x[3] = {1, 2, 3}, zero = 0.0, two = 2.0;
    int64_t s3[1] = {3};
    NjArray xa = nj_array_c(x, NJ_FLOAT64, 1, s3);
    void *zv[2] = {&xa, &zero};
    CHECK(run(ctx, m, "zerodiv", "(float64[::1], float64)", zv, &a) > 0, "zerodiv raises");
    void *zv2[2] = {&xa, &two};
    CHECK(run(ctx, m, "zerodiv", "(float64[::1], float64)", zv2, &a) == 0 && elem(&a, 2) == 2.5,
          "zerodiv(x, 2)");
    nj_array_release(&a);

    CHECK(run(ctx, m, "picks", "(int64)", pv, &a) == 0, "picks runs");
    CHECK(elem(&a, 0) == -1.0 && elem(&a, 2) == 3.0 && elem(&a, 4) == 7.0, "picks values %g %g %g",
          elem(&a, 0), elem(&a, 2), elem(&a, 4));
    nj_array_release(&a);

    /* in place, into the caller's memory: a = [1,2,3] + 2*[1,2,3] = [3,6,9], then a running
     * difference walked in order: [3, 3, 6] */
    double y[3] = {1, 2, 3};
    NjArray ya = nj_array_c(y, NJ_FLOAT64, 1, s3);
    void *uv[2] = {&xa, &ya};
    CHECK(run(ctx, m, "update", "(float64[::1], float64[::1])", uv, &d) == 0, "update runs");
    CHECK(x[0] == 3.0 && x[1] == 3.0 && x[2] == 6.0 && d == 12.0, "update values %g %g %g", x[0],
          x[1], x[2]);

    void *gv[2] = {&n3, &n4};
    CHECK(run(ctx, m, "grid", "(int64, int64)", gv, &a) == 0, "grid runs");
    CHECK(a.ndim == 2 && a.shape[0] == 3 && a.shape[1] == 4 && elem(&a, 11) == 4.0, "grid values");
    nj_array_release(&a);

    /* CUDA: an expression that allocates is a diagnostic; an in-place update compiles */
    char *ptx = NULL;
    st = nj_ptx(m, "kern_alloc(float64[:], float64[:])", "sm_80", &ptx);
    CHECK(st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "arrexpr.py:51:9: error") &&
              strstr(nj_error_message(ctx), "CUDA code cannot") &&
              strstr(nj_error_message(ctx), "^"),
          "array expression in a kernel: %s", nj_error_message(ctx));
    nj_free_string(ptx);
    ptx = NULL;
    st = nj_ptx(m, "kern_inplace(float64[:], float64[:])", "sm_80", &ptx);
    CHECK(st == NJ_OK && ptx && strstr(ptx, ".entry"), "in place in a kernel: %s",
          nj_error_message(ctx));
    nj_free_string(ptx);

    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
