/* test_ufunc.c — ufuncs and gufuncs on the CPU.
 *
 * Part 1 drives the executor (runtime/ufunc_exec.c) with hand-written C inner loops, so
 * broadcasting, strides, output allocation, out= checks, reduce and threads are tested apart
 * from code generation.  Part 2 goes through the public API end to end: a module with
 * @vectorize / @guvectorize functions, signatures picked in order with 'safe' casting, dynamic
 * ufuncs, boolean outputs, gufuncs with scalar inputs, reduce, 'parallel' against 'cpu', and
 * several threads compiling and calling one ufunc at once.
 */
#include "runtime/runtime.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

#define AT(a, T, ...) (*(T *)elem(a, (int64_t[]){__VA_ARGS__}))
static void *elem(const NjArray *a, const int64_t *idx) {
    char *p = a->data;
    for (int d = 0; d < a->ndim; d++)
        p += idx[d] * a->strides[d];
    return p;
}

/* ---- part 1: the executor with hand-written loops ------------------------------------------- */
static void loop_add_f64(char **args, const int64_t *dims, const int64_t *steps, void *data) {
    char *a = args[0], *b = args[1], *o = args[2];
    for (int64_t i = 0; i < dims[0]; i++, a += steps[0], b += steps[1], o += steps[2])
        *(double *)o = *(double *)a + *(double *)b;
}

static void loop_sub_f64(char **args, const int64_t *dims, const int64_t *steps, void *data) {
    char *a = args[0], *b = args[1], *o = args[2];
    for (int64_t i = 0; i < dims[0]; i++, a += steps[0], b += steps[1], o += steps[2])
        *(double *)o = *(double *)a - *(double *)b;
}

static const RtLoop ADD = {.fn = loop_add_f64, .nin = 2, .nout = 1,
                           .dtypes = {NJ_FLOAT64, NJ_FLOAT64, NJ_FLOAT64}};
static const RtLoop SUB = {.fn = loop_sub_f64, .nin = 2, .nout = 1,
                           .dtypes = {NJ_FLOAT64, NJ_FLOAT64, NJ_FLOAT64}};

/* (n),(n)->() dot, hand-written: dims[1] = n, steps[3..5] core strides. */
static void loop_dot(char **args, const int64_t *dims, const int64_t *steps, void *data) {
    for (int64_t i = 0; i < dims[0]; i++) {
        double s = 0;
        for (int64_t k = 0; k < dims[1]; k++)
            s += *(double *)(args[0] + i * steps[0] + k * steps[3]) *
                 *(double *)(args[1] + i * steps[1] + k * steps[4]);
        *(double *)(args[2] + i * steps[2]) = s;
    }
}

