/* test_gpu_ufunc.c — target='cuda' ufuncs and gufuncs of tests/gpu/ufuncs.py run from C on a
 * real GPU, each result compared with a C reference: the vector path (contiguous, aligned, odd
 * lengths for the tail), broadcast scalars and 2-D broadcasting, strided and misaligned inputs
 * (the general path), device arrays in and out (nj_ufunc_call_values), the exact-dtype rule for
 * device arrays, libdevice math, small integer dtypes, and gufuncs with and without
 * shared-memory staging.  Exits 77 (skipped) without a CUDA driver or device.
 * Usage: test_gpu_ufunc tests/gpu/ufuncs.py
 */
#include "numjit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

static NjContext *ctx;
static NjModule *mod;

static NjUfunc *uf(const char *name) {
    NjUfunc *u = NULL;
    NjStatus st = nj_module_ufunc(mod, name, &u);
    CHECK(st == NJ_OK, "nj_module_ufunc(%s): %s", name, nj_error_message(ctx));
    return u;
}

static double urand(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffff) / 65536.0 + 0.5;
}

static void test_rel32(void) {
    NjUfunc *u = uf("rel32");
    if (!u)
        return;
    for (int64_t n = 1; n <= 1000003; n = n * 7 + 3) {
        float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n);
        unsigned s = 1;
        for (int64_t i = 0; i < n; i++) {
            x[i] = (float)urand(&s);
            y[i] = (float)urand(&s);
        }
        NjArray ins[2] = {nj_array_c(x, NJ_FLOAT32, 1, &n), nj_array_c(y, NJ_FLOAT32, 1, &n)};
        NjArray out[1] = {{0}};
        NjStatus st = nj_ufunc_call(u, ins, 2, out, 1);
        CHECK(st == NJ_OK, "rel32 n=%lld: %s", (long long)n, nj_error_message(ctx));
        if (!st) {
            CHECK(out[0].dtype == NJ_FLOAT32 && out[0].ndim == 1 && out[0].shape[0] == n, "shape");
            int bad = 0;
            for (int64_t i = 0; i < n; i++) {
                float r = (x[i] - y[i]) / (x[i] + y[i]);
                bad += fabsf(((float *)out[0].data)[i] - r) > 1e-6f * (fabsf(r) + 1e-6f) + 1e-7f;
            }
            CHECK(!bad, "rel32 n=%lld: %d wrong", (long long)n, bad);
            nj_array_free(&out[0]);
        }
        /* strided (every other element), misaligned (offset by one) and a broadcast scalar */
        if (n > 8) {
            int64_t h = (n - 1) / 2;
            NjArray a = nj_array_c(x + 1, NJ_FLOAT32, 1, &h);
            a.strides[0] = 8;
            float two = 2.0f;
            NjArray sc = nj_array_c(&two, NJ_FLOAT32, 0, NULL);
            NjArray in2[2] = {a, sc};
            NjArray o2[1] = {{0}};
            st = nj_ufunc_call(u, in2, 2, o2, 1);
            CHECK(st == NJ_OK, "rel32 strided: %s", nj_error_message(ctx));
            int bad = 0;
            for (int64_t i = 0; !st && i < h; i++) {
                float v = x[1 + 2 * i], r = (v - 2.0f) / (v + 2.0f);
                bad += fabsf(((float *)o2[0].data)[i] - r) > 1e-6f;
            }
            CHECK(!bad, "rel32 strided/broadcast: %d wrong", bad);
            if (!st)
                nj_array_free(&o2[0]);
        }
        free(x);
        free(y);
    }
}

