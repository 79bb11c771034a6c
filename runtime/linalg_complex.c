/* linalg_complex.c — np.linalg's LU-based functions on complex matrices (det, slogdet, inv,
 * solve of complex128 and complex64: ir/linalg.def's _c128 / _c64 rows; the complex matrix
 * product is linalg.c's, four real products on the parts), and eigvalsh of a Hermitian matrix
 * through its real symmetric embedding (linalg_symeig.c's solver).  The kernels are
 * linalg_complex_kernel.h, included once per precision; typer/typer_linalg.c types the calls
 * and turns a singular matrix into Numba's LinAlgError.
 */
#include "runtime.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define LC_PTR(x) ((char *)(uintptr_t)(x))

#define LC_T double
#define LC_HYPOT hypot
#define LC_LOG log
#define LC(x) x##_c128
#include "linalg_complex_kernel.h"
#undef LC_T
#undef LC_HYPOT
#undef LC_LOG
#undef LC

#define LC_T float
#define LC_HYPOT hypotf
#define LC_LOG logf
#define LC(x) x##_c64
#include "linalg_complex_kernel.h"
#undef LC_T
#undef LC_HYPOT
#undef LC_LOG
#undef LC

/* eigvalsh of the Hermitian H = A + iB (its lower triangle; the diagonal's imaginary parts
 * ignored, as LAPACK's heevd): the eigenvalues of the real symmetric [[A, -B], [B, A]] of order
 * 2n are H's, each twice; sorted ascending, every pair gives one.  W: n of the dtype's parts. */
static int64_t eigvalsh_complex(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws,
                                bool f32) {
    int64_t n2 = 2 * n;
    double *m = malloc(sizeof(double) * (size_t)(n2 * n2 + n2) + 1);
    if (!m)
        return -1;
    double *d = m + n2 * n2;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            const char *p = LC_PTR(a + i * a0 + j * a1);
            double re = f32 ? ((const float *)p)[0] : ((const double *)p)[0];
            double im = i == j ? 0 : f32 ? ((const float *)p)[1] : ((const double *)p)[1];
            /* column-major M: M[r, c] = m[c * n2 + r]; A symmetric, B antisymmetric */
            m[j * n2 + i] = m[i * n2 + j] = re;
            m[(n + j) * n2 + n + i] = m[(n + i) * n2 + n + j] = re;
            m[j * n2 + n + i] = im, m[i * n2 + n + j] = -im;  /* B[i, j], B[j, i] */
            m[(n + j) * n2 + i] = -im, m[(n + i) * n2 + j] = im; /* -B[i, j], -B[j, i] */
        }
    int64_t info = rt_la_symeig(n2, m, d, NULL);
    if (info == 0) {
        for (int64_t i = 1; i < n2; i++) /* insertion sort: n2 is small beside the O(n^3) */
            for (int64_t k = i; k > 0 && d[k - 1] > d[k]; k--) {
                double t = d[k];
                d[k] = d[k - 1];
                d[k - 1] = t;
            }
        for (int64_t k = 0; k < n; k++) {
            double x = (d[2 * k] + d[2 * k + 1]) / 2;
            if (f32)
                ((float *)LC_PTR(ws))[k] = (float)x;
            else
                ((double *)LC_PTR(ws))[k] = x;
        }
    }
    free(m);
    return info;
}

static int64_t eigvalsh_c128(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws) {
    return eigvalsh_complex(n, a, a0, a1, ws, false);
}

static int64_t eigvalsh_c64(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws) {
    return eigvalsh_complex(n, a, a0, a1, ws, true);
}

bool rt_linalg_complex_define(CgJit *jit, char **err) {
    static const RtDef fns[] = {
        {LA_DET_C128, (uintptr_t)det_c128},         {LA_DET_C64, (uintptr_t)det_c64},
        {LA_SLOGDET_C128, (uintptr_t)slogdet_c128}, {LA_SLOGDET_C64, (uintptr_t)slogdet_c64},
        {LA_INV_C128, (uintptr_t)inv_c128},         {LA_INV_C64, (uintptr_t)inv_c64},
        {LA_SOLVE_C128, (uintptr_t)solve_c128},     {LA_SOLVE_C64, (uintptr_t)solve_c64},
        {LA_EIGVALSH_C128, (uintptr_t)eigvalsh_c128}, {LA_EIGVALSH_C64, (uintptr_t)eigvalsh_c64},
    };
    return rt_define_each(jit, fns, (int)(sizeof fns / sizeof *fns), err);
}
