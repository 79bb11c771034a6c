/* main.c — a plain CUDA driver-API program that launches kernels numjit compiled ahead of time.
 *
 *   numjit ptx kernels.py --sig 'axpy(float32, float32[:], float32[:])' -o axpy.ptx
 *   numjit ptx kernels.py --sig 'scale2d(float64[:, :], float64)' -o scale2d.ptx
 *   cc main.c -I$CUDA_HOME/include -L$CUDA_HOME/lib64/stubs -lcuda -o aot_ptx
 *   ./aot_ptx axpy.ptx scale2d.ptx
 *
 * Nothing of numjit is linked: the PTX follows the documented kernel ABI (docs/cuda.md):
 * `.entry NAME` unmangled, and for each argument in order, an array as its device pointer,
 * then int64 shape[ndim], then int64 strides[ndim] in bytes; a scalar by value.  The program
 * checks its results and prints PASS; it exits 77 (skipped) when there is no driver or device.
 */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                                                 \
    do {                                                                                         \
        CUresult r_ = (call);                                                                    \
        if (r_ != CUDA_SUCCESS) {                                                                \
            const char *n_ = NULL;                                                               \
            cuGetErrorName(r_, &n_);                                                             \
            fprintf(stderr, "%s failed: %s (%d)\n", #call, n_ ? n_ : "?", (int)r_);              \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) == (size_t)n)
        s[n] = 0;
    else {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

/* axpy(float32 a, float32[:] x, float32[:] y): 1 + 3 + 3 parameters */
static int run_axpy(const char *ptx_path) {
    char *ptx = read_text(ptx_path);
    if (!ptx) {
        fprintf(stderr, "cannot read %s\n", ptx_path);
        return 1;
    }
    CUmodule mod;
    CUfunction fn;
    CK(cuModuleLoadData(&mod, ptx));
    CK(cuModuleGetFunction(&fn, mod, "axpy"));
    enum { N = 1000003 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    CUdeviceptr dx, dy;
    CK(cuMemAlloc(&dx, N * sizeof(float)));
    CK(cuMemAlloc(&dy, N * sizeof(float)));
    CK(cuMemcpyHtoD(dx, x, N * sizeof(float)));
    CK(cuMemcpyHtoD(dy, y, N * sizeof(float)));
    float a = 2.0f;
    int64_t n = N, stride = sizeof(float);
    void *params[] = {&a, &dx, &n, &stride, &dy, &n, &stride};
    CK(cuLaunchKernel(fn, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
    CK(cuMemcpyDtoH(y, dy, N * sizeof(float)));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += y[i] != 2.0f * (float)i + 1.0f;
    printf("%s axpy from AOT PTX (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
    cuMemFree(dx);
    cuMemFree(dy);
    cuModuleUnload(mod);
    free(x);
    free(y);
    free(ptx);
    return bad != 0;
}

/* scale2d(float64[:, :] m, float64 s) on a transposed (F-ordered) view: 1 + 2 + 2, then 1 */
static int run_scale2d(const char *ptx_path) {
    char *ptx = read_text(ptx_path);
    if (!ptx) {
        fprintf(stderr, "cannot read %s\n", ptx_path);
        return 1;
    }
    CUmodule mod;
    CUfunction fn;
    CK(cuModuleLoadData(&mod, ptx));
    CK(cuModuleGetFunction(&fn, mod, "scale2d"));
    enum { R = 123, C = 77 };
    double *m = malloc(R * C * sizeof *m);
    for (int i = 0; i < R * C; i++)
        m[i] = i;
    CUdeviceptr dm;
    CK(cuMemAlloc(&dm, R * C * sizeof(double)));
    CK(cuMemcpyHtoD(dm, m, R * C * sizeof(double)));
    /* the memory is C x R row-major; the kernel sees its transpose: shape (R, C), strides
     * (8, 8 * R) bytes */
    int64_t shape[2] = {R, C};
    double s = 0.5;
    int64_t st0 = sizeof(double), st1 = R * (int64_t)sizeof(double);
    void *params[] = {&dm, &shape[0], &shape[1], &st0, &st1, &s};
    CK(cuLaunchKernel(fn, (R + 15) / 16, (C + 15) / 16, 1, 16, 16, 1, 0, NULL, params, NULL));
    CK(cuMemcpyDtoH(m, dm, R * C * sizeof(double)));
    int bad = 0;
    for (int i = 0; i < R * C; i++)
        bad += m[i] != i * 0.5;
    printf("%s scale2d from AOT PTX, strided view (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
    cuMemFree(dm);
    cuModuleUnload(mod);
    free(m);
    free(ptx);
    return bad != 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s axpy.ptx scale2d.ptx\n", argv[0]);
        return 2;
    }
    int ndev = 0;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&ndev) != CUDA_SUCCESS || ndev == 0) {
        printf("SKIP: no CUDA driver or device\n");
        return 77;
    }
    CUdevice dev;
    CUcontext ctx;
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    int rc = run_axpy(argv[1]) | run_scale2d(argv[2]);
    cuDevicePrimaryCtxRelease(dev);
    return rc;
}
