/* test_alloc.c — arrays that compiled functions create, from C: the entry of a function that
 * returns an array writes an NjArray whose owner the caller releases; tuples of arrays and
 * scalars; an argument returned unchanged (no owner); arrays passed between compiled
 * functions; a loop allocating a temporary per iteration; exceptions raised with arrays alive;
 * a retained array outliving the call that made it; and the diagnostics where arrays cannot be
 * made (CUDA kernels) or returned (ahead-of-time objects, nj_call).  With a path argument, the
 * functions of tests/lang/array_flow.py run too (temporaries in loops, swaps, branches, tuples
 * of arrays through calls, raises with arrays alive).  Run under ASan, every path here must
 * free what it allocated. */
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
    "def ramp(n):\n"
    "    a = np.empty(n)\n"
    "    for i in range(n):\n"
    "        a[i] = i * 0.5\n"
    "    return a\n"
    "\n"
    "@njit\n"
    "def grid(n, m):\n"
    "    return np.ones((n, m), dtype=np.int32)\n"
    "\n"
    "@njit\n"
    "def total(a):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i]\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def step(u):\n"
    "    new = np.empty_like(u)\n"
    "    for i in range(u.shape[0]):\n"
    "        new[i] = 2.0 * u[i]\n"
    "    return new, total(new)\n"
    "\n"
    "@njit\n"
    "def same(a):\n"
    "    return a\n"
    "\n"
    "@njit\n"
    "def temps(n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.zeros(3)\n"
    "        t[0] = i\n"
    "        s += total(t) + total(ramp(4))\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def fails(n, d):\n"
    "    a = ramp(n)\n"
    "    b, s = step(a)\n"
    "    return b, s // d\n"
    "\n"
    "@njit\n"
    "def too_big(n):\n"
    "    return np.empty((n, n, n))\n"
    "\n"
    "@cuda.jit\n"
    "def kern(x):\n"
    "    t = np.zeros(3)\n"
    "    x[0] = t[0]\n";

static NjFunction *get(NjModule *m, const char *name) {
    NjFunction *f = NULL;
    CHECK(nj_module_function(m, name, &f) == NJ_OK, "function %s", name);
    return f;
}

static NjEntryInfo info_of(NjContext *ctx, NjFunction *f, const char *sig) {
    NjEntryInfo info;
    memset(&info, 0, sizeof info);
    NjStatus st = nj_function_entry_info(f, sig, &info);
    CHECK(st == NJ_OK, "entry %s: %s", sig, nj_error_message(ctx));
    return info;
}

/* The entry of f for sig, run on argv into out; true when it returned 0. */
static bool run(NjContext *ctx, NjModule *m, const char *f, const char *sig, void **argv,
                void *out, int32_t *site) {
    NjEntryInfo info = info_of(ctx, get(m, f), sig);
    if (!info.entry)
        return false;
    int32_t s = info.entry(argv, out);
    if (site)
        *site = s;
    return s == 0;
}

static double elem(const NjArray *a, int i) { return ((const double *)a->data)[i]; }

