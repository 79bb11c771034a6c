/* test_parfor.c — parallel loops (prange in @njit(parallel=True) functions) from C, so that the
 * sanitizer build runs them: reductions of every operator and several types against serial
 * loops, temporaries allocated in the body on several threads (reference counts, leaks), arrays
 * made before the loop and filled by it, raises inside the body (the first iteration in loop
 * order wins, whichever thread saw it), a parallel function called inside a parallel loop, and
 * several C threads running parallel loops at once.  nj_parfor_stats shows the pool was used. */
#include "numjit.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "import numpy as np\n"
    "from numba import njit, prange\n"
    "\n"
    "@njit(parallel=True)\n"
    "def stats(a, res):\n"
    "    s = 0.0\n"
    "    lo = np.inf\n"
    "    hi = -np.inf\n"
    "    n = 0\n"
    "    p = 1\n"
    "    for i in prange(a.shape[0]):\n"
    "        x = a[i]\n"
    "        s += (x * x + 1.0) ** 0.5\n"
    "        lo = min(lo, x)\n"
    "        hi = max(x, hi)\n"
    "        if x > 0.5:\n"
    "            n += 1\n"
    "        if i % 100000 == 0:\n"
    "            p *= -1\n"
    "    res[0] = s\n"
    "    res[1] = lo\n"
    "    res[2] = hi\n"
    "    res[3] = n\n"
    "    res[4] = p\n"
    "\n"
    "@njit(parallel=True)\n"
    "def temps(a, res):\n"
    "    out = np.empty(a.shape[0])\n"
    "    t = 0.0\n"
    "    for i in prange(a.shape[0]):\n"
    "        tmp = np.zeros(4)\n"
    "        tmp[i % 4] = a[i]\n"
    "        row = a[i:i + 1]\n"
    "        out[i] = tmp.sum() + row[0]\n"
    "        res[i] = out[i]\n"
    "        t += out[i]\n"
    "    return t\n"
    "\n"
    "@njit(parallel=True, boundscheck=True)\n"
    "def raises(a, k_index, k_zero):\n"
    "    s = 0.0\n"
    "    for i in prange(a.shape[0]):\n"
    "        x = (a[i] * a[i] + 1.0) ** 0.5\n"
    "        if i == k_index:\n"
    "            x = a[i + a.shape[0]]\n"
    "        if i == k_zero:\n"
    "            x = x / 0.0\n"
    "        s += x\n"
    "    return s\n"
    "\n"
    "@njit(parallel=True)\n"
    "def inner(a):\n"
    "    s = 0.0\n"
    "    for i in prange(a.shape[0]):\n"
    "        s += a[i]\n"
    "    return s\n"
    "\n"
    "@njit(parallel=True)\n"
    "def outer(m):\n"
    "    t = 0.0\n"
    "    for i in prange(m.shape[0]):\n"
    "        t += inner(m[i])\n"
    "    return t\n";

enum { N = 400000 };
static double data[N];

static NjFunction *get(NjModule *m, const char *name) {
    NjFunction *f = NULL;
    NjStatus st = nj_module_function(m, name, &f);
    CHECK(st == NJ_OK, "function %s: %s", name, nj_status_name(st));
    return f;
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b) + 1e-300; }

static void check_stats(NjContext *ctx, NjFunction *f, NjArray *arr, const char *what) {
    double s = 0, lo = INFINITY, hi = -INFINITY;
    int64_t n = 0, p = 1;
    for (int64_t i = 0; i < arr->shape[0]; i++) {
        double x = data[i];
        s += sqrt(x * x + 1.0);
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
        n += x > 0.5;
        p *= i % 100000 == 0 ? -1 : 1;
    }
    double res[5];
    int64_t s5[1] = {5};
    NjArray ares = nj_array_c(res, NJ_FLOAT64, 1, s5);
    NjValue a[2] = {nj_arr(arr), nj_arr(&ares)};
    NjStatus st = nj_call(f, a, 2, NULL);
    CHECK(st == NJ_OK, "%s: %s", what, nj_error_message(ctx));
    if (st != NJ_OK)
        return;
    CHECK(near(res[0], s), "%s: sum %.17g, want %.17g", what, res[0], s);
    CHECK(res[1] == lo && res[2] == hi, "%s: min/max", what);
    CHECK(res[3] == (double)n && res[4] == (double)p, "%s: count %g/%lld product %g/%lld", what,
          res[3], (long long)n, res[4], (long long)p);
}

typedef struct {
    NjContext *ctx;
    NjFunction *f;
    double want;
    int bad;
} ThreadArg;

static void *worker(void *p) {
    ThreadArg *t = p;
    int64_t shape[1] = {N};
    NjArray arr = nj_array_c(data, NJ_FLOAT64, 1, shape);
    for (int k = 0; k < 4; k++) {
        NjValue a = nj_arr(&arr), r;
        if (nj_call(t->f, &a, 1, &r) != NJ_OK || r.v.f != t->want)
            t->bad++;
    }
    return NULL;
}