static void test_broadcast_2d(void) {
    NjUfunc *u = uf("fma3");
    if (!u)
        return;
    int64_t R = 300, C = 257;
    double *a = malloc(sizeof(double) * (size_t)R), *b = malloc(sizeof(double) * (size_t)C);
    double c = 0.25;
    for (int64_t i = 0; i < R; i++)
        a[i] = (double)i;
    for (int64_t j = 0; j < C; j++)
        b[j] = 1.0 / (double)(j + 1);
    int64_t sa[2] = {R, 1}, sb[2] = {1, C};
    NjArray ins[3] = {nj_array_c(a, NJ_FLOAT64, 2, sa), nj_array_c(b, NJ_FLOAT64, 2, sb),
                      nj_array_c(&c, NJ_FLOAT64, 0, NULL)};
    NjArray out[1] = {{0}};
    NjStatus st = nj_ufunc_call(u, ins, 3, out, 1);
    CHECK(st == NJ_OK, "fma3 2-D: %s", nj_error_message(ctx));
    if (!st) {
        CHECK(out[0].ndim == 2 && out[0].shape[0] == R && out[0].shape[1] == C, "2-D shape");
        int bad = 0;
        for (int64_t i = 0; i < R; i++)
            for (int64_t j = 0; j < C; j++)
                bad += ((double *)out[0].data)[i * C + j] != fma(a[i], b[j], c); /* GPU fuses */
        CHECK(!bad, "fma3 2-D broadcast: %d wrong", bad);
        nj_array_free(&out[0]);
    }
    /* a 3-D broadcast that does not collapse: one launch per leading index */
    int64_t s3a[3] = {3, R, 1}, s3b[3] = {1, 1, C};
    double *a3 = malloc(sizeof(double) * 3 * (size_t)R);
    for (int64_t i = 0; i < 3 * R; i++)
        a3[i] = (double)i;
    NjArray in3[3] = {nj_array_c(a3, NJ_FLOAT64, 3, s3a), nj_array_c(b, NJ_FLOAT64, 3, s3b),
                      nj_array_c(&c, NJ_FLOAT64, 0, NULL)};
    NjArray o3[1] = {{0}};
    st = nj_ufunc_call(u, in3, 3, o3, 1);
    CHECK(st == NJ_OK, "fma3 3-D: %s", nj_error_message(ctx));
    if (!st) {
        int bad = 0;
        for (int64_t t = 0; t < 3; t++)
            for (int64_t i = 0; i < R; i++)
                for (int64_t j = 0; j < C; j++)
                    bad += ((double *)o3[0].data)[(t * R + i) * C + j] != fma(a3[t * R + i], b[j], c);
        CHECK(!bad, "fma3 3-D broadcast: %d wrong", bad);
        nj_array_free(&o3[0]);
    }
    free(a3);
    free(a);
    free(b);
}

static void test_device_arrays(void) {
    NjUfunc *u = uf("rel32");
    if (!u)
        return;
    int64_t n = 1 << 20;
    size_t nb = sizeof(double) * (size_t)n;
    double *x = malloc(nb), *y = malloc(nb), *r = malloc(nb);
    unsigned s = 7;
    for (int64_t i = 0; i < n; i++) {
        x[i] = urand(&s);
        y[i] = urand(&s);
    }
    void *dx, *dy;
    if (nj_cuda_malloc(ctx, nb + 16, &dx) || nj_cuda_malloc(ctx, nb, &dy)) {
        CHECK(0, "cuda malloc: %s", nj_error_message(ctx));
        return;
    }
    /* dx + 8 bytes: not 16-byte aligned, the general path */
    char *dxm = (char *)dx + 8;
    nj_cuda_memcpy_htod(ctx, dxm, x, nb, NULL);
    nj_cuda_memcpy_htod(ctx, dy, y, nb, NULL);
    NjArray ax = nj_array_c(dxm, NJ_FLOAT64, 1, &n), ay = nj_array_c(dy, NJ_FLOAT64, 1, &n);
    NjArray ao = {0};
    NjValue ins[2] = {nj_dev_arr(&ax), nj_dev_arr(&ay)};
    NjValue outs[1] = {{NJ_KIND_DEVICE_ARRAY, NJ_FLOAT64, {.a = &ao}}};
    NjStatus st = nj_ufunc_call_values(u, ins, 2, outs, 1, NULL);
    CHECK(st == NJ_OK, "device call: %s", nj_error_message(ctx));
    if (!st) {
        CHECK(ao.data && ao.dtype == NJ_FLOAT64 && ao.shape[0] == n, "a device output");
        nj_cuda_memcpy_dtoh(ctx, r, ao.data, nb, NULL);
        int bad = 0;
        for (int64_t i = 0; i < n; i++)
            bad += fabs(r[i] - (x[i] - y[i]) / (x[i] + y[i])) > 1e-15;
        CHECK(!bad, "device arrays: %d wrong", bad);
        /* out= a device array, aligned inputs (the vector path) */
        NjValue in2[2] = {nj_dev_arr(&ay), nj_dev_arr(&ao)};
        NjValue o2[1] = {nj_dev_arr(&ao)};
        st = nj_ufunc_call_values(u, in2, 2, o2, 1, NULL);
        CHECK(st == NJ_OK, "device out=: %s", nj_error_message(ctx));
        nj_cuda_memcpy_dtoh(ctx, x, ao.data, nb, NULL);
        bad = 0;
        for (int64_t i = 0; i < n; i++)
            bad += fabs(x[i] - (y[i] - r[i]) / (y[i] + r[i])) > 1e-15;
        CHECK(!bad, "device out= (in place): %d wrong", bad);
        nj_cuda_free(ctx, ao.data);
    }
    /* device arrays must match a signature exactly */
    NjArray ai = nj_array_c(dy, NJ_INT32, 1, &n);
    NjValue bad_in[2] = {nj_dev_arr(&ai), nj_dev_arr(&ai)};
    NjArray bo = {0};
    NjValue bad_out[1] = {{NJ_KIND_DEVICE_ARRAY, NJ_FLOAT64, {.a = &bo}}};
    st = nj_ufunc_call_values(u, bad_in, 2, bad_out, 1, NULL);
    CHECK(st == NJ_ERR_TYPE && strstr(nj_error_message(ctx), "exact"),
          "int32 device arrays: %s %s", nj_status_name(st), nj_error_message(ctx));
    nj_cuda_free(ctx, dx);
    nj_cuda_free(ctx, dy);
    free(x);
    free(y);
    free(r);
}

