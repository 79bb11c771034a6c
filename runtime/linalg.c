/* linalg.c — the linear algebra that compiled code calls (ir/linalg.def): matrix products
 * (np.dot, @; complex ones as four real products), LU factorizations (np.linalg.det, slogdet, inv, solve), norms and the
 * finiteness check Numba makes before factorizing (the decompositions: linalg_decomp.c and
 * linalg_eig.c).  Numba calls BLAS and LAPACK (SciPy's OpenBLAS); numjit has
 * its own kernels so that libnumjit depends on nothing new, and links them into each JIT by
 * name as it does the random-number functions (rt_linalg_define, cg_jit_define).
 *
 * The kernels (linalg_kernel.h) are written once with GCC's vector extensions and compiled
 * three times per element type: for AVX-512, for AVX2 with FMA, and for the x86-64 baseline
 * (SSE2).  The first call picks the widest the CPU has (__builtin_cpu_supports) and keeps it
 * in an atomic pointer to a table of functions; the library itself is built for the baseline,
 * so it still runs anywhere.  Products are single-threaded.
 *
 * Results agree with BLAS/LAPACK to rounding, not bit for bit: blocking and fused multiply-add
 * change the order of the sums.  Where Numba computes something in a particular way that shows
 * in the answer, this file does the same: det is sign * exp(sum of log |u_ii|), with the logs in
 * the matrix's precision (Numba's slogdet), and the 2-norm of float32 data is rounded to float32
 * (snrm2).  Singular matrices are LAPACK's getrf's: an exactly zero pivot.
 */
#include "runtime.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Fused multiply-add in the vector kernels (C11 mode turns GCC's contraction off). */
#pragma GCC optimize("fp-contract=fast")


#define LK_T double
#define LK_KC 192
#define LK_VW 8
#define LK_NV 2
#define LK_MR 12
#define LK_ATTR __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))
#define LK(x) x##_f64_avx512
#include "linalg_kernel.h"
#undef LK_T
#undef LK_KC
#undef LK_VW
#undef LK_NV
#undef LK_MR
#undef LK_ATTR
#undef LK

#define LK_T double
#define LK_KC 192
#define LK_VW 4
#define LK_NV 2
#define LK_MR 6
#define LK_ATTR __attribute__((target("avx2,fma")))
#define LK(x) x##_f64_avx2
#include "linalg_kernel.h"
#undef LK_T
#undef LK_KC
#undef LK_VW
#undef LK_NV
#undef LK_MR
#undef LK_ATTR
#undef LK

#define LK_T double
#define LK_KC 192
#define LK_VW 2
#define LK_NV 2
#define LK_MR 4
#define LK_ATTR
#define LK(x) x##_f64_base
#include "linalg_kernel.h"
#undef LK_T
#undef LK_KC
#undef LK_VW
#undef LK_NV
#undef LK_MR
#undef LK_ATTR
#undef LK

#define LK_T float
#define LK_KC 192
#define LK_VW 16
#define LK_NV 2
#define LK_MR 12
#define LK_ATTR __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))
#define LK(x) x##_f32_avx512
#include "linalg_kernel.h"
#undef LK_T
#undef LK_KC
#undef LK_VW
#undef LK_NV
#undef LK_MR
#undef LK_ATTR
#undef LK

#define LK_T float
#define LK_KC 192
#define LK_VW 8
#define LK_NV 2
#define LK_MR 6
#define LK_ATTR __attribute__((target("avx2,fma")))
#define LK(x) x##_f32_avx2
#include "linalg_kernel.h"
#undef LK_T
#undef LK_KC
#undef LK_VW
#undef LK_NV
#undef LK_MR
#undef LK_ATTR
#undef LK

#define LK_T float
#define LK_KC 192
#define LK_VW 4
#define LK_NV 2
#define LK_MR 4
#define LK_ATTR
#define LK(x) x##_f32_base
#include "linalg_kernel.h"
#undef LK_T
#undef LK_KC
#undef LK_VW
#undef LK_NV
#undef LK_MR
#undef LK_ATTR
#undef LK

/* ---- choosing the instruction set ------------------------------------------------------------ */
typedef void GemmFn(int64_t, int64_t, int64_t, const char *, int64_t, int64_t, const char *,
                    int64_t, int64_t, char *, int64_t, int64_t);
typedef struct Kernels {
    GemmFn *gemm_f64, *gemm_f32;
    int64_t (*getrf_f64)(int64_t, double *, int64_t *);
    int64_t (*getrf_f32)(int64_t, float *, int64_t *);
    void (*getrs_f64)(int64_t, int64_t, const double *, const int64_t *, double *);
    void (*getrs_f32)(int64_t, int64_t, const float *, const int64_t *, float *);
} Kernels;

