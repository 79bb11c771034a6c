/* test_cfunc.c — C callbacks (nj_function_cfunc, Numba's @cfunc) called from C as plain C
 * functions: numbers in and out with the result converted to the declared type, pointers
 * indexed and viewed with numba.carray/farray, a void* read as another dtype, qsort with a
 * compiled comparator, an exception returning zero, and the signatures that are refused. */
#include "numjit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "import numpy as np\n"
    "from numba import njit, carray, farray\n"
    "\n"
    "@njit\n"
    "def add(x, y):\n"
    "    return x + y\n"
    "\n"
    "@njit\n"
    "def mean(p, n, out, data):\n"
    "    a = carray(p, (n,))\n"
    "    out[0] = a.sum() / n\n"
    "    return n > 0\n"
    "\n"
    "@njit\n"
    "def fill(p, r, c):\n"
    "    a = carray(p, (r, c))\n"
    "    f = farray(p, (r, c))\n"
    "    for i in range(r):\n"
    "        for j in range(c):\n"
    "            a[i, j] = i * 10 + j\n"
    "    f[1, 0] += 0.5\n"
    "\n"
    "@njit\n"
    "def as_ints(v, n):\n"
    "    a = carray(v, n, np.int32)\n"
    "    return a.sum()\n"
    "\n"
    "@njit\n"
    "def cmp(a, b):\n"
    "    x = a[0]\n"
    "    y = b[0]\n"
    "    return (x > y) - (x < y)\n"
    "\n"
    "@njit\n"
    "def inv(x):\n"
    "    return 1 // x\n"
    "\n"
    "@njit\n"
    "def nothing(x):\n"
    "    pass\n";

static NjFunction *get(NjModule *m, const char *name) {
    NjFunction *f = NULL;
    CHECK(nj_module_function(m, name, &f) == NJ_OK, "function %s", name);
    return f;
}

static NjContext *ctx;

static void *cfunc(NjModule *m, const char *name, const char *sig, const char *sym) {
    void *addr = NULL;
    NjFunction *f = get(m, name);
    NjStatus st = f ? nj_function_cfunc(f, sig, sym, &addr) : NJ_ERR_NAME;
    CHECK(st == NJ_OK && addr, "%s: %s", sig, nj_error_message(ctx));
    return addr;
}

static int by_cmp(const void *a, const void *b, void *fn) {
    return ((int32_t(*)(const void *, const void *))fn)(a, b);
}

int main(void) {
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "cb.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        printf("%d checks, %d failures\n", checks, failures);
        return 1;
    }
    double (*addf)(double, double) = (double (*)(double, double))cfunc(
        m, "add", "float64(float64, float64)", "cb_add");
    CHECK(addf && addf(2.0, 3.5) == 5.5, "add");
    /* int64 + int64 computed, converted to the declared int8 (wraps as a store does) */
    int8_t (*add8)(int64_t, int64_t) = (int8_t (*)(int64_t, int64_t))cfunc(
        m, "add", "int8(int64, int64)", "cb_add8");
    CHECK(add8 && add8(100, 50) == (int8_t)150, "add8");
    int32_t (*meanf)(double *, int64_t, double *, void *) =
        (int32_t (*)(double *, int64_t, double *, void *))cfunc(
            m, "mean", "int32(float64[::1], int64, float64[::1], uint8[::1])", "cb_mean");
    double xs[4] = {1, 2, 3, 6}, out = 0;
    CHECK(meanf && meanf(xs, 4, &out, NULL) == 1 && out == 3.0, "mean: %g", out);
    void (*fillf)(double *, int32_t, int32_t) = (void (*)(double *, int32_t, int32_t))cfunc(
        m, "fill", "void(float64[::1], int32, int32)", "cb_fill");
    double buf[6] = {0};
    if (fillf)
        fillf(buf, 2, 3);
    CHECK(buf[0] == 0 && buf[1] == 1.5 && buf[2] == 2 && buf[3] == 10 && buf[5] == 12,
          "fill: %g %g %g %g", buf[0], buf[1], buf[2], buf[5]);
    int64_t (*ints)(void *, int64_t) = (int64_t (*)(void *, int64_t))cfunc(
        m, "as_ints", "int64(uint8[::1], int64)", "cb_ints");
    int32_t iv[3] = {7, -2, 40};
    CHECK(ints && ints(iv, 3) == 45, "as_ints");
    void *cmpf = cfunc(m, "cmp", "int32(int32[::1], int32[::1])", "cb_cmp");
    int32_t keys[6] = {5, -1, 9, 0, 3, 3};
    if (cmpf)
        qsort_r(keys, 6, sizeof keys[0], by_cmp, cmpf);
    CHECK(keys[0] == -1 && keys[1] == 0 && keys[2] == 3 && keys[5] == 9, "qsort");
    int64_t (*invf)(int64_t) = (int64_t (*)(int64_t))cfunc(m, "inv", "int64(int64)", "cb_inv");
    CHECK(invf && invf(1) == 1 && invf(0) == 0, "an exception returns zero");

    void *addr = NULL;
    CHECK(nj_function_cfunc(get(m, "add"), "(float64, float64)", "cb_x1", &addr) == NJ_ERR_ARGS,
          "no return type");
    CHECK(strstr(nj_error_message(ctx), "explicit return type"), "%s", nj_error_message(ctx));
    CHECK(nj_function_cfunc(get(m, "nothing"), "float64(float64)", "cb_x2", &addr) != NJ_OK &&
              strstr(nj_error_message(ctx), "returns None"),
          "None for a number: %s", nj_error_message(ctx));
    CHECK(nj_function_cfunc(get(m, "add"), "float64(float64[:, ::1], float64)", "cb_x3",
                            &addr) != NJ_OK && strstr(nj_error_message(ctx), "cannot take"),
          "2-d array: %s", nj_error_message(ctx));
    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
