/* test_kernel_launch.c — explicit CUDA kernels launched from C on a real GPU (suite 'gpu').
 *
 * Loads tests/gpu/kernels.py through the public API and launches each kernel with
 * nj_kernel_launch on host arrays (copied in and out), device arrays (nj_cuda_malloc, copies,
 * a stream), strided and reversed host views, explicit signatures with converted scalars, and
 * compares every result with a reference computed here in C.  Also: a block too large for the
 * kernel is an error naming the kernel (not a crash), and the launch round trip of a tiny
 * kernel (printed, not checked).  Prints one PASS/FAIL line per check group; exit 77 (skipped)
 * where there is no CUDA driver or device.
 *
 * Usage: test_kernel_launch [path/to/tests/gpu/kernels.py]
 */
#include "numjit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;
static NjContext *ctx;
static NjModule *mod;

static void report(const char *name, bool ok, const char *detail) {
    printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, detail && *detail ? ": " : "",
           detail ? detail : "");
    if (!ok)
        failures++;
}

static NjKernel *kernel(const char *name) {
    NjKernel *k = NULL;
    if (nj_module_kernel(mod, name, &k))
        report(name, false, nj_error_message(ctx));
    return k;
}

static bool launch(NjKernel *k, const char *name, unsigned g0, unsigned g1, unsigned g2,
                   unsigned b0, unsigned b1, unsigned b2, unsigned shared, NjStream s,
                   NjValue *args, int n) {
    unsigned grid[3] = {g0, g1, g2}, block[3] = {b0, b1, b2};
    NjStatus st = nj_kernel_launch(k, grid, block, shared, s, args, n);
    if (st) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s: %s", nj_status_name(st), nj_error_message(ctx));
        report(name, false, buf);
    }
    return st == NJ_OK;
}

static double rnd(void) { return (double)rand() / RAND_MAX * 2 - 1; }

static bool close_f(double a, double b, double tol) {
    return fabs(a - b) <= tol * (1 + fabs(b));
}

static void check_arr(const char *name, const double *got, const double *want, size_t n,
                      double tol) {
    for (size_t i = 0; i < n; i++)
        if (!close_f(got[i], want[i], tol)) {
            char buf[256];
            snprintf(buf, sizeof buf, "element %zu: %.17g, expected %.17g", i, got[i], want[i]);
            report(name, false, buf);
            return;
        }
    report(name, true, NULL);
}

static void check_arr_f(const char *name, const float *got, const float *want, size_t n,
                        double tol) {
    for (size_t i = 0; i < n; i++)
        if (!close_f(got[i], want[i], tol)) {
            char buf[256];
            snprintf(buf, sizeof buf, "element %zu: %.9g, expected %.9g", i, got[i], want[i]);
            report(name, false, buf);
            return;
        }
    report(name, true, NULL);
}