static void test_executor(NjContext *ctx) {
    double a[12], b[4], s = 100;
    for (int i = 0; i < 12; i++)
        a[i] = i;
    for (int i = 0; i < 4; i++)
        b[i] = 10 * (i + 1);
    /* 2-D against 1-D */
    NjArray ins[2] = {nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){3, 4}),
                      nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){4})};
    NjArray out = {0};
    NjStatus st = rt_uf_exec(ctx, "add", &ADD, ins, &out, false, false);
    CHECK(!st && out.ndim == 2 && out.shape[0] == 3 && out.shape[1] == 4, "2-D + 1-D: %s",
          nj_error_message(ctx));
    bool ok = true;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            ok &= AT(&out, double, i, j) == a[i * 4 + j] + b[j];
    CHECK(ok, "2-D + 1-D values");
    nj_array_free(&out);
    /* 0-d input */
    ins[1] = nj_array_c(&s, NJ_FLOAT64, 0, NULL);
    st = rt_uf_exec(ctx, "add", &ADD, ins, &out, false, false);
    CHECK(!st && out.ndim == 2 && AT(&out, double, 2, 3) == 111, "0-d input");
    nj_array_free(&out);
    /* both 0-d */
    NjArray z[2] = {nj_array_c(&s, NJ_FLOAT64, 0, NULL), nj_array_c(&s, NJ_FLOAT64, 0, NULL)};
    st = rt_uf_exec(ctx, "add", &ADD, z, &out, false, false);
    CHECK(!st && out.ndim == 0 && *(double *)out.data == 200, "0-d + 0-d");
    nj_array_free(&out);
    /* size-1 dims: (3,1) - (1,4) -> (3,4) */
    double col[3] = {1, 2, 3}, row[4] = {10, 20, 30, 40};
    NjArray cr[2] = {nj_array_c(col, NJ_FLOAT64, 2, (int64_t[]){3, 1}),
                     nj_array_c(row, NJ_FLOAT64, 2, (int64_t[]){1, 4})};
    st = rt_uf_exec(ctx, "sub", &SUB, cr, &out, false, false);
    CHECK(!st && out.shape[0] == 3 && out.shape[1] == 4 && AT(&out, double, 2, 1) == 3 - 20,
          "outer broadcast");
    nj_array_free(&out);
    /* negative and zero strides: a reversed view, and a stride-0 "row" */
    NjArray rev = nj_array_c(a + 11, NJ_FLOAT64, 1, (int64_t[]){12});
    rev.strides[0] = -8;
    NjArray zero = nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){12});
    zero.strides[0] = 0;
    NjArray rz[2] = {rev, zero};
    st = rt_uf_exec(ctx, "add", &ADD, rz, &out, false, false);
    ok = !st;
    for (int i = 0; ok && i < 12; i++)
        ok = ((double *)out.data)[i] == a[11 - i] + b[0];
    CHECK(ok, "negative and zero strides");
    nj_array_free(&out);
    /* F-ordered inputs give an F-ordered output (NumPy's order 'K') */
    NjArray f1 = nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){3, 4});
    f1.strides[0] = 8;
    f1.strides[1] = 24;
    NjArray ff[2] = {f1, f1};
    st = rt_uf_exec(ctx, "add", &ADD, ff, &out, false, false);
    CHECK(!st && out.strides[0] == 8 && out.strides[1] == 24, "F order out: strides %lld %lld",
          (long long)out.strides[0], (long long)out.strides[1]);
    CHECK(AT(&out, double, 1, 2) == 2 * a[1 + 2 * 3], "F order values");
    nj_array_free(&out);
    /* a 3-D non-contiguous view (every other element of the last axis) */
    double big[2 * 3 * 8];
    for (int i = 0; i < 48; i++)
        big[i] = i;
    NjArray v = nj_array_c(big, NJ_FLOAT64, 3, (int64_t[]){2, 3, 4});
    v.strides[0] = 3 * 8 * 8;
    v.strides[1] = 8 * 8;
    v.strides[2] = 16;
    NjArray vv[2] = {v, nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){4})};
    st = rt_uf_exec(ctx, "add", &ADD, vv, &out, false, false);
    CHECK(!st && AT(&out, double, 1, 2, 3) == big[24 + 16 + 6] + b[3], "strided 3-D view");
    nj_array_free(&out);
    /* out= given: wrong shape, then right */
    double o[12];
    NjArray given = nj_array_c(o, NJ_FLOAT64, 1, (int64_t[]){12});
    ins[1] = nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){4});
    st = rt_uf_exec(ctx, "add", &ADD, ins, &given, false, false);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "(12,)") &&
              strstr(nj_error_message(ctx), "(3, 4)"),
          "out= wrong shape: %s", nj_error_message(ctx));
    given = nj_array_c(o, NJ_FLOAT64, 2, (int64_t[]){3, 4});
    st = rt_uf_exec(ctx, "add", &ADD, ins, &given, false, false);
    CHECK(!st && o[5] == a[5] + b[1], "out= given");
    NjArray gi32 = nj_array_c(o, NJ_INT32, 2, (int64_t[]){3, 4});
    st = rt_uf_exec(ctx, "add", &ADD, ins, &gi32, false, false);
    CHECK(st == NJ_ERR_TYPE, "out= dtype the loop does not write");
    /* a broadcast mismatch names both shapes */
    NjArray bad[2] = {nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){3, 4}),
                      nj_array_c(a, NJ_FLOAT64, 1, (int64_t[]){5})};
    out.data = NULL;
    st = rt_uf_exec(ctx, "add", &ADD, bad, &out, false, false);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "(3, 4) (5,)") && !out.data,
          "broadcast error: %s", nj_error_message(ctx));
    /* zero-size */
    NjArray e[2] = {nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){0, 4}), ins[1]};
    st = rt_uf_exec(ctx, "add", &ADD, e, &out, false, false);
    CHECK(!st && out.shape[0] == 0 && out.shape[1] == 4, "zero-size");
    nj_array_free(&out);
    /* reduce along each axis */
    NjArray m = nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){3, 4});
    st = rt_uf_reduce_exec(ctx, "add", &ADD, &m, 0, NULL, &out);
    CHECK(!st && out.ndim == 1 && out.shape[0] == 4 && ((double *)out.data)[1] == 1 + 5 + 9,
          "reduce axis 0");
    nj_array_free(&out);
    st = rt_uf_reduce_exec(ctx, "add", &ADD, &m, -1, NULL, &out);
    CHECK(!st && out.shape[0] == 3 && ((double *)out.data)[2] == 8 + 9 + 10 + 11, "reduce axis -1");
    nj_array_free(&out);
    st = rt_uf_reduce_exec(ctx, "sub", &SUB, &m, 1, NULL, &out);
    CHECK(!st && ((double *)out.data)[1] == 4 - 5 - 6 - 7, "reduce keeps the order");
    nj_array_free(&out);
    st = rt_uf_reduce_exec(ctx, "add", &ADD, &m, 2, NULL, &out);
    CHECK(st == NJ_ERR_ARGS, "reduce axis out of bounds");
    NjArray empty = nj_array_c(a, NJ_FLOAT64, 1, (int64_t[]){0});
    NjValue zero_v = nj_f64(0);
    st = rt_uf_reduce_exec(ctx, "add", &ADD, &empty, 0, NULL, &out);
    CHECK(st == NJ_ERR_ARGS, "empty reduce without identity");
    st = rt_uf_reduce_exec(ctx, "add", &ADD, &empty, 0, &zero_v, &out);
    CHECK(!st && out.ndim == 0 && *(double *)out.data == 0, "empty reduce with identity");
    nj_array_free(&out);
    /* a hand-written gufunc loop: (n),(n)->() over broadcast outer dims */
    static const char *names[] = {"n"};
    RtLoop dot = {.fn = loop_dot, .nin = 2, .nout = 1, .gufunc = true, .ncore = 1,
                  .dtypes = {NJ_FLOAT64, NJ_FLOAT64, NJ_FLOAT64}, .core_n = {1, 1, 0},
                  .param_nd = {1, 1, 1}, .core_names = names};
    NjArray gi[2] = {nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){3, 4}),
                     nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){4})};
    st = rt_uf_exec(ctx, "dot", &dot, gi, &out, false, false);
    CHECK(!st && out.ndim == 1 && out.shape[0] == 3 &&
              ((double *)out.data)[1] == 4 * 10 + 5 * 20 + 6 * 30 + 7 * 40,
          "gufunc executor: %s", nj_error_message(ctx));
    nj_array_free(&out);
    gi[1] = nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){3});
    st = rt_uf_exec(ctx, "dot", &dot, gi, &out, false, false);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "'n'"), "core dim mismatch: %s",
          nj_error_message(ctx));
    /* back to back on two threads: short parallel runs while the pool polls (a gufunc's work
     * counts its core), each equal to the serial result */
    enum { ROWS = 1500, K = 64 };
    double *gx = malloc(sizeof(double) * ROWS * K);
    for (int i = 0; i < ROWS * K; i++)
        gx[i] = (double)(i % 101) * 0.25;
    NjArray gb[2] = {nj_array_c(gx, NJ_FLOAT64, 2, (int64_t[]){ROWS, K}),
                     nj_array_c(gx, NJ_FLOAT64, 1, (int64_t[]){K})};
    NjArray want = {0}, got = {0};
    st = rt_uf_exec(ctx, "dot", &dot, gb, &want, false, false);
    nj_set_num_threads(2);
    bool same = !st;
    for (int r = 0; r < 300 && same; r++) {
        same = !rt_uf_exec(ctx, "dot", &dot, gb, &got, true, false) &&
               !memcmp(got.data, want.data, sizeof(double) * ROWS);
        nj_array_free(&got);
    }
    nj_set_num_threads(0);
    CHECK(same, "parallel gufunc back to back == serial");
    nj_array_free(&want);
    free(gx);
}