/* tests/lang/array_flow.py, whose expected values tests/diff checks against Numba. */
static void flow_program(NjContext *ctx, const char *path) {
    NjModule *m = NULL;
    NjStatus st = nj_compile_file(ctx, path, &m);
    CHECK(st == NJ_OK, "compile %s: %s", path, nj_error_message(ctx));
    if (st)
        return;
    unsigned char buf[NJ_RESULT_MAX];
    NjArray a, b;
    double d;
    int64_t n4 = 4, n3 = 3, n5 = 5, n100 = 100;

    void *pv[1] = {&n4};
    CHECK(run(ctx, m, "pipeline", "(int64)", pv, buf, NULL), "pipeline(4)");
    memcpy(&a, buf, sizeof a);
    memcpy(&b, buf + sizeof(NjArray), sizeof b);
    memcpy(&d, buf + 2 * sizeof(NjArray), sizeof d);
    CHECK(elem(&a, 0) == 100.0 && elem(&b, 3) == 2.0 && d == 117.0, "pipeline values");
    nj_array_release(&a);
    nj_array_release(&b);

    double u[5] = {0, 1, 4, 9, 16};
    int64_t us[1] = {5};
    NjArray ua = nj_array_c(u, NJ_FLOAT64, 1, us);
    void *rv[2] = {&ua, &n5};
    CHECK(run(ctx, m, "relax", "(float64[::1], int64)", rv, buf, NULL), "relax");
    memcpy(&a, buf, sizeof a);
    memcpy(&d, buf + sizeof(NjArray), sizeof d);
    CHECK(a.owner && elem(&a, 1) == 3.5 && elem(&a, 2) == 7.25 && d == 0.25 && u[1] == 1.0,
          "relax values %g %g", elem(&a, 1), d);
    nj_array_release(&a);
    /* zero iterations: the argument itself comes back, with no owner */
    int64_t zero = 0;
    void *rv0[2] = {&ua, &zero};
    CHECK(run(ctx, m, "relax", "(float64[::1], int64)", rv0, buf, NULL), "relax 0");
    memcpy(&a, buf, sizeof a);
    CHECK(!a.owner && a.data == (void *)u, "relax(u, 0) is u");

    void *lv[1] = {&n100};
    CHECK(run(ctx, m, "loop_temps", "(int64)", lv, &d, NULL) && d == 14950.0, "loop_temps %g", d);

    void *sv[1] = {&n3};
    CHECK(run(ctx, m, "swap", "(int64)", sv, buf, NULL), "swap");
    memcpy(&a, buf, sizeof a);
    memcpy(&b, buf + sizeof(NjArray), sizeof b);
    CHECK(elem(&a, 0) == 0.0 && elem(&b, 0) == 1.0 && a.owner != b.owner, "swap values");
    nj_array_release(&a);
    nj_array_release(&b);

    for (int flag = 0; flag < 2; flag++) {
        bool fl = flag;
        void *cv[2] = {&n3, &fl};
        CHECK(run(ctx, m, "choose", "(int64, bool)", cv, &a, NULL) &&
                  elem(&a, 2) == (flag ? 1.5 : 0.0),
              "choose %d", flag);
        nj_array_release(&a);
    }

    void *hv[1] = {&n5};
    CHECK(run(ctx, m, "pair_from_helper", "(int64)", hv, buf, NULL), "pair_from_helper");
    memcpy(&a, buf, sizeof a);
    memcpy(&b, buf + sizeof(NjArray), sizeof b);
    CHECK(elem(&a, 0) == 0.0 && elem(&b, 0) == -1.0 && elem(&b, 4) == 4.0, "pair values");
    nj_array_release(&a);
    nj_array_release(&b);

    /* views of arrays made inside: the view keeps the memory alive after the base's
     * variable is gone, and hands its owner to the caller */
    int64_t n8 = 8;
    void *wv[1] = {&n8};
    CHECK(run(ctx, m, "view_of_new", "(int64)", wv, &a, NULL) && a.owner && a.shape[0] == 3 &&
              elem(&a, 0) == 2.0 && elem(&a, 2) == 4.0,
          "view_of_new");
    nj_array_release(&a);
    CHECK(run(ctx, m, "row_of_new", "(int64)", pv, buf, NULL), "row_of_new");
    memcpy(&a, buf, sizeof a);
    memcpy(&b, buf + sizeof(NjArray), sizeof b);
    CHECK(a.owner && a.owner == b.owner && elem(&a, 1) == 3.0 && b.shape[0] == 3 &&
              b.shape[1] == 4 && b.strides[0] == 8,
          "row_of_new values");
    nj_array_release(&a);
    nj_array_release(&b);
    int64_t n1000 = 1000;
    void *vl[1] = {&n1000};
    CHECK(run(ctx, m, "views_in_loop", "(int64)", vl, &d, NULL) && d == 999000.0,
          "views_in_loop %g", d);

    double den = 0.0;
    void *fv[2] = {&n3, &den};
    int32_t site = 0;
    CHECK(!run(ctx, m, "raises_late", "(int64, float64)", fv, buf, &site) && site > 0,
          "raises_late(3, 0.0) raises");
    CHECK(!run(ctx, m, "raises_in_callee", "(int64)", sv, buf, &site) && site > 0,
          "raises_in_callee raises");
    den = 2.0;
    CHECK(run(ctx, m, "raises_late", "(int64, float64)", fv, buf, NULL), "raises_late(3, 2.0)");
    memcpy(&a, buf, sizeof a);
    memcpy(&d, buf + sizeof(NjArray), sizeof d);
    CHECK(d == 4.0 && elem(&a, 2) == 1.0, "raises_late values");
    nj_array_release(&a);

    for (int flag = 0; flag < 2; flag++) {
        bool fl = flag;
        void *av[2] = {&ua, &fl};
        CHECK(run(ctx, m, "arg_or_new", "(float64[::1], bool)", av, &a, NULL) &&
                  (a.owner == NULL) == (flag == 1) && elem(&a, 4) == 16.0,
              "arg_or_new %d", flag);
        nj_array_release(&a);
    }
}

