/* core_c.c — the compiler core's costs, measured from C:
 *   1. first-call compile latency (parse → type → O3 → JIT → call) of a small function, in a
 *      fresh context (context creation included) and in a context that has compiled before;
 *   2. per-call overhead of nj_call on a two-scalar function and of the raw C-ABI entry.
 * Prints medians of repeated runs, one "name value unit" line each, for bench/run_core.py. */
#include "numjit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A small function, different text each time so nothing is reused. */
static void source(char *buf, size_t n, int k) {
    snprintf(buf, n,
             "from numba import njit\n"
             "@njit\n"
             "def f%d(a, b):\n"
             "    s = 0.0\n"
             "    for i in range(10):\n"
             "        s += a * i + b / (i + 1)\n"
             "    return s\n", k);
}

static double compile_once(NjContext *ctx, int k) {
    char src[512], name[32];
    source(src, sizeof src, k);
    snprintf(name, sizeof name, "f%d", k);
    NjModule *m;
    NjFunction *f;
    NjValue args[2] = {nj_f64(1.5), nj_f64(2.5)}, r;
    double t0 = now();
    if (nj_compile_source(ctx, "bench.py", src, &m) || nj_module_function(m, name, &f) ||
        nj_call(f, args, 2, &r)) {
        fprintf(stderr, "bench: %s\n", nj_error_message(ctx));
        exit(1);
    }
    return now() - t0;
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 15;
    double t[64];
    if (reps > 64)
        reps = 64;

    /* 1a. fresh context each time (includes creating the JIT) */
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        NjContext *ctx;
        nj_context_new(&ctx);
        compile_once(ctx, i);
        t[i] = now() - t0;
        nj_context_free(ctx);
    }
    printf("compile_fresh_context %.3f ms\n", median(t, reps) * 1e3);

    /* 1b. a context that has compiled before */
    NjContext *ctx;
    nj_context_new(&ctx);
    compile_once(ctx, 1000);
    for (int i = 0; i < reps; i++)
        t[i] = compile_once(ctx, 2000 + i);
    printf("compile_warm_context %.3f ms\n", median(t, reps) * 1e3);

    /* 2. per-call overhead */
    NjModule *m;
    NjFunction *f;
    nj_compile_source(ctx, "add.py", "from numba import njit\n@njit\ndef add(a, b):\n    return a + b\n", &m);
    nj_module_function(m, "add", &f);
    NjValue args[2] = {nj_f64(1), nj_f64(2)}, r;
    nj_call(f, args, 2, &r);
    const int N = 2000000;
    for (int k = 0; k < 7; k++) {
        double t0 = now();
        for (int i = 0; i < N; i++) {
            args[0].v.f = i;
            nj_call(f, args, 2, &r);
        }
        t[k] = (now() - t0) / N;
    }
    printf("call_overhead_nj_call %.1f ns\n", median(t, 7) * 1e9);
    NjEntry e;
    nj_function_entry(f, "(float64, float64)", &e);
    double a = 1, b = 2, res = 0, sink = 0;
    void *ea[2] = {&a, &b};
    for (int k = 0; k < 7; k++) {
        double t0 = now();
        for (int i = 0; i < N; i++) {
            a = i;
            e(ea, &res);
            sink += res;
        }
        t[k] = (now() - t0) / N;
    }
    printf("call_overhead_entry %.1f ns\n", median(t, 7) * 1e9);
    if (sink == 42)
        puts("");

    /* 3. PTX of a small kernel (what `numjit ptx` does, without the process start): a new
     * source text each time, parsed, typed and lowered through the NVPTX backend */
    for (int i = 0; i < reps; i++) {
        char src[512], sig[128];
        snprintf(src, sizeof src,
                 "from numba import cuda\n"
                 "@cuda.jit\n"
                 "def axpy%d(a, x, y):\n"
                 "    i = cuda.grid(1)\n"
                 "    if i < x.shape[0]:\n"
                 "        y[i] = a * x[i] + y[i]\n", i);
        snprintf(sig, sizeof sig, "axpy%d(float32, float32[:], float32[:])", i);
        double t0 = now();
        NjModule *pm;
        char *ptx = NULL;
        if (nj_compile_source(ctx, "kernels.py", src, &pm) || nj_ptx(pm, sig, "sm_90", &ptx)) {
            fprintf(stderr, "bench: %s\n", nj_error_message(ctx));
            exit(1);
        }
        t[i] = now() - t0;
        nj_free_string(ptx);
    }
    printf("ptx_small_kernel %.3f ms\n", median(t, reps) * 1e3);
    nj_context_free(ctx);
    return 0;
}
