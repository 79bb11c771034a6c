/* test_session.c — unit tests of sessions (the REPL/script engine) through the public API.
 *
 * Each case runs statements in a session and compares what they printed with what CPython +
 * NumPy 1.24 prints for the same code (the expected strings were taken from NumPy), or checks
 * the rendered error.  The last cases measure: compile time of a new expression shape, and the
 * speed of a fused expression against the same ufunc called directly (reported, and checked
 * only loosely: the machine may be shared).
 */
#include "numjit.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Time limits of the checks that catch a quadratic or interpreted-too-slowly session are
 * loose by this factor in a sanitizer build, whose every load and store is checked (the
 * limits there guard against a hang, not a slowdown). */
#if defined(__SANITIZE_ADDRESS__)
#define SLOW 25.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLOW 25.0
#endif
#endif
#ifndef SLOW
#define SLOW 1.0
#endif

static int failures;
#define CHECK(c, ...)                                                                          \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                              \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

static NjContext *ctx;

/* Runs src in s; returns the output (static buffer). */
static const char *run(NjSession *s, const char *src, NjStatus *st) {
    static char buf[1 << 16];
    char *out = NULL;
    *st = nj_session_exec(s, "<stdin>", src, &out);
    snprintf(buf, sizeof buf, "%s", out ? out : "");
    nj_free_string(out);
    return buf;
}

static void expect_out(NjSession *s, const char *src, const char *want) {
    NjStatus st;
    const char *got = run(s, src, &st);
    CHECK(st == NJ_OK, "%s\n  failed: %s", src, nj_error_message(ctx));
    CHECK(!strcmp(got, want), "%s\n  want: [%s]\n  got:  [%s]", src, want, got);
}