#define KERNELS(isa)                                                                           \
    {gemm_f64_##isa, gemm_f32_##isa, getrf_f64_##isa, getrf_f32_##isa, getrs_f64_##isa,       \
     getrs_f32_##isa}
static const Kernels kernels_avx512 = KERNELS(avx512), kernels_avx2 = KERNELS(avx2),
                     kernels_base = KERNELS(base);
static _Atomic(const Kernels *) chosen;

/* NUMJIT_LINALG_ISA=avx2 or =base caps the choice (tests of the narrower kernels). */
static const Kernels *kernels(void) {
    const Kernels *k = atomic_load_explicit(&chosen, memory_order_acquire);
    if (k)
        return k;
    __builtin_cpu_init();
    const char *cap = getenv("NUMJIT_LINALG_ISA");
    bool allow512 = !cap || !strcmp(cap, "avx512"), allow2 = allow512 || !strcmp(cap, "avx2");
    if (allow512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl"))
        k = &kernels_avx512;
    else if (allow2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        k = &kernels_avx2;
    else
        k = &kernels_base;
    atomic_store_explicit(&chosen, k, memory_order_release);
    return k;
}

/* ---- the functions compiled code calls (ir/linalg.def) -------------------------------------- */
#define PTR(x) ((char *)(uintptr_t)(x))

static void numjit_la_gemm_f64(int64_t m, int64_t n, int64_t k, int64_t a, int64_t a0,
                               int64_t a1, int64_t b, int64_t b0, int64_t b1, int64_t c,
                               int64_t c0, int64_t c1) {
    kernels()->gemm_f64(m, n, k, PTR(a), a0, a1, PTR(b), b0, b1, PTR(c), c0, c1);
}

static void numjit_la_gemm_f32(int64_t m, int64_t n, int64_t k, int64_t a, int64_t a0,
                               int64_t a1, int64_t b, int64_t b0, int64_t b1, int64_t c,
                               int64_t c0, int64_t c1) {
    kernels()->gemm_f32(m, n, k, PTR(a), a0, a1, PTR(b), b0, b1, PTR(c), c0, c1);
}

/* C = A B for complex matrices: four real products on the parts, which are real matrices with
 * the complex arrays' byte strides (the imaginary part one element further on):
 * Cr = Ar Br - Ai Bi, Ci = Ar Bi + Ai Br, the second product of each into a buffer. */
static void gemm_complex(int64_t m, int64_t n, int64_t k, char *a, int64_t a0, int64_t a1,
                         char *b, int64_t b0, int64_t b1, char *c, int64_t c0, int64_t c1,
                         bool f32) {
    if (m == 0 || n == 0)
        return;
    GemmFn *g = f32 ? kernels()->gemm_f32 : kernels()->gemm_f64;
    int64_t e = f32 ? 4 : 8;
    char *t = malloc((size_t)(m * n * e));
    if (!t) { /* no memory for the buffer: the plain triple loop */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double sr = 0, si = 0;
                for (int64_t p = 0; p < k; p++) {
                    const char *x = a + i * a0 + p * a1, *y = b + p * b0 + j * b1;
                    double xr = f32 ? *(const float *)x : *(const double *)x;
                    double xi = f32 ? *(const float *)(x + e) : *(const double *)(x + e);
                    double yr = f32 ? *(const float *)y : *(const double *)y;
                    double yi = f32 ? *(const float *)(y + e) : *(const double *)(y + e);
                    sr += xr * yr - xi * yi;
                    si += xr * yi + xi * yr;
                }
                char *z = c + i * c0 + j * c1;
                if (f32)
                    *(float *)z = (float)sr, *(float *)(z + e) = (float)si;
                else
                    *(double *)z = sr, *(double *)(z + e) = si;
            }
        return;
    }
    for (int part = 0; part < 2; part++) {
        /* part 0: t = Ai Bi, Cr = Ar Br - t; part 1: t = Ai Br, Ci = Ar Bi + t */
        g(m, n, k, a + e, a0, a1, b + (part ? 0 : e), b0, b1, t, n * e, e);
        char *cp = c + part * e;
        g(m, n, k, a, a0, a1, b + part * e, b0, b1, cp, c0, c1);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                char *z = cp + i * c0 + j * c1;
                int64_t o = i * n + j;
                if (f32)
                    *(float *)z += part ? ((float *)t)[o] : -((float *)t)[o];
                else
                    *(double *)z += part ? ((double *)t)[o] : -((double *)t)[o];
            }
    }
    free(t);
}

static void numjit_la_gemm_c128(int64_t m, int64_t n, int64_t k, int64_t a, int64_t a0,
                                int64_t a1, int64_t b, int64_t b0, int64_t b1, int64_t c,
                                int64_t c0, int64_t c1) {
    gemm_complex(m, n, k, PTR(a), a0, a1, PTR(b), b0, b1, PTR(c), c0, c1, false);
}

static void numjit_la_gemm_c64(int64_t m, int64_t n, int64_t k, int64_t a, int64_t a0,
                               int64_t a1, int64_t b, int64_t b0, int64_t b1, int64_t c,
                               int64_t c0, int64_t c1) {
    gemm_complex(m, n, k, PTR(a), a0, a1, PTR(b), b0, b1, PTR(c), c0, c1, true);
}

#define FINITE_LOOP(T)                                                                         \
    for (int64_t i = 0; i < m; i++)                                                            \
        for (int64_t j = 0; j < n; j++)                                                        \
            if (!isfinite(*(const T *)(PTR(a) + i * a0 + j * a1)))                             \
                return 1;                                                                      \
    return 0;

static int64_t numjit_la_nonfinite_f64(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1) {
    FINITE_LOOP(double)
}

static int64_t numjit_la_nonfinite_f32(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1) {
    FINITE_LOOP(float)
}

/* The n x n matrix at a into the column-major w; the pivots follow it in the scratch. */
#define TO_COLUMNS(T, w, n, a, a0, a1)                                                         \
    for (int64_t j = 0; j < (n); j++)                                                          \
        for (int64_t i = 0; i < (n); i++)                                                      \
            (w)[j * (n) + i] = *(const T *)(PTR(a) + i * (a0) + j * (a1));

static int64_t *pivots(void *w, int64_t n, size_t elem) {
    size_t off = ((size_t)(n * n) * elem + 7) / 8 * 8;
    return (int64_t *)((char *)w + off);
}

/* Numba's slogdet: the parity of the swaps, then sign and log of each |u_ii| (LOG: the
 * precision of the matrix), summed in float64. */
#define DET_BODY(T, getrf, LOG)                                                                \
    if (n == 0)                                                                                \
        return 1.0;                                                                            \
    T *w = (T *)PTR(ws);                                                                       \
    int64_t *piv = pivots(w, n, sizeof(T));                                                    \
    TO_COLUMNS(T, w, n, a, a0, a1)                                                             \
    if (kernels()->getrf(n, w, piv) > 0)                                                       \
        return 0.0;                                                                            \
    int64_t swaps = 0;                                                                         \
    for (int64_t k = 0; k < n; k++)                                                            \
        swaps += piv[k] != k;                                                                  \
    double sgn = swaps & 1 ? -1.0 : 1.0, acc = 0.0;                                            \
    for (int64_t k = 0; k < n; k++) {                                                          \
        T v = w[k * n + k];                                                                    \
        if (v < 0) {                                                                           \
            sgn = -sgn;                                                                        \
            v = -v;                                                                            \
        }                                                                                      \
        acc += LOG(v);                                                                         \
    }                                                                                          \
    return sgn * exp(acc);

static double numjit_la_det_f64(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws) {
    DET_BODY(double, getrf_f64, log)
}

static double numjit_la_det_f32(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws) {
    DET_BODY(float, getrf_f32, logf)
}

/* Numba's slogdet: as det, but log |det| returned and the sign (a float64) left in the
 * scratch's first element; a singular matrix gives (0, -inf) as Numba's does. */
#define SLOGDET_BODY(T, getrf, LOG)                                                            \
    double *sign = (double *)PTR(ws);                                                          \
    if (n == 0) {                                                                              \
        *sign = 1.0;                                                                           \
        return 0.0;                                                                            \
    }                                                                                          \
    T *w = (T *)PTR(ws);                                                                       \
    int64_t *piv = pivots(w, n, sizeof(T));                                                    \
    TO_COLUMNS(T, w, n, a, a0, a1)                                                             \
    if (kernels()->getrf(n, w, piv) > 0) {                                                     \
        *sign = 0.0;                                                                           \
        return -INFINITY;                                                                      \
    }                                                                                          \
    int64_t swaps = 0;                                                                         \
    for (int64_t k = 0; k < n; k++)                                                            \
        swaps += piv[k] != k;                                                                  \
    double sgn = swaps & 1 ? -1.0 : 1.0, acc = 0.0;                                            \
    for (int64_t k = 0; k < n; k++) {                                                          \
        T v = w[k * n + k];                                                                    \
        if (v < 0) {                                                                           \
            sgn = -sgn;                                                                        \
            v = -v;                                                                            \
        }                                                                                      \
        acc += LOG(v);                                                                         \
    }                                                                                          \
    *sign = sgn;                                                                               \
    return acc;

static double numjit_la_slogdet_f64(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws) {
    SLOGDET_BODY(double, getrf_f64, log)
}

static double numjit_la_slogdet_f32(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws) {
    SLOGDET_BODY(float, getrf_f32, logf)
}

#define INV_BODY(T, getrf, getrs)                                                              \
    T *w = (T *)PTR(ws), *r = (T *)PTR(rs);                                                    \
    int64_t *piv = pivots(w, n, sizeof(T));                                                    \
    TO_COLUMNS(T, w, n, a, a0, a1)                                                             \
    int64_t info = kernels()->getrf(n, w, piv);                                                \
    if (info)                                                                                  \
        return info;                                                                           \
    for (int64_t j = 0; j < n; j++)                                                            \
        for (int64_t i = 0; i < n; i++)                                                        \
            r[j * n + i] = i == j;                                                             \
    kernels()->getrs(n, n, w, piv, r);                                                         \
    return 0;

static int64_t numjit_la_inv_f64(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws,
                                 int64_t rs) {
    INV_BODY(double, getrf_f64, getrs_f64)
}

static int64_t numjit_la_inv_f32(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws,
                                 int64_t rs) {
    INV_BODY(float, getrf_f32, getrs_f32)
}

#define SOLVE_BODY(T, getrf, getrs)                                                            \
    T *w = (T *)PTR(ws);                                                                       \
    int64_t *piv = pivots(w, n, sizeof(T));                                                    \
    TO_COLUMNS(T, w, n, a, a0, a1)                                                             \
    int64_t info = kernels()->getrf(n, w, piv);                                                \
    if (!info)                                                                                 \
        kernels()->getrs(n, nrhs, w, piv, (T *)PTR(xs));                                       \
    return info;

static int64_t numjit_la_solve_f64(int64_t n, int64_t nrhs, int64_t a, int64_t a0, int64_t a1,
                                   int64_t ws, int64_t xs) {
    SOLVE_BODY(double, getrf_f64, getrs_f64)
}

static int64_t numjit_la_solve_f32(int64_t n, int64_t nrhs, int64_t a, int64_t a0, int64_t a1,
                                   int64_t ws, int64_t xs) {
    SOLVE_BODY(float, getrf_f32, getrs_f32)
}

/* ---- norms: Numba's loops (numba/np/linalg.py, _get_norm_impl), in float64 ------------------ */
/* The element kinds: float64, float32, complex128, complex64. */
enum { EK_F64, EK_F32, EK_C128, EK_C64 };

/* The part of element (i, j) (a complex's imaginary part when im), as a float64. */
static double part(const char *a, int64_t i, int64_t j, int64_t a0, int64_t a1, int ek, int im) {
    const char *p = a + i * a0 + j * a1;
    if (ek == EK_F32 || ek == EK_C64)
        return (double)((const float *)p)[im];
    return ((const double *)p)[im];
}

/* sqrt of the sum of squares (of both parts of complex elements), rescaled by the largest
 * |x| when the plain sum over- or underflows (as nrm2 never does) */
static double norm2(int64_t m, int64_t n, const char *a, int64_t a0, int64_t a1, int ek) {
    int parts = ek >= EK_C128 ? 2 : 1;
    double s = 0, big = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            for (int im = 0; im < parts; im++) {
                double x = part(a, i, j, a0, a1, ek, im);
                s += x * x;
                big = fmax(big, fabs(x));
            }
    if (isfinite(big) && big > 0 && (isinf(s) || s < 1e-280)) {
        s = 0;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                for (int im = 0; im < parts; im++) {
                    double x = part(a, i, j, a0, a1, ek, im) / big;
                    s += x * x;
                }
        return big * sqrt(s);
    }
    return sqrt(s);
}

/* |a[i, j]|: a complex's modulus in its parts' precision (Numba's abs) */
static double elem(const char *a, int64_t i, int64_t j, int64_t a0, int64_t a1, int ek) {
    double x = part(a, i, j, a0, a1, ek, 0);
    if (ek == EK_C128)
        return hypot(x, part(a, i, j, a0, a1, ek, 1));
    if (ek == EK_C64)
        return (double)hypotf((float)x, (float)part(a, i, j, a0, a1, ek, 1));
    return fabs(x);
}

static double norm(int64_t m, int64_t n, const char *a, int64_t a0, int64_t a1, int64_t kind,
                   double ord, int ek) {
    bool f32 = ek == EK_F32 || ek == EK_C64;
    if (kind == 0 || (kind == 1 && ord == 2)) {
        double r = norm2(m, n, a, a0, a1, ek);
        return f32 ? (double)(float)r : r;
    }
    if (m * n == 0)
        return 0.0;
    if (kind == 2 && (ord == 2 || ord == -2)) /* the extreme singular values */
        return ek >= EK_C128 ? NAN /* the typer refuses complex ones */
                             : rt_la_matrix_norm2(m, n, a, a0, a1, ord < 0, f32);
    if (kind == 1) { /* a vector: n elements, stride a1 */
        double ret = 0.0;
        if (ord == INFINITY || ord == -INFINITY) {
            ret = elem(a, 0, 0, a0, a1, ek);
            for (int64_t k = 1; k < n; k++) {
                double v = elem(a, 0, k, a0, a1, ek);
                if (ord > 0 ? v > ret : v < ret)
                    ret = v;
            }
        } else if (ord == 0) {
            for (int64_t k = 0; k < n; k++)
                ret += elem(a, 0, k, a0, a1, ek) != 0.0;
        } else if (ord == 1) {
            for (int64_t k = 0; k < n; k++)
                ret += elem(a, 0, k, a0, a1, ek);
        } else {
            for (int64_t k = 0; k < n; k++)
                ret += pow(elem(a, 0, k, a0, a1, ek), ord);
            ret = pow(ret, 1.0 / ord);
        }
        return ret;
    }
    /* a matrix: ord is inf or 1 (max of the row or column sums of |a|) or their negatives
     * (the min, starting from the dtype's largest value as Numba does) */
    bool rows = ord == INFINITY || ord == -INFINITY, want_max = ord > 0;
    int64_t outer = rows ? m : n, inner = rows ? n : m;
    double best = want_max ? 0.0 : f32 ? (double)3.4028234663852886e38 : 1.7976931348623157e308;
    for (int64_t o = 0; o < outer; o++) {
        double t = 0.0;
        for (int64_t l = 0; l < inner; l++)
            t += rows ? elem(a, o, l, a0, a1, ek) : elem(a, l, o, a0, a1, ek);
        if (want_max ? t > best : t < best)
            best = t;
    }
    return best;
}

static double numjit_la_norm_f64(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                 int64_t kind, double ord) {
    return norm(m, n, PTR(a), a0, a1, kind, ord, EK_F64);
}

static double numjit_la_norm_f32(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                 int64_t kind, double ord) {
    return norm(m, n, PTR(a), a0, a1, kind, ord, EK_F32);
}

static double numjit_la_norm_c128(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                  int64_t kind, double ord) {
    return norm(m, n, PTR(a), a0, a1, kind, ord, EK_C128);
}

static double numjit_la_norm_c64(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                 int64_t kind, double ord) {
    return norm(m, n, PTR(a), a0, a1, kind, ord, EK_C64);
}

/* The files of the decompositions name their functions in RtDef tables (runtime.h). */
bool rt_define_each(CgJit *jit, const RtDef *fns, int n, char **err) {
    const char *names[64];
    uintptr_t addrs[64];
    if (n > 64) {
        *err = strdup("rt_define_each: more than 64 functions in one table");
        return false;
    }
    for (int i = 0; i < n; i++)
        names[i] = ir_rtcall[fns[i].f].symbol, addrs[i] = fns[i].addr;
    return cg_jit_define(jit, names, addrs, n, err);
}

bool rt_linalg_define(CgJit *jit, char **err) {
    /* linalg.def's X entries of the rtcall table; its XD entries (the decompositions) are
     * linalg_decomp.c's and linalg_eig.c's */
    enum {
        N = 0
#define X(e, name, args, ret) +1
#define XD(e, name, args, ret)
#include "../ir/linalg.def"
#undef XD
#undef X
    };
    const uintptr_t addrs[N] = {
#define X(e, name, args, ret) [e - RT_SORT__COUNT] = (uintptr_t)numjit_la_##name,
#define XD(e, name, args, ret)
#include "../ir/linalg.def"
#undef XD
#undef X
    };
    const char *names[N];
    for (int i = 0; i < N; i++)
        names[i] = ir_rtcall[RT_SORT__COUNT + i].symbol;
    return cg_jit_define(jit, names, addrs, N, err) && rt_linalg_decomp_define(jit, err) &&
           rt_linalg_eig_define(jit, err) && rt_linalg_complex_define(jit, err);
}