/* Parallel execution agrees with serial, over sizes around the chunk boundaries. */
static void test_executor_threads(NjContext *ctx) {
    int64_t n = 300001;
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = (double)i;
        y[i] = (double)(i % 97);
    }
    int save = nj_get_num_threads();
    for (int t = 1; t <= 4; t++) {
        nj_set_num_threads(t);
        CHECK(nj_get_num_threads() == t, "set threads");
        for (int shape_kind = 0; shape_kind < 2; shape_kind++) {
            NjArray in[2], p = {0}, s = {0};
            if (shape_kind == 0) {
                in[0] = nj_array_c(x, NJ_FLOAT64, 1, (int64_t[]){n});
                in[1] = nj_array_c(y, NJ_FLOAT64, 1, (int64_t[]){n});
            } else { /* 2-D, rows not a multiple of a cache line, and a strided row */
                in[0] = nj_array_c(x, NJ_FLOAT64, 2, (int64_t[]){1000, 150});
                in[1] = nj_array_c(y, NJ_FLOAT64, 2, (int64_t[]){1000, 150});
                in[1].strides[0] = 2400;
                in[1].strides[1] = 16;
            }
            NjStatus st1 = rt_uf_exec(ctx, "add", &ADD, in, &p, true, false);
            NjStatus st2 = rt_uf_exec(ctx, "add", &ADD, in, &s, false, false);
            int64_t total = shape_kind ? 150000 : n;
            CHECK(!st1 && !st2 && !memcmp(p.data, s.data, sizeof(double) * (size_t)total),
                  "parallel == serial (threads %d, case %d)", t, shape_kind);
            nj_array_free(&p);
            nj_array_free(&s);
        }
    }
    nj_set_num_threads(0);
    CHECK(nj_get_num_threads() == save, "threads back to default");
    free(x);
    free(y);
}