static void expect_err(NjSession *s, const char *src, const char *want) {
    NjStatus st;
    run(s, src, &st);
    const char *msg = nj_error_message(ctx);
    CHECK(st != NJ_OK, "%s: expected an error", src);
    CHECK(strstr(msg, want) != NULL, "%s\n  want error containing: [%s]\n  got: [%s]", src, want, msg);
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void test_printing(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    nj_session_set_echo(s, true);
    expect_out(s, "np.arange(5.0)\n", "array([0., 1., 2., 3., 4.])\n");
    expect_out(s, "np.array([1.0, 0.5])\n", "array([1. , 0.5])\n");
    expect_out(s, "np.arange(3, dtype=np.int32)\n", "array([0, 1, 2], dtype=int32)\n");
    expect_out(s, "np.zeros(2, dtype=np.float32)\n", "array([0., 0.], dtype=float32)\n");
    expect_out(s, "np.array([1, 10, 100])\n", "array([  1,  10, 100])\n");
    expect_out(s, "np.array([True, False])\n", "array([ True, False])\n");
    expect_out(s, "np.arange(1e7)\n",
               "array([0.000000e+00, 1.000000e+00, 2.000000e+00, ..., 9.999997e+06,\n"
               "       9.999998e+06, 9.999999e+06])\n");
    expect_out(s, "np.arange(6.0).reshape(2, 3)\n", "array([[0., 1., 2.],\n       [3., 4., 5.]])\n");
    expect_out(s, "print(np.arange(6.0).reshape(2, 3))\n", "[[0. 1. 2.]\n [3. 4. 5.]]\n");
    expect_out(s, "np.linspace(0, 1, 5)\n", "array([0.  , 0.25, 0.5 , 0.75, 1.  ])\n");
    expect_out(s, "np.array([1e-5, 1.0])\n", "array([1.e-05, 1.e+00])\n");
    expect_out(s, "print(1/3, 2**0.5, 10**15, 1e16, 1e-5, 0.1 + 0.2)\n",
               "0.3333333333333333 1.4142135623730951 1000000000000000 1e+16 1e-05 "
               "0.30000000000000004\n");
    expect_out(s, "np.zeros(0)\n", "array([], dtype=float64)\n");
    expect_out(s, "np.arange(20.0) / 7\n",
               "array([0.        , 0.14285714, 0.28571429, 0.42857143, 0.57142857,\n"
               "       0.71428571, 0.85714286, 1.        , 1.14285714, 1.28571429,\n"
               "       1.42857143, 1.57142857, 1.71428571, 1.85714286, 2.        ,\n"
               "       2.14285714, 2.28571429, 2.42857143, 2.57142857, 2.71428571])\n");
    expect_out(s, "x = np.arange(4.0)\nx.shape, x.size, x.dtype\n", "((4,), 4, dtype('float64'))\n");
    expect_out(s, "print('%.3f and %d' % (np.pi, 42))\n", "3.142 and 42\n");
    nj_session_free(s);
}

static void test_expressions(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    expect_out(s,
               "import numpy as np\n"
               "x = np.arange(6.0)\n"
               "z = np.ones(6)\n"
               "y = 2*(x - z)/(x + z)\n"
               "print(y)\n",
               "[-2.          0.          0.66666667  1.          1.2         1.33333333]\n");
    expect_out(s, "print(np.sin(x)**2 + np.cos(x)**2)\n", "[1. 1. 1. 1. 1. 1.]\n");
    /* len() of a str counts code points, not bytes */
    expect_out(s, "print(len('ok \xcf\x80 \xc3\xa9'), len(''))\n", "6 0\n");
    expect_out(s, "print(x.sum(), (x*z).sum(), np.sum(x + 1), x.mean(), x.min(), x.max(), "
                  "np.prod(x + 1))\n",
               "15.0 15.0 21.0 2.5 0.0 5.0 720.0\n");
    /* broadcasting: a column against a row */
    expect_out(s, "a = np.arange(3.0).reshape(3, 1)\nb = np.arange(4.0)\nprint(a * 10 + b)\n",
               "[[ 0.  1.  2.  3.]\n [10. 11. 12. 13.]\n [20. 21. 22. 23.]]\n");
    expect_out(s, "m = np.arange(12).reshape(3, 4)\nprint(m.sum(axis=0), m.sum(axis=1), "
                  "m.sum())\n", "[12 15 18 21] [ 6 22 38] 66\n");
    expect_out(s, "print(m.mean(axis=0))\n", "[4. 5. 6. 7.]\n");
    /* integer and mixed typing as NumPy/Numba: int32 + int32 widens in Numba's scalar rule */
    expect_out(s, "i = np.arange(5)\nprint(i * 2, i / 2, i // 2, i % 3)\n",
               "[0 2 4 6 8] [0.  0.5 1.  1.5 2. ] [0 0 1 1 2] [0 1 2 0 1]\n");
    expect_out(s, "print(np.where(x > 2, x, -x))\n", "[-0. -1. -2.  3.  4.  5.]\n");
    /* session functions: elementwise, and whole-array calls */
    expect_out(s,
               "def rel(a, b):\n    return 2*(a - b)/(a + b)\n"
               "def total(a):\n    t = 0.0\n    for k in range(a.shape[0]):\n        t += a[k]\n"
               "    return t\n"
               "print(rel(x, z)[1:4], total(x), total(rel(x, z)))\n",
               "[0.         0.66666667 1.        ] 15.0 2.1999999999999997\n");
    expect_out(s, "x += 1\nprint(x)\n", "[1. 2. 3. 4. 5. 6.]\n");
    expect_out(s, "x[0] = 10\nx[1:3] = 0\nprint(x, x[-1], x[::2])\n",
               "[10.  0.  0.  4.  5.  6.] 6.0 [10.  0.  5.]\n");
    expect_out(s, "n = 0\nfor k in range(10):\n    if k % 2 == 0:\n        continue\n"
                  "    n += k\nprint(n)\n", "25\n");
    expect_out(s, "q = x.astype(np.float32)\nprint(q.dtype, (q * 2).dtype, (q * 2.0).dtype)\n",
               "float32 float64 float64\n");
    nj_session_free(s);
}

static void test_errors(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    nj_session_set_echo(s, true);
    NjStatus st;
    run(s, "x = np.arange(3.0)\n", &st);
    expect_err(s, "y = x + flag\n", "<stdin>:2:9: error: name 'flag' is not defined");
    expect_err(s, "y = x +* 2\n", "<stdin>:3:8: error:");
    expect_err(s, "y = x +* 2\n", "    4 | y = x +* 2\n      |        ^");
    expect_err(s, "1/0\n", "ZeroDivisionError");
    expect_err(s, "with x:\n    pass\n", "not supported");
    expect_err(s, "import os\n", "module 'os' is not available");
    expect_err(s, "np.arange(3) @ np.arange(3)\n", "operator '@' is not supported");
    /* the session survives errors */
    expect_out(s, "x * 2\n", "array([0., 2., 4.])\n");
    /* a type error in a fused expression points at the user's operator */
    run(s, "b = np.array([True, False, True])\n", &st);
    expect_err(s, "c = x << b\n", "c = x << b");
    /* operands that do not broadcast: the user's expression, not the synthesized function */
    run(s, "w = np.arange(4.0)\n", &st);
    expect_err(s, "c = x + w\n", "<stdin>:14:5: error: ValueError: operands could not be "
               "broadcast together with shapes (3,) (4,)\n   14 | c = x + w\n      |     ^~~~~");
    expect_err(s, "x += w\n", "<stdin>:15:1: error: ValueError: operands could not be broadcast");
    expect_err(s, "print(np.sin(x) + w)\n", "<stdin>:16:7: error: ValueError:");
    const char *msg = nj_error_message(ctx);
    CHECK(!strstr(msg, "__nj"), "an internal name in: %s", msg);
    nj_session_free(s);
}

/* Every library call of the session is bound to its signature: a missing, extra, unknown or
 * repeated argument, or one of the wrong type, is a located error that shows the signature
 * (np.empty_like() and x.fill() used to crash, np.arange() to give an empty array). */
static void test_library_arity(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    NjStatus st;
    run(s, "x = np.arange(3.0)\n", &st);
    static const struct { const char *src, *want; } cases[] = {
        {"np.arange()\n", "<stdin>:2:1: error: TypeError: np.arange() missing required argument "
                          "'start'"},
        {"np.linspace()\n", "np.linspace() missing required argument 'start'"},
        {"np.linspace(0)\n", "np.linspace() missing required argument 'stop'"},
        {"x.astype()\n", "ndarray.astype() missing required argument 'dtype'"},
        {"np.empty_like()\n", "np.empty_like() missing required argument 'prototype'"},
        {"np.zeros_like()\n", "np.zeros_like() missing required argument 'a'"},
        {"np.ones_like()\n", "np.ones_like() missing required argument 'a'"},
        {"np.full_like()\n", "np.full_like() missing required argument 'a'"},
        {"np.full_like(x)\n", "np.full_like() missing required argument 'fill_value'"},
        {"np.copy()\n", "np.copy() missing required argument 'a'"},
        {"x.fill()\n", "ndarray.fill() missing required argument 'value'"},
        {"np.zeros()\n", "note: the signature is np.zeros(shape, dtype=float, order='C', *, like=None)"},
        {"np.full(3)\n", "np.full() missing required argument 'fill_value'"},
        {"np.array()\n", "np.array() missing required argument 'object'"},
        {"np.load()\n", "np.load() missing required argument 'file'"},
        {"np.save('a.npy')\n", "np.save() missing required argument 'arr'"},
        {"np.sum()\n", "np.sum() missing required argument 'a'"},
        {"len()\n", "len() missing required argument 'obj'"},
        {"x.reshape()\n", "ndarray.reshape() takes at least 1 argument (0 given)"},
        {"np.zeros(3, float, 'C', 5)\n", "<stdin>:21:25: error: TypeError: np.zeros() takes at most 3 "
                                         "arguments (4 given)"},
        {"np.random.uniform(1, 2, 3, 4)\n", "np.random.uniform() takes at most 3 arguments"},
        {"x.sum(0, 1)\n", ":23:10: error: ndarray.sum() argument 'dtype' is not supported by numjit"},
        {"(x + 1).mean(0, 1, None, None, 0, 0)\n", "ndarray.mean() takes at most 4 arguments (6 given)"},
        {"x.copy('F')\n", "ndarray.copy() argument 'order' is not supported by numjit"},
        {"np.zeros(shap=3)\n", "np.zeros() got an unexpected keyword argument 'shap'"},
        {"np.zeros(3, shape=4)\n", "np.zeros() got multiple values for argument 'shape'"},
        {"np.random.default_rng(1).normal(0, 1, 2, 3)\n", "np.random.normal() takes at most 3"},
        {"np.full_like(x, x)\n", ":29:17: error: the fill value must be a number"},
        {"x.fill('a')\n", "ndarray.fill(value)"},
        {"np.empty_like(3)\n", "note: the signature is np.empty_like(prototype, dtype=None, order='K'"},
        {"np.linspace(0, 1, 'a')\n", "expected a real number\n"},
        {"np.zeros(np.arange())\n", ":33:10: error: TypeError: np.arange() missing"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect_err(s, cases[i].src, cases[i].want);
    /* what binds still runs */
    expect_out(s, "print(np.arange(3), np.arange(1, 3), np.linspace(0, 1, num=3), "
                  "x.astype(np.int32), np.full_like(x, 7), np.zeros(shape=2))\n",
               "[0 1 2] [1 2] [0.  0.5 1. ] [0 1 2] [7. 7. 7.] [0. 0.]\n");
    expect_out(s, "x.fill(value=2)\nprint(x, len(x), x.sum(), x.reshape(3, 1).shape)\n",
               "[2. 2. 2.] 3 6.0 (3, 1)\n");
    nj_session_free(s);
}

/* nj_session_interrupt (what the CLI's SIGINT handler calls) stops an endless top-level loop
 * at a statement boundary; the session keeps what ran and goes on. */
static void *interrupt_later(void *p) {
    struct timespec t = {0, 300 * 1000 * 1000};
    nanosleep(&t, NULL);
    nj_session_interrupt(p);
    return NULL;
}

static void test_interrupt(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    pthread_t th;
    pthread_create(&th, NULL, interrupt_later, s);
    NjStatus st;
    run(s, "n = 0\nwhile True:\n    n += 1\n", &st);
    pthread_join(th, NULL);
    CHECK(st == NJ_ERR_RUNTIME, "an interrupted loop returns NJ_ERR_RUNTIME, got %d", (int)st);
    CHECK(strstr(nj_error_message(ctx), "<stdin>:3:5: error: KeyboardInterrupt\n    3 |     n += 1"),
          "got: %s", nj_error_message(ctx));
    expect_out(s, "print(n > 1000)\n", "True\n");
    /* a request made between chunks stops the next one's first statement, and only that */
    nj_session_interrupt(s);
    expect_err(s, "print(1)\n", "<stdin>:5:1: error: KeyboardInterrupt");
    expect_out(s, "print(2)\n", "2\n");
    nj_session_free(s);
}

static void test_npy_and_random(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    char path[64];
    snprintf(path, sizeof path, "/tmp/nj_session_%d.npy", (int)getpid());
    char src[512];
    snprintf(src, sizeof src,
             "a = np.arange(12, dtype=np.int32).reshape(3, 4)\nnp.save('%s', a)\n"
             "b = np.load('%s')\nprint(b.dtype, b.shape, (b == a).sum())\n", path, path);
    expect_out(s, src, "int32 (3, 4) 12\n");
    unlink(path);
    expect_out(s,
               "r = np.random.uniform(0, 1, 1000000, seed=7)\n"
               "print(round(r.mean(), 2), r.min() >= 0, r.max() < 1)\n"
               "g = np.random.default_rng(3).normal(0, 1, 1000000)\n"
               "print(abs(round(g.mean(), 2)), round((g * g).mean(), 1))\n",
               "0.5 True True\n0.0 1.0\n");
    nj_session_free(s);
}

static void test_commands(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    NjStatus st;
    run(s, "x = np.arange(4.0)\ndef f(a, b):\n    return a * b + 1.0\n\ny = f(x, 2.0)\n", &st);
    CHECK(st == NJ_OK, "setup: %s", nj_error_message(ctx));
    char *out = NULL;
    st = nj_session_command(s, ":type x * 2", &out);
    CHECK(st == NJ_OK && out && strstr(out, "array(float64, 1d, C)"), ":type: %s", out ? out : nj_error_message(ctx));
    nj_free_string(out);
    st = nj_session_command(s, ":ir f", &out);
    CHECK(st == NJ_OK && out && strstr(out, "func @f"), ":ir: %s", out ? out : nj_error_message(ctx));
    nj_free_string(out);
    st = nj_session_command(s, ":ir", &out); /* the last fused expression */
    CHECK(st == NJ_OK && out && strstr(out, "__nj_e"), ":ir (last): %s", out ? out : nj_error_message(ctx));
    nj_free_string(out);
    st = nj_session_command(s, ":ptx f(float32, float32)", &out);
    CHECK(st == NJ_OK && out && strstr(out, ".visible .func") && strstr(out, "mul.rn.f32"),
          ":ptx: %s", out ? out : nj_error_message(ctx));
    nj_free_string(out);
    st = nj_session_command(s, ":llvm f", &out);
    CHECK(st == NJ_OK && out && strstr(out, "define"), ":llvm: %s", out ? out : nj_error_message(ctx));
    nj_free_string(out);
    st = nj_session_command(s, ":time y = f(x, 3.0)", &out);
    CHECK(st == NJ_OK && out && strstr(out, "median"), ":time: %s", out ? out : nj_error_message(ctx));
    nj_free_string(out);
    st = nj_session_command(s, ":target parallel", &out);
    CHECK(st == NJ_OK, ":target parallel: %s", nj_error_message(ctx));
    nj_free_string(out);
    expect_out(s, "print(f(x, 2.0))\n", "[1. 3. 5. 7.]\n");
    st = nj_session_command(s, ":nonsense", &out);
    CHECK(st != NJ_OK, ":nonsense accepted");
    char **list;
    int n = nj_session_complete(s, "np.li", &list);
    CHECK(n == 1 && !strcmp(list[0], "np.linspace"), "completion of np.li: %d", n);
    nj_session_free_completions(list, n);
    n = nj_session_complete(s, ":ty", &list);
    CHECK(n == 1 && !strcmp(list[0], ":type"), "completion of :ty");
    nj_session_free_completions(list, n);
    n = nj_session_complete(s, "f", &list);
    bool found = false;
    for (int i = 0; i < n; i++)
        found |= !strcmp(list[i], "f");
    CHECK(found, "completion of session function f");
    nj_session_free_completions(list, n);
    nj_session_free(s);
}

/* Compile time of new expression shapes, and the fused loop against the same ufunc. */
static void test_speed(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    NjStatus st;
    run(s, "x = np.random.uniform(0, 1, 10**7, seed=1)\nz = np.random.uniform(1, 2, 10**7, seed=2)\n"
           "y = x + z\n", &st);
    CHECK(st == NJ_OK, "setup: %s", nj_error_message(ctx));
    static const char *const shapes[] = {"c = 2*(a - b)/(a + b)\n", "c = a*b - 3.0*a\n",
                                         "c = (a + 1.5)*(b - 0.5)/b\n", "c = np.sqrt(a*a + b*b)\n",
                                         "c = (a - b)*(a + b) + 1.0\n"};
    double best = 1e9, total = 0;
    int k = (int)(sizeof shapes / sizeof *shapes);
    run(s, "a = np.ones(4)\nb = np.ones(4)\nc = a * b\n", &st); /* warm the JIT */
    for (int i = 0; i < k; i++) { /* new shapes on tiny arrays: almost all compile time */
        double t0 = now_ms();
        run(s, shapes[i], &st);
        double t = now_ms() - t0;
        CHECK(st == NJ_OK, "%s: %s", shapes[i], nj_error_message(ctx));
        total += t;
        if (t < best)
            best = t;
    }
    printf("first evaluation of a new expression shape (compile + run on 4 elements): "
           "best %.2f ms, mean %.2f ms over %d shapes\n", best, total / k, k);
    /* run time: fused expression vs the ufunc of the same function, 10^7 float64 */
    char *out = NULL;
    st = nj_session_command(s, ":time y = 2*(x - z)/(x + z)", &out);
    CHECK(st == NJ_OK, ":time: %s", nj_error_message(ctx));
    printf("session  y = 2*(x - z)/(x + z), 10^7 float64: %s", out ? out : "?\n");
    nj_free_string(out);
    NjModule *m;
    NjUfunc *u;
    const char *sigs[] = {"float64(float64, float64)"};
    st = nj_compile_source(ctx, "v.py", "def rel(a, b):\n    return 2*(a - b)/(a + b)\n", &m);
    if (!st)
        st = nj_ufunc_new(m, "rel", sigs, 1, NULL, NJ_TARGET_CPU, &u);
    CHECK(st == NJ_OK, "ufunc: %s", nj_error_message(ctx));
    NjValue xv, zv;
    nj_session_get(s, "x", &xv);
    nj_session_get(s, "z", &zv);
    NjArray ins[2] = {*xv.v.a, *zv.v.a}, outs[1];
    memset(outs, 0, sizeof outs);
    nj_ufunc_call(u, ins, 2, outs, 1); /* warm, allocates once */
    double ts[21];
    for (int i = 0; i < 21; i++) {
        double t0 = now_ms();
        nj_ufunc_call(u, ins, 2, outs, 1);
        ts[i] = now_ms() - t0;
    }
    for (int i = 0; i < 21; i++)
        for (int j = i + 1; j < 21; j++)
            if (ts[j] < ts[i]) {
                double t = ts[i];
                ts[i] = ts[j];
                ts[j] = t;
            }
    printf("ufunc    rel(x, z, out=y) (the @vectorize equivalent): median %.3f ms, min %.3f ms\n",
           ts[10], ts[0]);
    nj_array_free(outs);
    nj_session_free(s);
}

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A long session costs the same per statement at its end as at its start (each chunk used to
 * be lexed after as many blank lines as the session had, and the defs' module was rebuilt for
 * every array expression), and a top-level loop of scalar statements runs at interpreter speed
 * (CPython: ~0.2 us an iteration of `t += i`; it was ~2 us).  CPU time, loose bounds. */
static void test_scale(void) {
    NjSession *s;
    nj_session_new(ctx, NJ_TARGET_CPU, &s);
    NjStatus st;
    run(s, "def twice(v):\n    return 2 * v\n", &st);
    run(s, "a = np.ones(8)\nb = a * 1.5\n", &st);
    CHECK(st == NJ_OK, "setup: %s", nj_error_message(ctx));
    enum { N = 12000, Q = N / 4 };
    double t_first = 0, t_last = 0, t0;
    for (int i = 0; i < N; i++) {
        char line[64];
        if (i % 100 == 0)
            snprintf(line, sizeof line, "b = a * 1.5 + %d\n", i % 3);
        else
            snprintf(line, sizeof line, "v%d = %d\n", i % 50, i);
        t0 = cpu_ms();
        run(s, line, &st);
        double t = cpu_ms() - t0;
        CHECK(st == NJ_OK, "%s: %s", line, nj_error_message(ctx));
        if (st)
            break;
        if (i % 100 == 0) /* the array expressions are checked below */
            continue;
        if (i < Q)
            t_first += t;
        else if (i >= N - Q)
            t_last += t;
    }
    printf("a session of %d chunks: first quarter %.1f ms, last quarter %.1f ms\n", N, t_first,
           t_last);
    CHECK(t_last < 2.5 * t_first + 20, "statements get slower as the session grows: first "
          "quarter %.1f ms, last %.1f ms", t_first, t_last);
    /* an array expression seen before runs its cached loop: the defs' module is not rebuilt */
    t0 = cpu_ms();
    for (int i = 0; i < 200; i++)
        run(s, "b = a * 1.5 + 1\n", &st);
    double per_expr = (cpu_ms() - t0) / 200;
    printf("a cached array expression late in the session: %.3f ms\n", per_expr);
    CHECK(per_expr < 0.5 * SLOW, "a cached array expression takes %.3f ms", per_expr);
    expect_err(s, "v1 = nope\n", "<stdin>:12205:6: error: name 'nope' is not defined");
    t0 = cpu_ms();
    expect_out(s, "t = 0\nfor i in range(300000):\n    t += i\nprint(t)\n", "44999850000\n");
    double per = (cpu_ms() - t0) * 1e3 / 300000;
    printf("top-level loop `t += i`: %.3f us an iteration\n", per);
    CHECK(per < 0.8 * SLOW, "a top-level loop takes %.3f us an iteration", per);
    nj_session_free(s);
}

int main(void) {
    if (nj_context_new(&ctx)) {
        fprintf(stderr, "no context\n");
        return 1;
    }
    test_printing();
    test_expressions();
    test_errors();
    test_library_arity();
    test_interrupt();
    test_npy_and_random();
    test_commands();
    test_scale();
    if (!getenv("NUMJIT_SKIP_SPEED"))
        test_speed();
    nj_context_free(ctx);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