/* Recursion with arrays (typer/typer.c, "recursion"): every level makes, passes on and returns
 * arrays; an entry called recursively with arrays it made (its body gets the full ABI); a
 * raise at depth 300 with an array alive at every level.  ASan checks that nothing leaks. */
static const char *REC_SRC =
    "import numpy as np\n"
    "from numba import njit\n"
    "\n"
    "@njit\n"
    "def build(n):\n"
    "    if n == 0:\n"
    "        return np.zeros(4)\n"
    "    r = build(n - 1)\n"
    "    return r + 1.0\n"
    "\n"
    "@njit\n"
    "def passthru(a, n):\n"
    "    if n == 0:\n"
    "        return a\n"
    "    return passthru(a + 1.0, n - 1)\n"
    "\n"
    "@njit\n"
    "def fails(a, n):\n"
    "    t = a * 2.0\n"
    "    if n == 0:\n"
    "        return t[0] // 0.0\n"
    "    return fails(t, n - 1) + 1.0\n";

static void recursion_program(NjContext *ctx) {
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "rec.py", REC_SRC, &m);
    CHECK(st == NJ_OK, "compile rec.py: %s", nj_error_message(ctx));
    if (st)
        return;
    NjArray a;
    int64_t n = 300;
    void *bv[1] = {&n};
    CHECK(run(ctx, m, "build", "(int64)", bv, &a, NULL) && a.owner && elem(&a, 3) == 300.0,
          "build(300)");
    nj_array_release(&a);
    double u[4] = {0, 1, 2, 3};
    int64_t us[1] = {4};
    NjArray ua = nj_array_c(u, NJ_FLOAT64, 1, us);
    void *pv[2] = {&ua, &n};
    CHECK(run(ctx, m, "passthru", "(float64[::1], int64)", pv, &a, NULL) && a.owner &&
              elem(&a, 1) == 301.0 && u[1] == 1.0,
          "passthru(u, 300)");
    nj_array_release(&a);
    double d = 0;
    int32_t site = 0;
    CHECK(!run(ctx, m, "fails", "(float64[::1], int64)", pv, &d, &site) && site > 0,
          "fails(u, 300) raises");
}

