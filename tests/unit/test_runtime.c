/* test_runtime.c — the public C API end to end: compile a module from text, call functions
 * with scalars and arrays of every layout, check the errors a user can cause, the in-memory
 * cache, and several threads compiling and calling at once. */
#include "numjit.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

static const char *SRC =
    "import math\n"
    "import numpy as np\n"
    "from numba import njit\n"
    "\n"
    "SCALE = 2\n"
    "\n"
    "@njit\n"
    "def add(a, b):\n"
    "    return a + b\n"
    "\n"
    "@njit\n"
    "def fdiv(a, b):\n"
    "    return a // b\n"
    "\n"
    "@njit\n"
    "def fmod_(a, b):\n"
    "    return a % b\n"
    "\n"
    "@njit\n"
    "def total(x):\n"
    "    s = 0.0\n"
    "    for i in range(x.shape[0]):\n"
    "        s += x[i]\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def total2(a):\n"
    "    s = 0\n"
    "    n, m = a.shape\n"
    "    for i in range(n):\n"
    "        for j in range(m):\n"
    "            s += a[i, j] * (i + 1)\n"
    "    return s\n"
    "\n"
    "@njit\n"
    "def rel_diff(x, y, out):\n"
    "    for i in range(len(x)):\n"
    "        out[i] = SCALE * (x[i] - y[i]) / (x[i] + y[i])\n"
    "\n"
    "@njit\n"
    "def collatz(n):\n"
    "    steps = 0\n"
    "    while n != 1:\n"
    "        if n % 2 == 0:\n"
    "            n = n // 2\n"
    "        else:\n"
    "            n = 3 * n + 1\n"
    "        steps += 1\n"
    "    return steps\n"
    "\n"
    "@njit\n"
    "def hyp(a, b):\n"
    "    return math.sqrt(sq(a) + sq(b))\n"
    "\n"
    "@njit\n"
    "def sq(v):\n"
    "    return v * v\n"
    "\n"
    "@njit\n"
    "def ipow(a, b):\n"
    "    return a ** b\n"
    "\n"
    "@njit\n"
    "def bad(x, flag):\n"
    "    return x & flag\n";

static NjFunction *get(NjModule *m, const char *name) {
    NjFunction *f = NULL;
    NjStatus st = nj_module_function(m, name, &f);
    CHECK(st == NJ_OK, "function %s: %s", name, nj_status_name(st));
    return f;
}

static double call_f(NjContext *ctx, NjFunction *f, NjValue *a, int n) {
    NjValue r;
    NjStatus st = nj_call(f, a, n, &r);
    CHECK(st == NJ_OK, "call failed: %s %s", nj_status_name(st), nj_error_message(ctx));
    return r.dtype == NJ_FLOAT64 || r.dtype == NJ_FLOAT32 ? r.v.f : (double)r.v.i;
}

typedef struct {
    NjContext *ctx;
    NjModule *m;
    int id;
    int bad;
} ThreadArg;

static void *worker(void *p) {
    ThreadArg *t = p;
    NjFunction *f = NULL;
    nj_module_function(t->m, "add", &f);
    for (int i = 0; i < 200; i++) {
        NjValue a[2] = {nj_i64(i), nj_f64(t->id)}, r;
        if (i % 2)
            a[0] = nj_i32(i);
        if (nj_call(f, a, 2, &r) != NJ_OK || r.v.f != i + t->id)
            t->bad++;
    }
    return NULL;
}