/* ---- part 2: the public API end to end --------------------------------------------------------- */
static const char *SRC =
    "import math\n"
    "from numba import vectorize, guvectorize\n"
    "\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'])\n"
    "def rel_diff(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'], target='parallel')\n"
    "def rel_diff_par(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "@vectorize(['int64(int64, int64)', 'float64(float64, float64)'])\n"
    "def add(x, y):\n"
    "    return x + y\n"
    "\n"
    "@vectorize(['float32(float32, float32)'])\n"
    "def add32(x, y):\n"
    "    return x + y\n"
    "\n"
    "@vectorize\n"
    "def dyn(x, y):\n"
    "    return x * y + 1\n"
    "\n"
    "@vectorize(['boolean(float64, float64)'])\n"
    "def greater(x, y):\n"
    "    return x > y\n"
    "\n"
    "@vectorize(['int64(int64)'])\n"
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
    "@vectorize(['float64(float64)'])\n"
    "def sincos(x):\n"
    "    return math.sin(x) ** 2 + math.cos(x) ** 2\n"
    "\n"
    "@vectorize(['float64(float64, float64)'], identity=0)\n"
    "def vadd(x, y):\n"
    "    return x + y\n"
    "\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n),(n)->()')\n"
    "def dot(a, b, out):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i] * b[i]\n"
    "    out[0] = s\n"
    "\n"
    "@guvectorize(['void(float64[:, :], float64[:, :], float64[:, :])'], '(m,n),(n,p)->(m,p)')\n"
    "def matmul(a, b, out):\n"
    "    for i in range(a.shape[0]):\n"
    "        for j in range(b.shape[1]):\n"
    "            s = 0.0\n"
    "            for k in range(a.shape[1]):\n"
    "                s += a[i, k] * b[k, j]\n"
    "            out[i, j] = s\n"
    "\n"
    "@guvectorize(['void(float64[:], float64, float64[:])'], '(n),()->(n)', target='parallel')\n"
    "def scale(a, s, out):\n"
    "    for i in range(a.shape[0]):\n"
    "        out[i] = a[i] * s\n";

static NjUfunc *get(NjModule *m, const char *name) {
    NjUfunc *u = NULL;
    NjStatus st = nj_module_ufunc(m, name, &u);
    CHECK(!st && u, "nj_module_ufunc(%s): %s", name, nj_error_message(m->ctx));
    return u;
}