static void test_math_and_ints(void) {
    NjUfunc *u = uf("trig");
    int64_t n = 100001;
    double *x = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        x[i] = (double)i * 0.001 - 30.0;
    NjArray in = nj_array_c(x, NJ_FLOAT64, 1, &n), out = {0};
    NjStatus st = u ? nj_ufunc_call(u, &in, 1, &out, 1) : NJ_ERR_NAME;
    CHECK(st == NJ_OK, "trig: %s", nj_error_message(ctx));
    if (!st) {
        int bad = 0;
        for (int64_t i = 0; i < n; i++)
            bad += fabs(((double *)out.data)[i] - (sin(x[i]) * sin(x[i]) + cos(x[i]) * cos(x[i]))) > 1e-14;
        CHECK(!bad, "trig: %d wrong", bad);
        nj_array_free(&out);
    }
    free(x);
    u = uf("imix");
    int8_t *a = malloc((size_t)n);
    int16_t *b = malloc(2 * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (int8_t)(i * 37);
        b[i] = (int16_t)(i * 1013 - 40000);
    }
    NjArray ins[2] = {nj_array_c(a, NJ_INT8, 1, &n), nj_array_c(b, NJ_INT16, 1, &n)};
    NjArray o = {0};
    st = u ? nj_ufunc_call(u, ins, 2, &o, 1) : NJ_ERR_NAME;
    CHECK(st == NJ_OK, "imix: %s", nj_error_message(ctx));
    if (!st) {
        CHECK(o.dtype == NJ_INT32, "imix writes int32");
        int bad = 0;
        for (int64_t i = 0; i < n; i++) {
            int64_t A = a[i], B = b[i];
            int64_t fd = B / 2 - ((B % 2 != 0) && (B < 0)); /* floor division */
            int64_t md = A % 5;
            if (md < 0)
                md += 5;
            bad += ((int32_t *)o.data)[i] != (int32_t)(A * 3 + fd - md);
        }
        CHECK(!bad, "imix: %d wrong", bad);
        nj_array_free(&o);
    }
    free(a);
    free(b);
}

static void rowdot_case(NjUfunc *u, int64_t rows, int64_t k, bool transposed, const char *what) {
    double *A = malloc(sizeof(double) * (size_t)(rows * k)), *Bm = malloc(sizeof(double) * (size_t)(rows * k));
    for (int64_t i = 0; i < rows * k; i++) {
        A[i] = (double)(i % 97) * 0.5;
        Bm[i] = (double)(i % 13) - 6.0;
    }
    int64_t shape[2] = {rows, k};
    NjArray a = nj_array_c(A, NJ_FLOAT64, 2, shape), b = nj_array_c(Bm, NJ_FLOAT64, 2, shape);
    if (transposed) { /* F order: a[i, j] at A[j * rows + i] */
        a.strides[0] = b.strides[0] = 8;
        a.strides[1] = b.strides[1] = 8 * rows;
    }
    NjArray ins[2] = {a, b}, out = {0};
    NjStatus st = nj_ufunc_call(u, ins, 2, &out, 1);
    CHECK(st == NJ_OK, "rowdot %s: %s", what, nj_error_message(ctx));
    if (!st) {
        CHECK(out.ndim == 1 && out.shape[0] == rows, "rowdot %s: shape", what);
        int bad = 0;
        for (int64_t i = 0; i < rows; i++) {
            double acc = 0;
            for (int64_t j = 0; j < k; j++) {
                int64_t at = transposed ? j * rows + i : i * k + j;
                acc += A[at] * Bm[at];
            }
            bad += fabs(((double *)out.data)[i] - acc) > 1e-9 * (fabs(acc) + 1);
        }
        CHECK(!bad, "rowdot %s: %d wrong", what, bad);
        nj_array_free(&out);
    }
    free(A);
    free(Bm);
}

