/* ufunc_c.c — the "vectorize decorator" for C programs.
 *
 * A scalar function written once in Python syntax becomes a NumPy-style ufunc: it is compiled
 * for two signatures, then applied elementwise to C arrays of any shape with NumPy's
 * broadcasting.  The output is allocated by numjit (free it with nj_array_free) or written
 * into an array you pass.  A gufunc works the same way over core dimensions.
 *
 *   cc ufunc_c.c $(pkg-config --cflags --libs numjit) -o ufunc_c && ./ufunc_c
 */
#include <numjit.h>

#include <stdio.h>

static const char *SOURCE =
    "def rel_diff(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "def row_dot(a, b, out):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        s += a[i] * b[i]\n"
    "    out[0] = s\n";

static int check(NjContext *ctx, NjStatus st, const char *what) {
    if (st != NJ_OK)
        fprintf(stderr, "%s failed (%s):\n%s\n", what, nj_status_name(st), nj_error_message(ctx));
    return st != NJ_OK;
}

int main(void) {
    NjContext *ctx;
    NjModule *mod;
    if (nj_context_new(&ctx) != NJ_OK)
        return 1;
    if (check(ctx, nj_compile_source(ctx, "example.py", SOURCE, &mod), "compile"))
        return 1;

    /* 1. a ufunc with two signatures, tried in this order */
    const char *sigs[] = {"float32(float32, float32)", "float64(float64, float64)"};
    NjUfunc *rel_diff;
    if (check(ctx, nj_ufunc_new(mod, "rel_diff", sigs, 2, NULL, NJ_TARGET_CPU, &rel_diff),
              "nj_ufunc_new"))
        return 1;

    /* x is 2x3, y is a row of 3: y broadcasts over the rows of x */
    double x[2][3] = {{1, 2, 3}, {4, 5, 6}};
    double y[3] = {1, 1, 2};
    NjArray ins[2] = {
        nj_array_c(x, NJ_FLOAT64, 2, (int64_t[]){2, 3}),
        nj_array_c(y, NJ_FLOAT64, 1, (int64_t[]){3}),
    };
    NjArray out = {0}; /* data == NULL: numjit allocates the output */
    if (check(ctx, nj_ufunc_call(rel_diff, ins, 2, &out, 1), "rel_diff"))
        return 1;
    printf("rel_diff(x, y): %s, shape (%lld, %lld)\n", nj_dtype_name(out.dtype),
           (long long)out.shape[0], (long long)out.shape[1]);
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 3; j++) {
            double *v = (double *)((char *)out.data + i * out.strides[0] + j * out.strides[1]);
            printf("  %8.4f", *v);
        }
        printf("\n");
    }
    nj_array_free(&out);

    /* float32 inputs pick the first signature; a 0-d array is a scalar; out= is ours */
    float xf[4] = {1, 2, 3, 4}, scalar = 2, res[4];
    NjArray fins[2] = {nj_array_c(xf, NJ_FLOAT32, 1, (int64_t[]){4}),
                       nj_array_c(&scalar, NJ_FLOAT32, 0, NULL)};
    NjArray fout = nj_array_c(res, NJ_FLOAT32, 1, (int64_t[]){4});
    if (check(ctx, nj_ufunc_call(rel_diff, fins, 2, &fout, 1), "rel_diff float32"))
        return 1;
    printf("rel_diff(xf, 2) float32:");
    for (int i = 0; i < 4; i++)
        printf(" %.4f", res[i]);
    printf("\n");

    /* 2. a gufunc: one dot product per row, "(n),(n)->()" */
    const char *gsigs[] = {"void(float64[:], float64[:], float64[:])"};
    NjUfunc *row_dot;
    if (check(ctx, nj_ufunc_new(mod, "row_dot", gsigs, 1, "(n),(n)->()", NJ_TARGET_CPU, &row_dot),
              "nj_ufunc_new gufunc"))
        return 1;
    NjArray dout = {0};
    if (check(ctx, nj_ufunc_call(row_dot, ins, 2, &dout, 1), "row_dot"))
        return 1;
    printf("row_dot(x, y):");
    for (int i = 0; i < dout.shape[0]; i++)
        printf(" %g", ((double *)dout.data)[i]);
    printf("\n");
    nj_array_free(&dout);

    /* 3. errors are reported, never printed by the library: a shape mismatch */
    NjArray bad[2] = {ins[0], nj_array_c(y, NJ_FLOAT64, 1, (int64_t[]){2})};
    NjStatus st = nj_ufunc_call(rel_diff, bad, 2, &out, 1);
    printf("mismatch: %s: %s\n", nj_status_name(st), nj_error_message(ctx));

    nj_context_free(ctx);
    return 0;
}