int main(int argc, char **argv) {
    NjContext *ctx;
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "alloc.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        printf("%d checks, %d failures\n", checks, failures);
        return 1;
    }

    /* an array result: NjArray with an owner, C strides, released by the caller */
    NjEntryInfo ri = info_of(ctx, get(m, "ramp"), "(int64)");
    CHECK(ri.result_kind == NJ_KIND_ARRAY && ri.result_dtype == NJ_FLOAT64, "ramp's kind");
    int64_t n = 5;
    void *rargs[3] = {&n};
    NjArray out;
    memset(&out, 0xab, sizeof out);
    CHECK(ri.entry && ri.entry(rargs, &out) == 0, "ramp(5) runs");
    CHECK(out.ndim == 1 && out.dtype == NJ_FLOAT64 && out.shape[0] == 5 && out.strides[0] == 8,
          "ramp(5): ndim %d shape %lld", out.ndim, (long long)out.shape[0]);
    CHECK(out.owner != NULL && out.data != NULL, "ramp's result owns its memory");
    CHECK(((uintptr_t)out.data & 63) == 0, "data aligned to 64 bytes");
    CHECK(((double *)out.data)[4] == 2.0, "ramp(5)[4] = %g", ((double *)out.data)[4]);
    /* a retained array outlives the release of the first reference */
    NjArray keep = out;
    nj_array_retain(&keep);
    nj_array_release(&out);
    CHECK(out.owner == NULL && out.data == NULL, "release clears the array");
    CHECK(((double *)keep.data)[1] == 0.5, "the retained array is intact");
    for (int i = 0; i < 100; i++) { /* more calls do not touch it */
        NjArray tmp;
        int64_t k = 1000;
        void *av[1] = {&k};
        CHECK(ri.entry(av, &tmp) == 0 && tmp.shape[0] == 1000, "ramp(1000)");
        nj_array_release(&tmp);
    }
    CHECK(((double *)keep.data)[4] == 2.0, "the retained array outlived other calls");
    nj_array_release(&keep);
    nj_array_release(&keep); /* no owner any more: harmless */

    /* 2-d, int32, dtype= */
    NjEntryInfo gi = info_of(ctx, get(m, "grid"), "(int64, int64)");
    int64_t r = 2, c = 3;
    void *gv[2] = {&r, &c};
    CHECK(gi.entry(gv, &out) == 0 && out.ndim == 2 && out.dtype == NJ_INT32 &&
              out.shape[0] == 2 && out.shape[1] == 3 && out.strides[0] == 12 &&
              out.strides[1] == 4 && ((int32_t *)out.data)[5] == 1,
          "grid(2, 3)");
    nj_array_release(&out);

    /* a tuple (array, float64): the C struct of NjEntryInfo */
    NjEntryInfo si = info_of(ctx, get(m, "step"), "(float64[::1])");
    CHECK(si.result_kind == NJ_KIND_TUPLE && si.result_count == 2 &&
              si.result_kinds[0] == NJ_KIND_ARRAY && si.result_kinds[1] == NJ_KIND_SCALAR &&
              si.result_dtypes[0] == NJ_FLOAT64 && si.result_offsets[0] == 0 &&
              si.result_offsets[1] == (int)sizeof(NjArray) &&
              si.result_size == (int)sizeof(NjArray) + 8 && si.result_size <= NJ_RESULT_MAX,
          "step's layout: size %d offsets %d %d", si.result_size, si.result_offsets[0],
          si.result_offsets[1]);
    double u[4] = {1, 2, 3, 4};
    int64_t us[1] = {4};
    NjArray ua = nj_array_c(u, NJ_FLOAT64, 1, us);
    void *sv[1] = {&ua};
    unsigned char buf[NJ_RESULT_MAX];
    CHECK(si.entry(sv, buf) == 0, "step runs");
    NjArray arr;
    double sum;
    memcpy(&arr, buf + si.result_offsets[0], sizeof arr);
    memcpy(&sum, buf + si.result_offsets[1], sizeof sum);
    CHECK(arr.owner && arr.shape[0] == 4 && ((double *)arr.data)[3] == 8.0 && sum == 20.0,
          "step(u): sum %g", sum);
    nj_array_release(&arr);

    /* an argument returned: no owner, the caller's memory */
    NjEntryInfo ai = info_of(ctx, get(m, "same"), "(float64[::1])");
    CHECK(ai.entry(sv, &out) == 0 && out.owner == NULL && out.data == (void *)u &&
              out.shape[0] == 4,
          "same(u) is u's memory");

    /* temporaries in a loop, arrays passed between compiled functions */
    NjEntryInfo ti = info_of(ctx, get(m, "temps"), "(int64)");
    int64_t iters = 100000;
    void *tv[1] = {&iters};
    double s = 0;
    CHECK(ti.entry(tv, &s) == 0 && s == 100000.0 * 99999.0 / 2 + 100000 * 3.0, "temps: %g", s);

    /* raising with arrays alive in the function and in its callee: nothing leaks (ASan) */
    NjFunction *fails = get(m, "fails");
    NjEntryInfo fi = info_of(ctx, fails, "(int64, float64)");
    double d = 0.0;
    void *fv[2] = {&n, &d};
    int32_t site = fi.entry(fv, buf);
    const char *exc = NULL;
    CHECK(site != 0 && nj_function_raise(fails, fi.entry, site, &exc) == NJ_ERR_RUNTIME &&
              exc && !strcmp(exc, "ZeroDivisionError"),
          "fails(5, 0.0) raises ZeroDivisionError");
    d = 2.0;
    CHECK(fi.entry(fv, buf) == 0, "fails(5, 2.0) runs");
    memcpy(&arr, buf, sizeof arr);
    nj_array_release(&arr);

    /* a size malloc refuses: MemoryError, not a crash */
    NjFunction *big = get(m, "too_big");
    NjEntryInfo bi = info_of(ctx, big, "(int64)");
    int64_t huge = (int64_t)1 << 19; /* 2**57 float64: 2**60 bytes */
    void *bv[1] = {&huge};
    site = bi.entry(bv, &out);
    CHECK(site != 0 && nj_function_raise(big, bi.entry, site, &exc) == NJ_ERR_RUNTIME && exc &&
              !strcmp(exc, "MemoryError") && strstr(nj_error_message(ctx), "alloc.py:50:12"),
          "too_big: %s", nj_error_message(ctx));
    /* a size beyond INT64_MAX: Numba's ValueError, never a wrapped small block */
    huge = (int64_t)1 << 40;
    site = bi.entry(bv, &out);
    CHECK(site != 0 && nj_function_raise(big, bi.entry, site, &exc) == NJ_ERR_RUNTIME && exc &&
              !strcmp(exc, "ValueError") && strstr(nj_error_message(ctx), "array is too big"),
          "too_big: %s", nj_error_message(ctx));
    huge = -1;
    site = bi.entry(bv, &out);
    CHECK(site != 0 && nj_function_raise(big, bi.entry, site, &exc) == NJ_ERR_RUNTIME && exc &&
              !strcmp(exc, "ValueError") &&
              strstr(nj_error_message(ctx), "negative dimensions not allowed"),
          "too_big(-1): %s", nj_error_message(ctx));

    /* nj_call cannot hold an array: a clear status */
    NjValue nv[1] = {nj_i64(3)}, res;
    CHECK(nj_call(get(m, "ramp"), nv, 1, &res) == NJ_ERR_UNSUPPORTED &&
              strstr(nj_error_message(ctx), "nj_function_entry_info"),
          "nj_call of ramp: %s", nj_error_message(ctx));

    /* CUDA kernels cannot allocate; ahead-of-time objects cannot return arrays */
    char *ptx = NULL;
    st = nj_ptx(m, "kern(float64[:])", "sm_80", &ptx);
    CHECK(st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "alloc.py:54:9: error") &&
              strstr(nj_error_message(ctx), "cuda.local.array") &&
              strstr(nj_error_message(ctx), "^"),
          "np.zeros in a kernel: %s", nj_error_message(ctx));
    nj_free_string(ptx);
    const char *sigs[] = {"ramp(int64)"};
    void *obj = NULL;
    size_t len = 0;
    st = nj_aot_object(m, sigs, 1, NULL, &obj, &len);
    CHECK(st == NJ_ERR_UNSUPPORTED && strstr(nj_error_message(ctx), "no C form"),
          "aot of ramp: %s", nj_error_message(ctx));
    nj_aot_free(obj);

    if (argc > 1)
        flow_program(ctx, argv[1]);
    recursion_program(ctx);

    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