static void test_gufuncs(void) {
    NjUfunc *u = uf("rowdot");
    if (u) {
        rowdot_case(u, 10007, 64, false, "staged");
        rowdot_case(u, 1000, 3, false, "short rows");
        rowdot_case(u, 999, 64, true, "F order");
        setenv("NUMJIT_GU_STAGE", "0", 1);
        rowdot_case(u, 10007, 64, false, "unstaged");
        unsetenv("NUMJIT_GU_STAGE");
    }
    u = uf("axpy_rows");
    if (u) {
        int64_t shape[2] = {513, 40};
        double *x = malloc(sizeof(double) * 513 * 40);
        for (int i = 0; i < 513 * 40; i++)
            x[i] = i * 0.25;
        double a = 3.0;
        NjArray ins[2] = {nj_array_c(x, NJ_FLOAT64, 2, shape), nj_array_c(&a, NJ_FLOAT64, 0, NULL)};
        NjArray out = {0};
        NjStatus st = nj_ufunc_call(u, ins, 2, &out, 1);
        CHECK(st == NJ_OK, "axpy_rows: %s", nj_error_message(ctx));
        if (!st) {
            int bad = 0;
            for (int i = 0; i < 513 * 40; i++)
                bad += ((double *)out.data)[i] != 3.0 * x[i] + (i % 40);
            CHECK(!bad, "axpy_rows (staged output): %d wrong", bad);
            nj_array_free(&out);
        }
        free(x);
    }
    u = uf("matmul_core");
    if (u) {
        int64_t sa[3] = {50, 4, 6}, sb[3] = {50, 6, 5};
        float *A = malloc(sizeof(float) * 50 * 24), *Bm = malloc(sizeof(float) * 50 * 30);
        for (int i = 0; i < 50 * 24; i++)
            A[i] = (float)(i % 7);
        for (int i = 0; i < 50 * 30; i++)
            Bm[i] = (float)(i % 5) - 2;
        NjArray ins[2] = {nj_array_c(A, NJ_FLOAT32, 3, sa), nj_array_c(Bm, NJ_FLOAT32, 3, sb)};
        NjArray out = {0};
        NjStatus st = nj_ufunc_call(u, ins, 2, &out, 1);
        CHECK(st == NJ_OK, "matmul_core: %s", nj_error_message(ctx));
        if (!st) {
            int bad = 0;
            for (int b = 0; b < 50; b++)
                for (int i = 0; i < 4; i++)
                    for (int j = 0; j < 5; j++) {
                        float s = 0;
                        for (int t = 0; t < 6; t++)
                            s += A[b * 24 + i * 6 + t] * Bm[b * 30 + t * 5 + j];
                        bad += ((float *)out.data)[b * 20 + i * 5 + j] != s;
                    }
            CHECK(!bad, "matmul_core: %d wrong", bad);
            nj_array_free(&out);
        }
        free(A);
        free(Bm);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s tests/gpu/ufuncs.py\n", argv[0]);
        return 2;
    }
    int ndev = 0;
    if (nj_context_new(&ctx) || nj_cuda_device_count(ctx, &ndev) || ndev == 0) {
        printf("skip: no CUDA device (%s)\n", ctx ? nj_error_message(ctx) : "no context");
        return 77;
    }
    if (nj_compile_file(ctx, argv[1], &mod)) {
        printf("FAIL: %s\n", nj_error_message(ctx));
        return 1;
    }
    test_rel32();
    test_broadcast_2d();
    test_device_arrays();
    test_math_and_ints();
    test_gufuncs();
    nj_context_free(ctx);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