static void t_axpy(void) {
    NjKernel *k = kernel("axpy");
    if (!k)
        return;
    enum { N = 100003 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *want = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) {
        x[i] = (float)rnd();
        y[i] = (float)rnd();
        want[i] = 2.5f * x[i] + y[i];
    }
    int64_t shape[1] = {N};
    NjArray ax = nj_array_c(x, NJ_FLOAT32, 1, shape), ay = nj_array_c(y, NJ_FLOAT32, 1, shape);
    NjValue args[3] = {nj_f32(2.5f), nj_arr(&ax), nj_arr(&ay)};
    if (launch(k, "axpy host arrays", (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, 3))
        check_arr_f("axpy host arrays", y, want, N, 1e-6);
    /* a reversed, strided view: every other element from the end */
    for (int i = 0; i < N; i++)
        y[i] = 0;
    NjArray vx = ax, vy = ay;
    int64_t m = (N + 1) / 2;
    vx.shape[0] = vy.shape[0] = m;
    vx.data = x + (N - 1);
    vy.data = y + (N - 1);
    vx.strides[0] = vy.strides[0] = -2 * (int64_t)sizeof(float);
    NjValue sargs[3] = {nj_f32(1.0f), nj_arr(&vx), nj_arr(&vy)};
    if (launch(k, "axpy reversed strided views", (unsigned)(m + 127) / 128, 1, 1, 128, 1, 1, 0,
               NULL, sargs, 3)) {
        bool ok = true;
        for (int i = 0; i < N && ok; i++) {
            float w = (N - 1 - i) % 2 == 0 ? x[i] : 0;
            ok = y[i] == w;
        }
        report("axpy reversed strided views", ok, ok ? NULL : "wrong values");
    }
    /* a scalar given as float64 and int converts to the float32 parameter of the same spec */
    NjValue dargs[3] = {nj_i64(3), nj_arr(&ax), nj_arr(&ay)};
    for (int i = 0; i < N; i++)
        y[i] = 1;
    if (launch(k, "axpy int64 scalar", (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, dargs, 3)) {
        /* an int64 scalar specializes: a float64 result of int64 * float32 stored into float32 */
        for (int i = 0; i < N; i++)
            want[i] = (float)(3.0 * (double)x[i] + 1.0);
        check_arr_f("axpy int64 scalar", y, want, N, 1e-6);
    }
    free(x);
    free(y);
    free(want);
}

static void t_add2d_device(void) {
    NjKernel *k = kernel("add2d");
    if (!k)
        return;
    enum { R = 300, C = 517 };
    size_t n = R * C, bytes = n * sizeof(double);
    double *a = malloc(bytes), *b = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes);
    for (size_t i = 0; i < n; i++) {
        a[i] = rnd();
        b[i] = rnd();
        want[i] = a[i] + 2 * b[i];
    }
    void *da, *db, *dout;
    NjStream s;
    if (nj_cuda_malloc(ctx, bytes, &da) || nj_cuda_malloc(ctx, bytes, &db) ||
        nj_cuda_malloc(ctx, bytes, &dout) || nj_cuda_stream_new(ctx, &s)) {
        report("add2d device arrays", false, nj_error_message(ctx));
        return;
    }
    int64_t shape[2] = {R, C};
    NjArray xa = nj_array_c(da, NJ_FLOAT64, 2, shape), xb = nj_array_c(db, NJ_FLOAT64, 2, shape),
            xo = nj_array_c(dout, NJ_FLOAT64, 2, shape);
    NjValue args[3] = {nj_dev_arr(&xa), nj_dev_arr(&xb), nj_dev_arr(&xo)};
    bool ok = !nj_cuda_memcpy_htod(ctx, da, a, bytes, s) && !nj_cuda_memcpy_htod(ctx, db, b, bytes, s);
    ok = ok && launch(k, "add2d device arrays + stream", (R + 15) / 16, (C + 15) / 16, 1, 16, 16, 1,
                      0, s, args, 3);
    ok = ok && !nj_cuda_memcpy_dtoh(ctx, out, dout, bytes, s) && !nj_cuda_stream_sync(ctx, s);
    if (ok)
        check_arr("add2d device arrays + stream", out, want, n, 0);
    else
        report("add2d device arrays + stream", false, nj_error_message(ctx));
    nj_cuda_stream_free(ctx, s);
    nj_cuda_free(ctx, da);
    nj_cuda_free(ctx, db);
    nj_cuda_free(ctx, dout);
    free(a);
    free(b);
    free(out);
    free(want);
}

static void t_stride_loop(void) {
    NjKernel *k = kernel("scale_stride");
    if (!k)
        return;
    enum { N = 1 << 20 };
    double *x = malloc(N * sizeof *x), *o = calloc(N, sizeof *o), *w = malloc(N * sizeof *w);
    for (int i = 0; i < N; i++) {
        x[i] = rnd();
        w[i] = x[i] * -1.5;
    }
    int64_t shape[1] = {N};
    NjArray ax = nj_array_c(x, NJ_FLOAT64, 1, shape), ao = nj_array_c(o, NJ_FLOAT64, 1, shape);
    NjValue args[3] = {nj_arr(&ax), nj_arr(&ao), nj_f64(-1.5)};
    if (launch(k, "grid-stride loop (7 blocks)", 7, 1, 1, 96, 1, 1, 0, NULL, args, 3))
        check_arr("grid-stride loop (7 blocks)", o, w, N, 0);
    free(x);
    free(o);
    free(w);
}

static void t_matmul(void) {
    NjKernel *k = kernel("matmul");
    if (!k)
        return;
    enum { M = 96, K = 80, N = 112, TPB = 16 };
    float *A = malloc(M * K * 4), *B = malloc(K * N * 4), *C = calloc(M * N, 4),
          *W = malloc(M * N * 4);
    for (int i = 0; i < M * K; i++)
        A[i] = (float)rnd();
    for (int i = 0; i < K * N; i++)
        B[i] = (float)rnd();
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int t = 0; t < K; t++)
                s += (double)A[i * K + t] * B[t * N + j];
            W[i * N + j] = (float)s;
        }
    int64_t sa[2] = {M, K}, sb[2] = {K, N}, sc[2] = {M, N};
    NjArray a = nj_array_c(A, NJ_FLOAT32, 2, sa), b = nj_array_c(B, NJ_FLOAT32, 2, sb),
            c = nj_array_c(C, NJ_FLOAT32, 2, sc);
    NjValue args[3] = {nj_arr(&a), nj_arr(&b), nj_arr(&c)};
    /* numba's example: a square grid of tiles covering the largest dimension */
    unsigned g = (unsigned)((M > N ? (M > K ? M : K) : (N > K ? N : K)) + TPB - 1) / TPB;
    if (launch(k, "tiled shared-memory matmul", g, g, 1, TPB, TPB, 1, 0, NULL, args, 3))
        check_arr_f("tiled shared-memory matmul", C, W, M * N, 1e-4);
    free(A);
    free(B);
    free(C);
    free(W);
}