static void test_vectorize(NjContext *ctx, NjModule *m) {
    NjUfunc *u = get(m, "rel_diff");
    if (!u)
        return;
    NjUfunc *again = NULL;
    nj_module_ufunc(m, "rel_diff", &again);
    CHECK(again == u && nj_ufunc_nin(u) == 2 && nj_ufunc_nout(u) == 1, "one handle per function");
    double x[6] = {1, 2, 3, 4, 5, 6}, y[3] = {1, 1, 2};
    NjArray in[2] = {nj_array_c(x, NJ_FLOAT64, 2, (int64_t[]){2, 3}),
                     nj_array_c(y, NJ_FLOAT64, 1, (int64_t[]){3})};
    NjArray out = {0};
    NjStatus st = nj_ufunc_call(u, in, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_FLOAT64 && out.ndim == 2, "rel_diff 2-D x 1-D: %s",
          nj_error_message(ctx));
    CHECK(!st && fabs(AT(&out, double, 1, 2) - 2.0 * (6 - 2) / 8) < 1e-15, "rel_diff value");
    nj_array_free(&out);
    /* float32 casts safely to the first signature, float64 (as NumPy and Numba) */
    float xf[4] = {1, 2, 3, 4}, yf[4] = {4, 3, 2, 1};
    NjArray f32[2] = {nj_array_c(xf, NJ_FLOAT32, 1, (int64_t[]){4}),
                      nj_array_c(yf, NJ_FLOAT32, 1, (int64_t[]){4})};
    st = nj_ufunc_call(u, f32, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_FLOAT64 && ((double *)out.data)[0] == 2.0 * -3 / 5,
          "float32 -> float64 loop: %s", nj_dtype_name(out.dtype));
    nj_array_free(&out);
    /* int32 inputs cast to the float64 loop, without a copy */
    int32_t xi[4] = {1, 2, 3, 4}, yi[4] = {3, 3, 3, 3};
    NjArray i32[2] = {nj_array_c(xi, NJ_INT32, 1, (int64_t[]){4}),
                      nj_array_c(yi, NJ_INT32, 1, (int64_t[]){4})};
    st = nj_ufunc_call(u, i32, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_FLOAT64 && ((double *)out.data)[3] == 2.0 * 1 / 7,
          "int32 -> float64 loop: %s", nj_error_message(ctx));
    nj_array_free(&out);
    /* the loop itself (nj_ufunc_loop), called as NumPy's inner loops are: int32 inputs are
     * read as they are, the output is the float64 of the loop; a stride of 0 broadcasts */
    {
        NjDType dts[3] = {NJ_INT32, NJ_INT32, NJ_DTYPE_COUNT};
        NjUfuncLoop fn = NULL;
        void *data = NULL;
        st = nj_ufunc_loop(u, dts, 3, &fn, &data);
        CHECK(!st && fn && dts[2] == NJ_FLOAT64, "nj_ufunc_loop: %s", nj_error_message(ctx));
        double o[4] = {0};
        char *args[3] = {(char *)xi, (char *)yi, (char *)o};
        int64_t n = 4, steps[3] = {4, 0, 8};
        if (fn)
            fn(args, &n, steps, data);
        CHECK(o[0] == 2.0 * (1 - 3) / 4 && o[3] == 2.0 * 1 / 7, "nj_ufunc_loop values");
        NjDType bad[2] = {NJ_FLOAT64, NJ_DTYPE_COUNT};
        CHECK(nj_ufunc_loop(u, bad, 2, &fn, &data) == NJ_ERR_ARGS, "nj_ufunc_loop: count");
    }
    /* mixed int32 / float32: int32 is not safe to float32 → float64 */
    NjArray mixed[2] = {i32[0], f32[1]};
    st = nj_ufunc_call(u, mixed, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_FLOAT64, "int32 + float32 -> float64 loop");
    nj_array_free(&out);
    /* out= of float32 for a float64 loop: 'same_kind' allows it */
    float of[4];
    NjArray o32 = nj_array_c(of, NJ_FLOAT32, 1, (int64_t[]){4});
    st = nj_ufunc_call(u, i32, 2, &o32, 1);
    CHECK(!st && of[3] == (float)(2.0 * 1 / 7), "out= float32 from a float64 loop");
    /* out= of int32: a float result does not cast 'same_kind' */
    int32_t oi[4];
    NjArray oint = nj_array_c(oi, NJ_INT32, 1, (int64_t[]){4});
    st = nj_ufunc_call(u, i32, 2, &oint, 1);
    CHECK(st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "int32"), "out= int32: %s",
          nj_error_message(ctx));
    /* out= wrong shape */
    double o5[5];
    NjArray ow = nj_array_c(o5, NJ_FLOAT64, 1, (int64_t[]){5});
    st = nj_ufunc_call(u, i32, 2, &ow, 1);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "(5,)"), "out= shape: %s",
          nj_error_message(ctx));
    /* nj_ufunc_resolve */
    NjArray ro = {0};
    st = nj_ufunc_resolve(u, in, 2, &ro, 1);
    CHECK(!st && !ro.data && ro.dtype == NJ_FLOAT64 && ro.ndim == 2 && ro.shape[1] == 3,
          "resolve");
    /* a wrong argument count */
    st = nj_ufunc_call(u, in, 1, &out, 1);
    CHECK(st == NJ_ERR_ARGS, "wrong nin");

    /* signatures in declared order */
    NjUfunc *a = get(m, "add");
    int64_t shp[1] = {4};
    int16_t s16[4] = {1, 2, 3, -4};
    NjArray i16[2] = {nj_array_c(s16, NJ_INT16, 1, shp), nj_array_c(s16, NJ_INT16, 1, shp)};
    st = nj_ufunc_call(a, i16, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_INT64 && ((int64_t *)out.data)[3] == -8, "int16 -> int64 loop");
    nj_array_free(&out);
    uint64_t u64[4] = {1, 2, 3, 4};
    NjArray mu[2] = {nj_array_c(u64, NJ_UINT64, 1, shp), nj_array_c(s16, NJ_INT16, 1, shp)};
    st = nj_ufunc_call(a, mu, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_FLOAT64 && ((double *)out.data)[3] == 0, "uint64 -> float64 loop");
    nj_array_free(&out);
    /* no signature matches */
    NjUfunc *a32 = get(m, "add32");
    int64_t i64v[4] = {1, 2, 3, 4};
    NjArray i64a[2] = {nj_array_c(i64v, NJ_INT64, 1, shp), nj_array_c(i64v, NJ_INT64, 1, shp)};
    st = nj_ufunc_call(a32, i64a, 2, &out, 1);
    CHECK(st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "int64") &&
              strstr(nj_error_message(ctx), "float32(float32, float32)"),
          "no matching signature: %s", nj_error_message(ctx));

    /* dynamic: a loop per input-type combination, unless a loop compiled earlier takes the
     * inputs safely (Numba's DUFunc: int16 after int16 reuses 'hh->l'; int8 then too) */
    NjUfunc *d = get(m, "dyn");
    st = nj_ufunc_call(d, i16, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_INT64 && ((int64_t *)out.data)[3] == 17, "dynamic int16: %s",
          nj_error_message(ctx));
    nj_array_free(&out);
    st = nj_ufunc_call(d, f32, 2, &out, 1);
    /* float32 * float32 + int64 is float64 under Numba's rules */
    CHECK(!st && out.dtype == NJ_FLOAT64 && ((double *)out.data)[1] == 7, "dynamic float32: %s",
          nj_dtype_name(out.dtype));
    nj_array_free(&out);
    int8_t s8[4] = {1, 2, 3, 4};
    NjArray i8[2] = {nj_array_c(s8, NJ_INT8, 1, shp), nj_array_c(s8, NJ_INT8, 1, shp)};
    st = nj_ufunc_call(d, i8, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_INT64 && ((int64_t *)out.data)[3] == 17,
          "dynamic int8 reuses the int16 loop: %s", nj_dtype_name(out.dtype));
    nj_array_free(&out);
    NjArray mixd[2] = {f32[0], in[1]};
    double ob[4];
    NjArray o64 = nj_array_c(ob, NJ_FLOAT64, 1, shp);
    mixd[1] = nj_array_c(x, NJ_FLOAT64, 1, shp);
    st = nj_ufunc_call(d, mixd, 2, &o64, 1);
    CHECK(!st && ob[2] == 3.0 * 3 + 1, "dynamic float32 x float64 into out=");

    /* boolean output */
    NjUfunc *g = get(m, "greater");
    double p[4] = {1, 5, 3, 7}, q[4] = {2, 2, 3, 3};
    NjArray pq[2] = {nj_array_c(p, NJ_FLOAT64, 1, shp), nj_array_c(q, NJ_FLOAT64, 1, shp)};
    st = nj_ufunc_call(g, pq, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_BOOL && !((bool *)out.data)[0] && ((bool *)out.data)[1] &&
              !((bool *)out.data)[2] && ((bool *)out.data)[3],
          "boolean output");
    nj_array_free(&out);

    /* branches and loops inside; math */
    NjUfunc *c = get(m, "collatz");
    int64_t cn[5] = {1, 2, 3, 6, 27};
    NjArray ca = nj_array_c(cn, NJ_INT64, 1, (int64_t[]){5});
    st = nj_ufunc_call(c, &ca, 1, &out, 1);
    CHECK(!st && ((int64_t *)out.data)[2] == 7 && ((int64_t *)out.data)[4] == 111, "collatz");
    nj_array_free(&out);
    NjUfunc *sc = get(m, "sincos");
    double big[1000];
    for (int i = 0; i < 1000; i++)
        big[i] = i * 0.01 - 3;
    NjArray ba = nj_array_c(big, NJ_FLOAT64, 1, (int64_t[]){1000});
    st = nj_ufunc_call(sc, &ba, 1, &out, 1);
    bool ok = !st;
    for (int i = 0; ok && i < 1000; i++)
        ok = fabs(((double *)out.data)[i] - 1.0) < 1e-14;
    CHECK(ok, "sin^2 + cos^2");
    nj_array_free(&out);

    /* reduce */
    NjUfunc *va = get(m, "vadd");
    double r[6] = {1, 2, 3, 4, 5, 6};
    NjArray ra = nj_array_c(r, NJ_FLOAT64, 2, (int64_t[]){2, 3});
    st = nj_ufunc_reduce(va, &ra, 0, &out);
    CHECK(!st && out.ndim == 1 && ((double *)out.data)[2] == 9, "reduce axis 0: %s",
          nj_error_message(ctx));
    nj_array_free(&out);
    st = nj_ufunc_reduce(va, &ra, 1, &out);
    CHECK(!st && ((double *)out.data)[1] == 15, "reduce axis 1");
    nj_array_free(&out);
    int32_t ri[3] = {1, 2, 3};
    NjArray ria = nj_array_c(ri, NJ_INT32, 1, (int64_t[]){3});
    st = nj_ufunc_reduce(va, &ria, 0, &out);
    CHECK(!st && out.ndim == 0 && out.dtype == NJ_FLOAT64 && *(double *)out.data == 6,
          "reduce int32 through the float64 loop: %s", nj_error_message(ctx));
    nj_array_free(&out);
    NjArray rempty = nj_array_c(r, NJ_FLOAT64, 1, (int64_t[]){0});
    st = nj_ufunc_reduce(va, &rempty, 0, &out);
    CHECK(!st && *(double *)out.data == 0, "empty reduce gives the identity");
    nj_array_free(&out);
    st = nj_ufunc_reduce(u, &rempty, 0, &out);
    CHECK(st == NJ_ERR_ARGS, "empty reduce without an identity");
}