int main(void) {
    NjContext *ctx;
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "par.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        printf("%d checks, %d failures\n", checks, failures);
        return 1;
    }
    nj_set_num_threads(2);
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        data[i] = (double)(seed >> 8) / (double)(1u << 24);
    }
    int64_t shape[1] = {N};
    NjArray arr = nj_array_c(data, NJ_FLOAT64, 1, shape);

    /* reductions, large (the pool) and small (the calling thread) */
    NjFunction *fs = get(m, "stats");
    NjParforStats before, after;
    nj_parfor_stats(&before);
    check_stats(ctx, fs, &arr, "large");
    check_stats(ctx, fs, &arr, "large again");
    nj_parfor_stats(&after);
    CHECK(after.loops == before.loops + 2, "two loops");
    CHECK(after.chunks == 16, "16 chunks on 2 threads, got %d", after.chunks);
    NjArray small = arr;
    small.shape[0] = 7;
    check_stats(ctx, fs, &small, "small");
    NjArray none = arr;
    none.shape[0] = 0;
    check_stats(ctx, fs, &none, "empty");

    /* temporaries on every thread; an array made before the loop, returned */
    NjFunction *ft = get(m, "temps");
    enum { NT = 60000 }; /* an allocation per iteration: slow under the sanitizers */
    static double outv[NT];
    int64_t tshape[1] = {NT};
    NjArray aout = nj_array_c(outv, NJ_FLOAT64, 1, tshape);
    NjArray tin = nj_array_c(data, NJ_FLOAT64, 1, tshape);
    for (int k = 0; k < 2; k++) {
        NjValue a[2] = {nj_arr(&tin), nj_arr(&aout)}, r;
        st = nj_call(ft, a, 2, &r);
        CHECK(st == NJ_OK, "temps: %s", nj_error_message(ctx));
        if (st)
            break;
        double t = 0;
        bool ok = true;
        for (int i = 0; i < NT; i++) {
            ok &= outv[i] == 2 * data[i];
            t += 2 * data[i];
        }
        CHECK(ok, "temps: elements");
        CHECK(near(r.v.f, t), "temps: total");
    }

    /* raises: the first iteration in loop order that raises decides */
    NjFunction *fr = get(m, "raises");
    struct { int64_t ki, kz; NjStatus want; const char *text; } cases[] = {
        {300000, 100, NJ_ERR_RUNTIME, "ZeroDivisionError"},
        {100, 300000, NJ_ERR_RUNTIME, "IndexError"},
        {0, 1, NJ_ERR_RUNTIME, "IndexError"},
        {N - 1, N - 2, NJ_ERR_RUNTIME, "ZeroDivisionError"},
        {-1, -1, NJ_OK, NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int rep = 0; rep < 3; rep++) {
            NjValue a[3] = {nj_arr(&arr), nj_i64(cases[c].ki), nj_i64(cases[c].kz)}, r;
            st = nj_call(fr, a, 3, &r);
            CHECK(st == cases[c].want, "raises %zu: %s", c, nj_status_name(st));
            if (cases[c].text)
                CHECK(strstr(nj_error_message(ctx), cases[c].text) != NULL, "raises %zu: %s", c,
                      nj_error_message(ctx));
        }

    /* a parallel function inside a parallel loop: the inner loops run on their thread */
    static double mat[64 * 4096];
    for (int i = 0; i < 64 * 4096; i++)
        mat[i] = data[i % N];
    int64_t s2[2] = {64, 4096};
    NjArray am = nj_array_c(mat, NJ_FLOAT64, 2, s2);
    double want = 0;
    for (int i = 0; i < 64; i++) {
        double row = 0;
        for (int j = 0; j < 4096; j++)
            row += mat[i * 4096 + j];
        want += row;
    }
    NjValue av = nj_arr(&am), r;
    st = nj_call(get(m, "outer"), &av, 1, &r);
    CHECK(st == NJ_OK && fabs(r.v.f - want) <= 1e-9 * want, "nested: %s %.17g %.17g",
          nj_error_message(ctx), r.v.f, want);

    /* several C threads, each running parallel loops: the pool runs one job, the others run
     * their chunks themselves; every result is the same to the bit */
    NjFunction *fi = get(m, "inner");
    NjValue a1 = nj_arr(&arr);
    CHECK(nj_call(fi, &a1, 1, &r) == NJ_OK, "inner");
    ThreadArg ta[3];
    pthread_t th[3];
    for (int i = 0; i < 3; i++) {
        ta[i] = (ThreadArg){ctx, fi, r.v.f, 0};
        pthread_create(&th[i], NULL, worker, &ta[i]);
    }
    for (int i = 0; i < 3; i++) {
        pthread_join(th[i], NULL);
        CHECK(ta[i].bad == 0, "thread %d: %d bad results", i, ta[i].bad);
    }

    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
