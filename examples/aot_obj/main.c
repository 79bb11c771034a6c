/* main.c — a plain C program calling @njit functions that `numjit obj` compiled ahead of time.
 *
 *   numjit obj kernels.py --sig ... -o kernels.o --header kernels.h    (tests/aot/test_aot.sh)
 *   cc main.c kernels.o -lm -o prog && ./prog
 *
 * Only the generated header is included and nothing of numjit is linked: kernels.h defines
 * the NjArray descriptor, nj_aot_array (a C-contiguous view) and the statuses.  Each function
 * returns 0, a raise status (kernels_status_message names it), or -1 - k for a bad argument k.
 * The program prints the same lines as `python3 kernels.py` (numjit's JIT or Numba), checks a
 * few failure paths on stderr, and exits 0 when all went as expected.
 */
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>

static int failures;

/* A call that must succeed. */
static void ok(int32_t status, const char *what) {
    if (status != KERNELS_OK) {
        fprintf(stderr, "%s failed: %s\n", what, kernels_status_message(status));
        failures++;
    }
}

int main(void) {
    enum { N = 1000, ROWS = 30, COLS = 40 };
    static double x[N], y[N], a[ROWS * COLS], at[COLS * ROWS], v[COLS], out[ROWS], out2[ROWS];
    static float x32[N];
    for (int i = 0; i < N; i++) {
        x[i] = 0.5 + 0.25 * i;
        y[i] = 1.0;
        x32[i] = (float)x[i];
    }
    int64_t n = N;
    NjArray X = nj_aot_array(x, NJ_FLOAT64, 1, &n), Y = nj_aot_array(y, NJ_FLOAT64, 1, &n);
    NjArray X32 = nj_aot_array(x32, NJ_FLOAT32, 1, &n);

    ok(axpy(2.0, &X, &Y), "axpy");
    printf("axpy: y[0] = %.17g, y[999] = %.17g\n", y[0], y[N - 1]);
    double d;
    ok(dot(&d, &X, &Y), "dot");
    printf("dot(x, y) = %.17g\n", d);
    ok(norm(&d, &X), "norm");
    printf("norm(x) = %.17g\n", d);
    ok(norm32(&d, &X32), "norm32");
    printf("norm(float32 x) = %.17g\n", d);

    /* 2-D: a C-contiguous matrix, then a strided (transposed) view of the same values */
    for (int i = 0; i < ROWS * COLS; i++)
        a[i] = (double)(i % 7) - 3.0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            at[j * ROWS + i] = a[i * COLS + j];
    for (int j = 0; j < COLS; j++)
        v[j] = 1.0 + 0.5 * j;
    int64_t shape[2] = {ROWS, COLS}, nc = COLS, nr = ROWS;
    NjArray A = nj_aot_array(a, NJ_FLOAT64, 2, shape), V = nj_aot_array(v, NJ_FLOAT64, 1, &nc);
    NjArray O = nj_aot_array(out, NJ_FLOAT64, 1, &nr), O2 = nj_aot_array(out2, NJ_FLOAT64, 1, &nr);
    ok(matvec(&A, &V, &O), "matvec");
    double sum = 0;
    for (int i = 0; i < ROWS; i++)
        sum += out[i];
    printf("matvec: out[0] = %.17g, out[29] = %.17g, sum = %.17g\n", out[0], out[ROWS - 1], sum);
    NjArray AT = A; /* at viewed as (ROWS, COLS): strides (8, 8 * ROWS) */
    AT.data = at;
    AT.strides[0] = sizeof(double);
    AT.strides[1] = (int64_t)sizeof(double) * ROWS;
    ok(matvec_any(&AT, &V, &O2), "matvec_any");
    int equal = 1;
    for (int i = 0; i < ROWS; i++)
        equal &= out2[i] == out[i];
    printf("matvec (strided view): equal = %d\n", equal);
    /* the strided view is not C-contiguous: matvec(float64[:, ::1], ...) refuses argument 0 */
    if (matvec(&AT, &V, &O) != KERNELS_BAD_ARG(0)) {
        fprintf(stderr, "matvec took a non-contiguous array\n");
        failures++;
    }
    /* a float32 array where float64 is declared: argument 0 of norm */
    if (norm(&d, &X32) != KERNELS_BAD_ARG(0) || dot(&d, &X, NULL) != KERNELS_BAD_ARG(1)) {
        fprintf(stderr, "a bad argument was not refused\n");
        failures++;
    }

    ok(safe_div(&d, 7.0, 2.0), "safe_div");
    printf("safe_div(7, 2) = %.17g\n", d);
    int32_t st = safe_div(&d, 1.0, 0.0);
    if (st == KERNELS_OK)
        printf("safe_div(1, 0) = no error\n");
    else
        printf("safe_div(1, 0) raised %s\n", kernels_status_exception(st));
    fprintf(stderr, "safe_div(1, 0): status %d: %s\n", (int)st, kernels_status_message(st));

    mean_max_result_t mm;
    ok(mean_max(&mm, &X), "mean_max");
    printf("mean_max(x) = (%.17g, %.17g)\n", mm.f0, mm.f1);
    ok(sin_sum(&d, &X), "sin_sum");
    printf("sin_sum(x) = %.12g\n", d);
    static double s[N];
    NjArray S = nj_aot_array(s, NJ_FLOAT64, 1, &n);
    ok(sin_all(&X, &S), "sin_all");
    printf("sin_all: out[1] = %.12g, out[999] = %.12g\n", s[1], s[N - 1]);
    int64_t c;
    ok(count_above(&c, &X, 100.0), "count_above");
    printf("count_above(x, 100.0) = %lld\n", (long long)c);
    ok(count_above(NULL, &X, 100.0), "count_above without a result");
    return failures ? 1 : 0;
}