static void test_guvectorize(NjContext *ctx, NjModule *m) {
    NjUfunc *d = get(m, "dot");
    if (!d)
        return;
    double a[12], b[4] = {1, 2, 3, 4};
    for (int i = 0; i < 12; i++)
        a[i] = i;
    NjArray in[2] = {nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){3, 4}),
                     nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){4})};
    NjArray out = {0};
    NjStatus st = nj_ufunc_call(d, in, 2, &out, 1);
    CHECK(!st && out.ndim == 1 && out.shape[0] == 3 && ((double *)out.data)[2] == 8 + 18 + 30 + 44,
          "dot (n),(n)->(): %s", nj_error_message(ctx));
    nj_array_free(&out);
    /* a strided core dimension */
    NjArray col = nj_array_c(a, NJ_FLOAT64, 1, (int64_t[]){3});
    col.strides[0] = 32;
    NjArray in2[2] = {col, col};
    st = nj_ufunc_call(d, in2, 2, &out, 1);
    CHECK(!st && out.ndim == 0 && *(double *)out.data == 0 + 16 + 64, "dot strided core");
    nj_array_free(&out);
    in[1] = nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){3});
    st = nj_ufunc_call(d, in, 2, &out, 1);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "'n'"), "core mismatch: %s",
          nj_error_message(ctx));
    /* int inputs are converted for a gufunc */
    int32_t ai[4] = {1, 2, 3, 4};
    NjArray ii[2] = {nj_array_c(ai, NJ_INT32, 1, (int64_t[]){4}),
                     nj_array_c(b, NJ_FLOAT64, 1, (int64_t[]){4})};
    st = nj_ufunc_call(d, ii, 2, &out, 1);
    CHECK(!st && *(double *)out.data == 30, "gufunc int32 input: %s", nj_error_message(ctx));
    nj_array_free(&out);

    NjUfunc *mm = get(m, "matmul");
    double A[2 * 2 * 3], B[3 * 2];
    for (int i = 0; i < 12; i++)
        A[i] = i + 1;
    for (int i = 0; i < 6; i++)
        B[i] = i - 2;
    NjArray mi[2] = {nj_array_c(A, NJ_FLOAT64, 3, (int64_t[]){2, 2, 3}),
                     nj_array_c(B, NJ_FLOAT64, 2, (int64_t[]){3, 2})};
    st = nj_ufunc_call(mm, mi, 2, &out, 1);
    CHECK(!st && out.ndim == 3 && out.shape[0] == 2 && out.shape[1] == 2 && out.shape[2] == 2,
          "matmul shape: %s", nj_error_message(ctx));
    double want = A[6 + 3] * B[1] + A[6 + 4] * B[3] + A[6 + 5] * B[5];
    CHECK(!st && AT(&out, double, 1, 1, 1) == want, "matmul value");
    nj_array_free(&out);
    mi[1] = nj_array_c(B, NJ_FLOAT64, 2, (int64_t[]){2, 3});
    st = nj_ufunc_call(mm, mi, 2, &out, 1);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "'n'"), "matmul mismatch: %s",
          nj_error_message(ctx));

    /* (n),()->(n) with a scalar input, a 0-d one and a broadcast 1-d one */
    NjUfunc *s = get(m, "scale");
    double k = 2.5, ks[3] = {1, 2, 3};
    NjArray si[2] = {nj_array_c(a, NJ_FLOAT64, 2, (int64_t[]){3, 4}),
                     nj_array_c(&k, NJ_FLOAT64, 0, NULL)};
    st = nj_ufunc_call(s, si, 2, &out, 1);
    CHECK(!st && out.ndim == 2 && AT(&out, double, 2, 3) == 11 * 2.5, "scale by a scalar: %s",
          nj_error_message(ctx));
    nj_array_free(&out);
    NjArray col3 = nj_array_c(ks, NJ_FLOAT64, 2, (int64_t[]){3, 1});
    col3.ndim = 1; /* shape (3,): one scalar per row */
    si[1] = col3;
    st = nj_ufunc_call(s, si, 2, &out, 1);
    CHECK(!st && AT(&out, double, 2, 1) == 9 * 3.0, "scale by a vector of scalars: %s",
          nj_error_message(ctx));
    nj_array_free(&out);
}