static void t_block_sum(void) {
    NjKernel *k = kernel("block_sum");
    if (!k)
        return;
    enum { N = 128 * 50 + 17, NB = 51 };
    float *x = malloc(N * 4), out[NB] = {0}, want[NB] = {0};
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 7) - 3;
        want[i / 128] += x[i];
    }
    int64_t sx[1] = {N}, so[1] = {NB};
    NjArray ax = nj_array_c(x, NJ_FLOAT32, 1, sx), ao = nj_array_c(out, NJ_FLOAT32, 1, so);
    NjValue args[2] = {nj_arr(&ax), nj_arr(&ao)};
    if (launch(k, "block reduction with syncthreads", NB, 1, 1, 128, 1, 1, 0, NULL, args, 2))
        check_arr_f("block reduction with syncthreads", out, want, NB, 0);
    free(x);
}

static void t_atomics(void) {
    NjKernel *k = kernel("histogram");
    if (k) {
        enum { N = 200000 };
        uint8_t *x = malloc(N);
        int32_t bins[256] = {0}, want[256] = {0};
        for (int i = 0; i < N; i++) {
            x[i] = (uint8_t)(rand() % 256);
            want[x[i]]++;
        }
        int64_t sx[1] = {N}, sb[1] = {256};
        NjArray ax = nj_array_c(x, NJ_UINT8, 1, sx), ab = nj_array_c(bins, NJ_INT32, 1, sb);
        NjValue args[2] = {nj_arr(&ax), nj_arr(&ab)};
        if (launch(k, "atomic histogram", (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, 2))
            report("atomic histogram", !memcmp(bins, want, sizeof bins), "bins differ");
        free(x);
    }
    k = kernel("atomic_minmax");
    if (k) {
        enum { N = 50000 };
        double *x = malloc(N * 8), out[2] = {-1e300, 1e300}, want[2] = {-1e300, 1e300};
        for (int i = 0; i < N; i++) {
            x[i] = rnd() * 1000;
            want[0] = x[i] > want[0] ? x[i] : want[0];
            want[1] = x[i] < want[1] ? x[i] : want[1];
        }
        int64_t sx[1] = {N}, so[1] = {2};
        NjArray ax = nj_array_c(x, NJ_FLOAT64, 1, sx), ao = nj_array_c(out, NJ_FLOAT64, 1, so);
        NjValue args[2] = {nj_arr(&ax), nj_arr(&ao)};
        if (launch(k, "atomic max/min float64", (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, 2))
            check_arr("atomic max/min float64", out, want, 2, 0);
        free(x);
    }
}

static void t_device_local_math(void) {
    enum { N = 4099 };
    double *x = malloc(N * 8), *o = calloc(N, 8), *w = malloc(N * 8);
    int64_t s1[1] = {N};
    NjArray ax = nj_array_c(x, NJ_FLOAT64, 1, s1), ao = nj_array_c(o, NJ_FLOAT64, 1, s1);
    NjValue args[2] = {nj_arr(&ax), nj_arr(&ao)};
    NjKernel *k = kernel("apply_dev");
    for (int i = 0; i < N; i++) {
        x[i] = rnd() * 4;
        double p = 1.0 + x[i] * (0.5 + x[i] * 0.25);
        w[i] = p < -2 ? -2 : p > 2 ? 2 : p;
    }
    if (k && launch(k, "device functions", (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, 2))
        check_arr("device functions", o, w, N, 1e-15);
    k = kernel("trig64");
    for (int i = 0; i < N; i++)
        w[i] = sin(x[i]) * sin(x[i]) + cos(x[i]) * cos(x[i]) - 1.0 + tanh(x[i]);
    if (k && launch(k, "libdevice float64 math", (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, 2))
        check_arr("libdevice float64 math", o, w, N, 1e-14);
    k = kernel("local_rev");
    int64_t s2[2] = {N / 4, 4};
    NjArray bx = nj_array_c(x, NJ_FLOAT64, 2, s2), bo = nj_array_c(o, NJ_FLOAT64, 2, s2);
    NjValue args2[2] = {nj_arr(&bx), nj_arr(&bo)};
    for (int i = 0; i < N / 4; i++)
        for (int j = 0; j < 4; j++)
            w[i * 4 + j] = x[i * 4 + 3 - j];
    if (k && launch(k, "local array", N / 4 / 64 + 1, 1, 1, 64, 1, 1, 0, NULL, args2, 2))
        check_arr("local array", o, w, (N / 4) * 4, 0);
    free(x);
    free(o);
    free(w);
    k = kernel("fast_f32");
    float xf[1000], of[1000], wf[1000];
    for (int i = 0; i < 1000; i++) {
        xf[i] = (float)(i + 1) / 500.0f;
        wf[i] = sinf(xf[i]) * expf(xf[i]) + sqrtf(xf[i]);
    }
    int64_t s3[1] = {1000};
    NjArray fx = nj_array_c(xf, NJ_FLOAT32, 1, s3), fo = nj_array_c(of, NJ_FLOAT32, 1, s3);
    NjValue fa[2] = {nj_arr(&fx), nj_arr(&fo)};
    if (k && launch(k, "fastmath float32", 8, 1, 1, 128, 1, 1, 0, NULL, fa, 2))
        check_arr_f("fastmath float32", of, wf, 1000, 1e-4);
}

static void t_signatures_scalars(void) {
    NjKernel *k = kernel("sig_copy");
    if (k) {
        NjStatus st = nj_kernel_compile(k, "void(float32[:], float32[:])");
        report("explicit signature compiles eagerly", st == NJ_OK, nj_error_message(ctx));
        float x[300], o[300];
        for (int i = 0; i < 300; i++)
            x[i] = (float)i * 0.5f, o[i] = 0;
        int64_t s[1] = {300};
        NjArray ax = nj_array_c(x, NJ_FLOAT32, 1, s), ao = nj_array_c(o, NJ_FLOAT32, 1, s);
        NjValue args[2] = {nj_arr(&ax), nj_arr(&ao)};
        if (launch(k, "explicit signature launch", 3, 1, 1, 128, 1, 1, 0, NULL, args, 2))
            check_arr_f("explicit signature launch", o, x, 300, 0);
        double xd[4] = {0};
        int64_t s4[1] = {4};
        NjArray bd = nj_array_c(xd, NJ_FLOAT64, 1, s4);
        NjValue bad[2] = {nj_arr(&bd), nj_arr(&bd)};
        unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
        st = nj_kernel_launch(k, g, b, 0, NULL, bad, 2);
        report("float64 arrays refused by a float32 signature",
               st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "no declared signature"),
               nj_error_message(ctx));
    }
    k = kernel("scalars");
    if (k) {
        double o[257], w[257];
        for (int i = 0; i < 257; i++)
            w[i] = -((double)i * 3 + 0.25);
        int64_t s[1] = {257};
        NjArray ao = nj_array_c(o, NJ_FLOAT64, 1, s);
        NjValue args[4] = {nj_arr(&ao), nj_i64(3), nj_f64(0.25), nj_bool(true)};
        if (launch(k, "int/float/bool scalars", 3, 1, 1, 128, 1, 1, 0, NULL, args, 4))
            check_arr("int/float/bool scalars", o, w, 257, 0);
    }
    k = kernel("idx3d");
    if (k) {
        enum { Z = 5, Y = 9, X = 33 };
        int64_t *o = calloc(Z * Y * X, 8);
        int64_t s[3] = {Z, Y, X};
        NjArray ao = nj_array_c(o, NJ_INT64, 3, s);
        NjValue args[1] = {nj_arr(&ao)};
        if (launch(k, "3-D grid", (X + 7) / 8, (Y + 3) / 4, (Z + 1) / 2, 8, 4, 2, 0, NULL, args, 1)) {
            bool ok = true;
            for (int64_t i = 0; i < Z * Y * X && ok; i++)
                ok = o[i] == i;
            report("3-D grid", ok, "wrong indices");
        }
        free(o);
    }
}

static void t_errors_and_timing(void) {
    NjKernel *k = kernel("axpy");
    if (!k)
        return;
    float x[4] = {0}, y[4] = {0};
    int64_t s[1] = {4};
    NjArray ax = nj_array_c(x, NJ_FLOAT32, 1, s), ay = nj_array_c(y, NJ_FLOAT32, 1, s);
    NjValue args[3] = {nj_f32(1), nj_arr(&ax), nj_arr(&ay)};
    unsigned g[3] = {1, 1, 1}, b[3] = {4096, 1, 1};
    NjStatus st = nj_kernel_launch(k, g, b, 0, NULL, args, 3);
    report("too many threads is an error naming the kernel",
           st != NJ_OK && strstr(nj_error_message(ctx), "axpy"), nj_error_message(ctx));
    /* round trip of a tiny launch on device arrays + synchronize */
    void *dx, *dy;
    if (nj_cuda_malloc(ctx, 16, &dx) || nj_cuda_malloc(ctx, 16, &dy))
        return;
    NjArray bx = nj_array_c(dx, NJ_FLOAT32, 1, s), by = nj_array_c(dy, NJ_FLOAT32, 1, s);
    NjValue dargs[3] = {nj_f32(1), nj_dev_arr(&bx), nj_dev_arr(&by)};
    b[0] = 32;
    nj_kernel_launch(k, g, b, 0, NULL, dargs, 3);
    nj_cuda_synchronize(ctx);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int reps = 2000;
    for (int i = 0; i < reps; i++) {
        nj_kernel_launch(k, g, b, 0, NULL, dargs, 3);
        nj_cuda_synchronize(ctx);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / 1e3 / reps;
    printf("INFO launch + synchronize round trip from C: %.2f us\n", us);
    nj_cuda_free(ctx, dx);
    nj_cuda_free(ctx, dy);
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "tests/gpu/kernels.py";
    if (nj_context_new(&ctx))
        return 1;
    int ndev = 0;
    nj_cuda_device_count(ctx, &ndev);
    if (ndev == 0) {
        printf("SKIP: no CUDA device (%s)\n", nj_error_message(ctx));
        nj_context_free(ctx);
        return 77;
    }
    char name[256];
    int ma = 0, mi = 0;
    nj_cuda_device_name(ctx, name, sizeof name, &ma, &mi);
    printf("INFO device 0: %s (sm_%d%d), %d device(s)\n", name, ma, mi, ndev);
    char *src = read_file(path);
    if (!src || nj_compile_source(ctx, path, src, &mod)) {
        printf("FAIL cannot load %s: %s\n", path, nj_error_message(ctx));
        return 1;
    }
    srand(1234);
    t_axpy();
    t_add2d_device();
    t_stride_loop();
    t_matmul();
    t_block_sum();
    t_atomics();
    t_device_local_math();
    t_signatures_scalars();
    t_errors_and_timing();
    nj_context_free(ctx);
    free(src);
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