int main(void) {
    NjContext *ctx;
    CHECK(nj_context_new(&ctx) == NJ_OK, "context");
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "prog.py", SRC, &m);
    CHECK(st == NJ_OK, "compile: %s", nj_error_message(ctx));
    if (st) {
        printf("%d checks, %d failures\n", checks, failures);
        return 1;
    }

    /* scalars and typing */
    NjFunction *add = get(m, "add");
    NjValue r;
    NjValue a2[2] = {nj_i64(2), nj_i64(40)};
    CHECK(nj_call(add, a2, 2, &r) == NJ_OK && r.dtype == NJ_INT64 && r.v.i == 42, "2+40");
    NjValue a3[2] = {nj_i32(2), nj_f32(0.5f)};
    CHECK(nj_call(add, a3, 2, &r) == NJ_OK && r.dtype == NJ_FLOAT64 && r.v.f == 2.5,
          "int32+float32 -> float64");
    NjValue a4[2] = {nj_f32(1.5f), nj_f32(0.25f)};
    CHECK(nj_call(add, a4, 2, &r) == NJ_OK && r.dtype == NJ_FLOAT32 && r.v.f == 1.75,
          "float32+float32 -> float32");

    /* Python floor division and modulo */
    NjFunction *fd = get(m, "fdiv"), *fm = get(m, "fmod_");
    long cases[][4] = {{7, 2, 3, 1}, {-7, 2, -4, 1}, {7, -2, -4, -1}, {-7, -2, 3, -1}};
    for (int i = 0; i < 4; i++) {
        NjValue a[2] = {nj_i64(cases[i][0]), nj_i64(cases[i][1])};
        CHECK(call_f(ctx, fd, a, 2) == cases[i][2], "%ld // %ld", cases[i][0], cases[i][1]);
        CHECK(call_f(ctx, fm, a, 2) == cases[i][3], "%ld %% %ld", cases[i][0], cases[i][1]);
    }
    NjValue fa[2] = {nj_f64(-7.5), nj_f64(2.0)};
    CHECK(call_f(ctx, fd, fa, 2) == -4.0 && call_f(ctx, fm, fa, 2) == 0.5, "float floordiv/mod");

    /* ZeroDivisionError with its location */
    NjValue z[2] = {nj_i64(1), nj_i64(0)};
    st = nj_call(fd, z, 2, &r);
    CHECK(st == NJ_ERR_RUNTIME, "1 // 0 must raise: %s", nj_status_name(st));
    CHECK(strstr(nj_error_message(ctx), "prog.py:13:12: error: ZeroDivisionError") != NULL,
          "message: %s", nj_error_message(ctx));

    /* arrays: C, strided, negative strides, 2-D C and F */
    double data[10];
    for (int i = 0; i < 10; i++)
        data[i] = i;
    int64_t shape[1] = {10};
    NjArray arr = nj_array_c(data, NJ_FLOAT64, 1, shape);
    NjValue av = nj_arr(&arr);
    NjFunction *tot = get(m, "total");
    CHECK(call_f(ctx, tot, &av, 1) == 45.0, "sum C");
    NjArray even = arr;
    even.shape[0] = 5;
    even.strides[0] = 16;
    av = nj_arr(&even);
    CHECK(call_f(ctx, tot, &av, 1) == 20.0, "sum strided");
    NjArray rev = arr;
    rev.data = data + 9;
    rev.strides[0] = -8;
    av = nj_arr(&rev);
    CHECK(call_f(ctx, tot, &av, 1) == 45.0, "sum reversed");

    int64_t m2[6] = {1, 2, 3, 4, 5, 6}; /* [[1,2,3],[4,5,6]] */
    int64_t shape2[2] = {2, 3};
    NjArray c2 = nj_array_c(m2, NJ_INT64, 2, shape2);
    av = nj_arr(&c2);
    NjFunction *t2 = get(m, "total2");
    CHECK(call_f(ctx, t2, &av, 1) == 6 + 2 * 15, "2-D C");
    int64_t f2[6] = {1, 4, 2, 5, 3, 6}; /* same matrix, Fortran order */
    NjArray ff = c2;
    ff.data = f2;
    ff.strides[0] = 8;
    ff.strides[1] = 16;
    av = nj_arr(&ff);
    CHECK(call_f(ctx, t2, &av, 1) == 6 + 2 * 15, "2-D F");

    double x[4] = {1, 2, 3, 4}, y[4] = {3, 2, 1, 0}, out[4];
    int64_t s4[1] = {4};
    NjArray ax = nj_array_c(x, NJ_FLOAT64, 1, s4), ay = nj_array_c(y, NJ_FLOAT64, 1, s4),
            ao = nj_array_c(out, NJ_FLOAT64, 1, s4);
    NjValue rd[3] = {nj_arr(&ax), nj_arr(&ay), nj_arr(&ao)};
    CHECK(nj_call(get(m, "rel_diff"), rd, 3, NULL) == NJ_OK, "rel_diff: %s", nj_error_message(ctx));
    CHECK(out[0] == -1.0 && out[1] == 0.0 && out[2] == 1.0 && out[3] == 2.0, "rel_diff values");
    /* a read-only array: reading is fine, writing is a located type error, and the two
     * specializations stay apart (the writable one still runs) */
    NjValue ro[3] = {nj_arr(&ax), nj_arr(&ay), nj_arr(&ao)};
    ro[0].kind = NJ_KIND_READONLY_ARRAY;
    CHECK(nj_call(get(m, "rel_diff"), ro, 3, NULL) == NJ_OK, "read-only input: %s",
          nj_error_message(ctx));
    ro[2].kind = NJ_KIND_READONLY_ARRAY;
    out[0] = 7.0;
    st = nj_call(get(m, "rel_diff"), ro, 3, NULL);
    CHECK(st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "prog.py:") &&
              strstr(nj_error_message(ctx), "read-only array") && out[0] == 7.0,
          "write into a read-only array: %s %s", nj_status_name(st), nj_error_message(ctx));
    CHECK(nj_call(get(m, "rel_diff"), rd, 3, NULL) == NJ_OK && out[0] == -1.0,
          "writable again: %s", nj_error_message(ctx));
    NjEntry roe;
    st = nj_function_entry(get(m, "rel_diff"),
                           "(float64[::1], float64[::1], readonly array(float64, 1d, C))", &roe);
    CHECK(st == NJ_ERR_TYPE, "read-only by signature: %s", nj_status_name(st));
    CHECK(nj_function_entry(get(m, "rel_diff"), "(readonly float64[::1], float64[:], float64[::1])",
                            &roe) == NJ_OK,
          "read-only input by signature: %s", nj_error_message(ctx));

    NjValue c27 = nj_i64(27);
    CHECK(call_f(ctx, get(m, "collatz"), &c27, 1) == 111, "collatz");
    NjValue h[2] = {nj_f64(3), nj_f64(4)};
    CHECK(call_f(ctx, get(m, "hyp"), h, 2) == 5.0, "calls between functions");
    NjFunction *ip = get(m, "ipow");
    NjValue p1[2] = {nj_i64(3), nj_i64(4)}, p2[2] = {nj_i64(2), nj_i64(-1)},
            p3[2] = {nj_i64(-1), nj_i64(-3)}, p4[2] = {nj_f32(2), nj_i64(-1)};
    CHECK(call_f(ctx, ip, p1, 2) == 81, "3**4");
    CHECK(call_f(ctx, ip, p2, 2) == 0, "2**-1");
    CHECK(call_f(ctx, ip, p3, 2) == -1, "-1**-3");
    CHECK(call_f(ctx, ip, p4, 2) == 0.5, "float32**-1");

    /* errors a user can cause */
    NjValue bad[2] = {nj_arr(&arr), nj_bool(true)};
    st = nj_call(get(m, "bad"), bad, 2, &r);
    CHECK(st == NJ_ERR_TYPE, "type error status %s", nj_status_name(st));
    CHECK(strstr(nj_error_message(ctx), "prog.py:65:12: error: unsupported operand types for &") &&
              strstr(nj_error_message(ctx), "^"),
          "type error message: %s", nj_error_message(ctx));
    st = nj_call(add, a2, 1, &r);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "takes 2 arguments"),
          "arg count: %s", nj_error_message(ctx));
    NjFunction *none;
    CHECK(nj_module_function(m, "nope", &none) == NJ_ERR_NAME, "missing function");
    NjModule *m2b;
    st = nj_compile_source(ctx, "bad.py", "def f(x):\n    return x +\n", &m2b);
    CHECK(st == NJ_ERR_SYNTAX && strstr(nj_error_message(ctx), "bad.py:2:"), "syntax: %s",
          nj_error_message(ctx));

    /* the explicit entry */
    NjEntry e;
    CHECK(nj_function_entry(add, "(float64, float64)", &e) == NJ_OK, "entry");
    double ea = 1.25, eb = 2, er = 0;
    void *eargs[2] = {&ea, &eb};
    CHECK(e(eargs, &er) == 0 && er == 3.25, "entry call");

    /* threads */
    pthread_t th[4];
    ThreadArg ta[4];
    for (int i = 0; i < 4; i++) {
        ta[i] = (ThreadArg){ctx, m, i, 0};
        pthread_create(&th[i], NULL, worker, &ta[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(ta[i].bad == 0, "thread %d had %d bad calls", i, ta[i].bad);
    }

    nj_context_free(ctx);

    /* nj_context_prepare: the JIT starts on a thread; compiling meanwhile waits for it, a
     * second prepare is a no-op, and freeing joins the thread (also when nothing compiled) */
    NjContext *pc2 = NULL, *pc3 = NULL;
    CHECK(nj_context_new(&pc2) == NJ_OK && nj_context_new(&pc3) == NJ_OK, "contexts");
    nj_context_prepare(pc2);
    nj_context_prepare(pc2);
    nj_context_prepare(pc3);
    NjModule *pm2 = NULL;
    CHECK(nj_compile_source(pc2, "p2.py", SRC, &pm2) == NJ_OK, "compile after prepare");
    NjFunction *add2 = NULL;
    CHECK(pm2 && nj_module_function(pm2, "add", &add2) == NJ_OK, "lookup after prepare");
    NjValue b2[2] = {nj_i64(1), nj_i64(2)};
    CHECK(add2 && nj_call(add2, b2, 2, &r) == NJ_OK && r.v.i == 3, "call after prepare");
    nj_context_prepare(NULL);
    nj_context_free(pc3); /* prepared, never used */
    nj_context_free(pc2);

    /* nj_compile_source_lazy: an unsupported construct in one decorated function fails that
     * function when it is specialized (a syntax-class status with the location), not the
     * module; nj_compile_source still fails the module */
    static const char *PARTLY =
        "from numba import njit\n"
        "@njit\n"
        "def good(a):\n"
        "    return a + 1\n"
        "@njit\n"
        "def bad(n):\n"
        "    return sum(x for x in range(n))\n";
    NjContext *lc = NULL;
    CHECK(nj_context_new(&lc) == NJ_OK, "context");
    NjModule *lm = NULL;
    CHECK(nj_compile_source(lc, "partly.py", PARTLY, &lm) == NJ_ERR_SYNTAX &&
              strstr(nj_error_message(lc), "partly.py:7:"),
          "strict compile fails the module: %s", nj_error_message(lc));
    CHECK(nj_compile_source_lazy(lc, "partly.py", PARTLY, &lm) == NJ_OK, "lazy compile: %s",
          nj_error_message(lc));
    NjFunction *lg = NULL, *lb = NULL;
    CHECK(lm && !nj_module_function(lm, "good", &lg) && !nj_module_function(lm, "bad", &lb),
          "lookups");
    NjValue one[1] = {nj_i64(41)};
    CHECK(lg && nj_call(lg, one, 1, &r) == NJ_OK && r.v.i == 42, "good() works");
    CHECK(lb && nj_call(lb, one, 1, &r) == NJ_ERR_SYNTAX &&
              strstr(nj_error_message(lc), "partly.py:7:") &&
              strstr(nj_error_message(lc), "not supported"),
          "bad() reports the construct: %s", nj_error_message(lc));
    nj_context_free(lc);

    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