/* 'parallel' gives 'cpu''s results. */
static void test_parallel(NjContext *ctx, NjModule *m) {
    NjUfunc *c = get(m, "rel_diff"), *p = get(m, "rel_diff_par");
    if (!c || !p)
        return;
    int64_t n = 200003;
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = 1 + (double)(i % 13);
        y[i] = 0.5 + (double)(i % 7);
    }
    nj_set_num_threads(3);
    NjArray in[2] = {nj_array_c(x, NJ_FLOAT64, 1, (int64_t[]){n}),
                     nj_array_c(y, NJ_FLOAT64, 1, (int64_t[]){n})};
    NjArray o1 = {0}, o2 = {0};
    NjStatus s1 = nj_ufunc_call(c, in, 2, &o1, 1), s2 = nj_ufunc_call(p, in, 2, &o2, 1);
    CHECK(!s1 && !s2 && !memcmp(o1.data, o2.data, sizeof(double) * (size_t)n), "parallel == cpu");
    nj_array_free(&o1);
    nj_array_free(&o2);
    /* the parallel gufunc */
    NjUfunc *s = get(m, "scale");
    double k = 3;
    NjArray si[2] = {nj_array_c(x, NJ_FLOAT64, 2, (int64_t[]){n / 7, 7}),
                     nj_array_c(&k, NJ_FLOAT64, 0, NULL)};
    s1 = nj_ufunc_call(s, si, 2, &o1, 1);
    bool ok = !s1;
    for (int64_t i = 0; ok && i < n / 7 * 7; i++)
        ok = ((double *)o1.data)[i] == 3 * x[i];
    CHECK(ok, "parallel gufunc");
    nj_array_free(&o1);
    nj_set_num_threads(0);
    free(x);
    free(y);
}

/* Several threads compile and call one dynamic ufunc at once. */
typedef struct ThreadArg {
    NjUfunc *u;
    NjDType dt;
    int bad;
} ThreadArg;

static void *thread_main(void *p) {
    ThreadArg *t = p;
    char xs[8 * 64], ys[8 * 64];
    memset(xs, 0, sizeof xs);
    memset(ys, 0, sizeof ys);
    for (int i = 0; i < 64; i++) {
        NjValue v = nj_i64(i % 5), w = nj_i64(2);
        rt_uf_store_value(xs + i * nj_dtype_size(t->dt), t->dt, &v);
        rt_uf_store_value(ys + i * nj_dtype_size(t->dt), t->dt, &w);
    }
    for (int rep = 0; rep < 50; rep++) {
        NjArray in[2] = {nj_array_c(xs, t->dt, 1, (int64_t[]){64}),
                         nj_array_c(ys, t->dt, 1, (int64_t[]){64})};
        double o[64];
        NjArray out = nj_array_c(o, NJ_FLOAT64, 1, (int64_t[]){64});
        if (nj_ufunc_call(t->u, in, 2, &out, 1) || o[7] != 2 * 2 + 1)
            t->bad++;
    }
    return NULL;
}

static void test_threads(NjModule *m) {
    NjUfunc *d = get(m, "dyn");
    if (!d)
        return;
    NjDType dts[6] = {NJ_INT8, NJ_INT16, NJ_INT32, NJ_FLOAT32, NJ_FLOAT64, NJ_INT16};
    pthread_t th[6];
    ThreadArg ta[6];
    for (int i = 0; i < 6; i++) {
        ta[i] = (ThreadArg){d, dts[i], 0};
        pthread_create(&th[i], NULL, thread_main, &ta[i]);
    }
    int bad = 0;
    for (int i = 0; i < 6; i++) {
        pthread_join(th[i], NULL);
        bad += ta[i].bad;
    }
    CHECK(bad == 0, "threads: %d bad calls", bad);
}

/* The ufunc API without decorators: nj_ufunc_new with explicit signatures and layout. */
static void test_ufunc_new(NjContext *ctx, NjModule *m) {
    const char *sigs[] = {"float32(float32, float32)", "float64(float64, float64)"};
    NjUfunc *u = NULL;
    NjStatus st = nj_ufunc_new(m, "rel_diff", sigs, 2, NULL, NJ_TARGET_CPU, &u);
    CHECK(!st && u, "nj_ufunc_new: %s", nj_error_message(ctx));
    if (!u)
        return;
    int16_t a[2] = {1, 3}, b[2] = {3, 1};
    NjArray in[2] = {nj_array_c(a, NJ_INT16, 1, (int64_t[]){2}),
                     nj_array_c(b, NJ_INT16, 1, (int64_t[]){2})};
    NjArray out = {0};
    st = nj_ufunc_call(u, in, 2, &out, 1);
    CHECK(!st && out.dtype == NJ_FLOAT32 && ((float *)out.data)[1] == 1.0f, "int16 -> float32 first");
    nj_array_free(&out);
    st = nj_ufunc_new(m, "rel_diff", (const char *[]){"float64(float64)"}, 1, NULL,
                      NJ_TARGET_CPU, &u);
    CHECK(st == NJ_ERR_ARGS, "signature arity");
    st = nj_ufunc_new(m, "dot", (const char *[]){"(float64[:], float64[:], float64[:])"}, 1,
                      "(n),(n)->()", NJ_TARGET_CPU, &u);
    CHECK(!st, "nj_ufunc_new gufunc: %s", nj_error_message(ctx));
    st = nj_ufunc_new(m, "dot", (const char *[]){"(float64[:], float64[:], float64[:])"}, 1,
                      "(n),(n)->", NJ_TARGET_CPU, &u);
    CHECK(st == NJ_ERR_ARGS && strstr(nj_error_message(ctx), "layout"), "bad layout: %s",
          nj_error_message(ctx));
    st = nj_ufunc_new(m, "nosuch", sigs, 2, NULL, NJ_TARGET_CPU, &u);
    CHECK(st == NJ_ERR_NAME, "unknown function");
}

int main(void) {
    NjContext *ctx;
    if (nj_context_new(&ctx))
        return 1;
    test_executor(ctx);
    test_executor_threads(ctx);
    NjModule *m = NULL;
    NjStatus st = nj_compile_source(ctx, "uf.py", SRC, &m);
    CHECK(!st, "compile: %s", nj_error_message(ctx));
    if (m) {
        test_vectorize(ctx, m);
        test_guvectorize(ctx, m);
        test_parallel(ctx, m);
        test_threads(m);
        test_ufunc_new(ctx, m);
        rt_module_ufuncs_free(m);
    }
    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
