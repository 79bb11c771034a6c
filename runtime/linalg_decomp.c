/* linalg_decomp.c — the matrix decompositions behind np.linalg.eigh, eigvalsh, eig, eigvals,
 * svd, qr, pinv, lstsq, matrix_rank and cond (ir/linalg.def; typer/typer_decomp.c types the
 * calls).  Like linalg.c these are numjit's own kernels, with no BLAS or LAPACK underneath:
 * short, accurate algorithms rather than LAPACK's blocked ones, since the matrices programs
 * decompose in a JIT are small to moderate.
 *
 *   symmetric eigenproblem   Householder tridiagonalization and the implicit QL iteration
 *                            (linalg_symeig.c) on a copy of the lower triangle, as LAPACK's
 *                            syevd with UPLO='L' reads it; eigenvalues sorted ascending,
 *                            eigenvectors Q times the rotations, columns of unit length;
 *   singular values          Householder bidiagonalization and the Golub-Kahan iteration
 *                            (linalg_svd.c) on A, or on A^T when A is wide; singular values
 *                            sorted descending with their vectors; where U needs more columns
 *                            than A has (full matrices) they are the rest of the product of
 *                            the reflections, as LAPACK's dorgbr forms them;
 *   QR                       Householder reflections chosen as LAPACK's dlarfg chooses them
 *                            (beta = -sign(alpha) * norm), so R's diagonal has LAPACK's signs,
 *                            and Q built from them as dorg2r builds it;
 *   general eigenproblem     reduction to Hessenberg form by Householder reflections, then
 *                            Francis' double-shift QR iteration (eigenvalues; Numba raises
 *                            when one is complex), then an eigenvector per eigenvalue by
 *                            inverse iteration on A - lambda I, unit length.
 *
 * Every kernel works in double precision on a column-major copy and rounds its results to the
 * array's dtype, so float32 answers are those of the float64 computation rounded (LAPACK's
 * float32 routines compute in float32).  Eigenvectors and singular vectors are unique only up
 * to sign (and within repeated eigenvalues, up to a rotation): they may differ from LAPACK's
 * by exactly that; the values, orders, shapes and dtypes do not.  Results are written to
 * arrays the typer allocated: matrices in F order (LAPACK's column-major), lstsq's solution
 * in C order (Numba copies it so).  A kernel returns 0, or a positive count when an
 * iteration did not converge (the typer raises LinAlgError as Numba does), and -1 when it
 * could not get its scratch memory (MemoryError).
 */
#include "runtime.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PTR(x) ((char *)(uintptr_t)(x))

/* ---- copies in and out ------------------------------------------------------------------------ */
/* The m x n matrix at a (byte strides a0, a1; float32 when f32) into the column-major w. */
static void load(double *w, int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1, bool f32) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            const char *p = PTR(a) + i * a0 + j * a1;
            w[j * m + i] = f32 ? (double)*(const float *)p : *(const double *)p;
        }
}

/* element k of a contiguous array of the dtype at r */
static void put(int64_t r, int64_t k, double x, bool f32) {
    if (f32)
        ((float *)PTR(r))[k] = (float)x;
    else
        ((double *)PTR(r))[k] = x;
}

static double dotc(const double *x, const double *y, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

/* the 2-norm, scaled so that it neither overflows nor underflows */
static double nrm2(const double *x, int64_t n) {
    double big = 0;
    for (int64_t i = 0; i < n; i++)
        big = fmax(big, fabs(x[i]));
    if (big == 0)
        return 0;
    double s = 0;
    for (int64_t i = 0; i < n; i++) {
        double t = x[i] / big;
        s += t * t;
    }
    return big * sqrt(s);
}

/* ---- the symmetric eigenproblem (linalg_symeig.c) ------------------------------------------------ */
/* the permutation that sorts x[0..n-1] ascending (descending when down), stable */
static void order(const double *x, int64_t n, int64_t *perm, bool down) {
    for (int64_t i = 0; i < n; i++) {
        int64_t j = i;
        for (; j > 0; j--) {
            double y = x[perm[j - 1]];
            if (down ? !(y < x[i]) : !(y > x[i]))
                break;
            perm[j] = perm[j - 1];
        }
        perm[j] = i;
    }
}

/* eigh / eigvalsh: W (n, the dtype) the eigenvalues ascending, V (n x n, F order; 0 for
 * eigvalsh) the eigenvectors */
static int64_t eigh(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t w, int64_t v,
                    bool f32) {
    double *m = malloc(sizeof(double) * (size_t)(2 * n * n + n) + 1);
    int64_t *perm = malloc(sizeof(int64_t) * (size_t)n + 1);
    if (!m || !perm) {
        free(m);
        free(perm);
        return -1;
    }
    double *vec = v ? m + n * n : NULL, *d = m + 2 * n * n;
    load(m, n, n, a, a0, a1, f32);
    for (int64_t j = 0; j < n; j++) /* the lower triangle, as LAPACK's UPLO='L' */
        for (int64_t i = 0; i < j; i++)
            m[j * n + i] = m[i * n + j];
    int64_t info = rt_la_symeig(n, m, d, vec);
    if (info < 0) {
        free(m);
        free(perm);
        return info;
    }
    order(d, n, perm, false);
    for (int64_t k = 0; k < n; k++) {
        put(w, k, d[perm[k]], f32);
        if (v)
            for (int64_t i = 0; i < n; i++)
                put(v, k * n + i, vec[perm[k] * n + i], f32);
    }
    free(m);
    free(perm);
    return info;
}

static int64_t numjit_la_eigh_f64(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t w,
                                  int64_t v) {
    return eigh(n, a, a0, a1, w, v, false);
}

static int64_t numjit_la_eigh_f32(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t w,
                                  int64_t v) {
    return eigh(n, a, a0, a1, w, v, true);
}

/* ---- the singular value decomposition ---------------------------------------------------------- */
/* The SVD of the m x n matrix at a into work memory: s (min(m, n)) descending, u (m x ucols,
 * column-major) and vt (vrows x n, column-major) where wanted (ucols, vrows: 0 for none).
 * Returns 0, 1 (no convergence) or -1 (no memory). */
static int64_t svd_core(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1, bool f32,
                        double *s, double *u, int64_t ucols, double *vt, int64_t vrows) {
    bool wide = m < n;
    int64_t r = wide ? n : m, c = wide ? m : n; /* B = A, or A^T when A is wide: r >= c */
    int64_t qcols = wide ? vrows : ucols;       /* columns of B's left factor wanted */
    int64_t qn = qcols > c ? qcols : c;
    /* b: B (r x c), then the left factor (r x qn) from rt_la_gksvd, V (c x c), the values */
    double *b = calloc((size_t)(r * c + r * qn + c * c + c) + 1, sizeof(double));
    int64_t *perm = malloc(sizeof(int64_t) * (size_t)c + 1);
    if (!b || !perm) {
        free(b);
        free(perm);
        return -1;
    }
    double *uq = b + r * c, *v = uq + r * qn, *sig = v + c * c;
    if (wide) { /* B = A^T: B[i, j] = A[j, i] */
        for (int64_t j = 0; j < c; j++)
            for (int64_t i = 0; i < r; i++) {
                const char *p = PTR(a) + j * a0 + i * a1;
                b[j * r + i] = f32 ? (double)*(const float *)p : *(const double *)p;
            }
    } else {
        load(b, r, c, a, a0, a1, f32);
    }
    int64_t info = rt_la_gksvd(r, c, b, sig, v, uq, qn);
    if (info < 0) {
        free(b);
        free(perm);
        return info;
    }
    order(sig, c, perm, true);
    for (int64_t j = 0; j < c; j++)
        s[j] = sig[perm[j]];
    if (ucols || vrows) {
        /* the left factor Q of B (r x qcols): the first c columns in the order of the
         * values, then the rest of the reflections' product as it is (LAPACK's full U);
         * the right factor P (c x c): V's columns in order */
        double *q = malloc(sizeof(double) * (size_t)(r * qn + c * c) + 1);
        if (!q) {
            free(b);
            free(perm);
            return -1;
        }
        double *pv = q + r * qn;
        for (int64_t j = 0; j < qn; j++)
            memcpy(q + j * r, uq + (j < c ? perm[j] : j) * r, sizeof(double) * (size_t)r);
        for (int64_t j = 0; j < c; j++)
            memcpy(pv + j * c, v + perm[j] * c, sizeof(double) * (size_t)c);
        /* A = Q S P^T, or (wide) A^T = Q S P^T, so A = P S Q^T */
        if (!wide) {
            if (u)
                memcpy(u, q, sizeof(double) * (size_t)(m * ucols));
            if (vt)
                for (int64_t j = 0; j < n; j++)
                    for (int64_t i = 0; i < vrows; i++)
                        vt[j * vrows + i] = pv[i * c + j];
        } else {
            if (u)
                memcpy(u, pv, sizeof(double) * (size_t)(m * ucols));
            if (vt)
                for (int64_t j = 0; j < n; j++)
                    for (int64_t i = 0; i < vrows; i++)
                        vt[j * vrows + i] = q[i * r + j];
        }
        free(q);
    }
    free(b);
    free(perm);
    return info;
}

/* svd: U (m x ucols, F order), S (min(m, n)), VT (vrows x n, F order); full: ucols = m and
 * vrows = n, else both min(m, n) */
static int64_t svd(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t full,
                   int64_t ur, int64_t sr, int64_t vtr, bool f32) {
    int64_t k = m < n ? m : n, uc = full ? m : k, vr = full ? n : k;
    double *w = malloc(sizeof(double) * (size_t)(k + m * uc + vr * n) + 1);
    if (!w)
        return -1;
    double *s = w, *u = w + k, *vt = u + m * uc;
    int64_t info = svd_core(m, n, a, a0, a1, f32, s, ur ? u : NULL, ur ? uc : 0,
                            vtr ? vt : NULL, vtr ? vr : 0);
    if (info >= 0) {
        for (int64_t i = 0; i < k; i++)
            put(sr, i, s[i], f32);
        for (int64_t i = 0; ur && i < m * uc; i++)
            put(ur, i, u[i], f32);
        for (int64_t i = 0; vtr && i < vr * n; i++)
            put(vtr, i, vt[i], f32);
    }
    free(w);
    return info;
}

static int64_t numjit_la_svd_f64(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                 int64_t full, int64_t u, int64_t s, int64_t vt) {
    return svd(m, n, a, a0, a1, full, u, s, vt, false);
}

static int64_t numjit_la_svd_f32(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                 int64_t full, int64_t u, int64_t s, int64_t vt) {
    return svd(m, n, a, a0, a1, full, u, s, vt, true);
}

/* pinv: R (n x m, F order) = V diag(1 / s_k for s_k > rcond * s_0) U^T */
static int64_t pinv(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1, double rcond,
                    int64_t r, bool f32) {
    int64_t k = m < n ? m : n;
    if (k == 0)
        return 0;
    double *w = malloc(sizeof(double) * (size_t)(k + m * k + k * n + n * m) + 1);
    if (!w)
        return -1;
    double *s = w, *u = s + k, *vt = u + m * k, *x = vt + k * n;
    int64_t info = svd_core(m, n, a, a0, a1, f32, s, u, k, vt, k);
    if (info == 0) {
        /* Numba compares in the dtype's precision: s_k > s_0 * rcond */
        double cut = f32 ? (double)(float)s[0] * rcond : s[0] * rcond;
        memset(x, 0, sizeof(double) * (size_t)(n * m));
        for (int64_t l = 0; l < k; l++) {
            double sl = f32 ? (double)(float)s[l] : s[l];
            if (!(sl > cut))
                continue;
            for (int64_t j = 0; j < m; j++) { /* x[i, j] += vt[l, i] u[j, l] / s_l */
                double t = u[l * m + j] / s[l];
                for (int64_t i = 0; i < n; i++)
                    x[j * n + i] += vt[i * k + l] * t;
            }
        }
        for (int64_t i = 0; i < n * m; i++)
            put(r, i, x[i], f32);
    }
    free(w);
    return info;
}

static int64_t numjit_la_pinv_f64(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                  double rcond, int64_t r) {
    return pinv(m, n, a, a0, a1, rcond, r, false);
}

static int64_t numjit_la_pinv_f32(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                  double rcond, int64_t r) {
    return pinv(m, n, a, a0, a1, rcond, r, true);
}

/* The singular values of a (min(m, n) > 0) into S (float64, contiguous): 0, 1 or -1. */
static int64_t numjit_la_sv_f64(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                int64_t s) {
    return svd_core(m, n, a, a0, a1, false, (double *)PTR(s), NULL, 0, NULL, 0);
}

/* float32's: rounded to float32, and stored as float64 */
static int64_t numjit_la_sv_f32(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                int64_t s) {
    double *d = (double *)PTR(s);
    int64_t info = svd_core(m, n, a, a0, a1, true, d, NULL, 0, NULL, 0);
    for (int64_t i = 0; i < (m < n ? m : n); i++)
        d[i] = (float)d[i];
    return info;
}

double rt_la_matrix_norm2(int64_t m, int64_t n, const char *a, int64_t a0, int64_t a1,
                          bool smallest, bool f32) {
    int64_t k = m < n ? m : n;
    double *s = malloc(sizeof(double) * (size_t)k + 1);
    if (!s)
        return NAN;
    int64_t info = svd_core(m, n, (int64_t)(uintptr_t)a, a0, a1, f32, s, NULL, 0, NULL, 0);
    double r = info ? NAN : s[smallest ? k - 1 : 0];
    free(s);
    return f32 ? (double)(float)r : r;
}

/* ---- least squares ------------------------------------------------------------------------------ */
/* lstsq: X (n x nrhs, C order) the minimum-norm solution of A X = B through the SVD, the
 * singular values s_k <= rcond * s_0 taken as zero (rcond < 0: the dtype's epsilon, as
 * gelsd); S (min(m, n)) the singular values; RES (nrhs, float64) the squared 2-norms of the
 * columns of B - A X.  Returns the rank, or -1 (no memory), or -2 (no convergence). */
static int64_t lstsq(int64_t m, int64_t n, int64_t nrhs, int64_t a, int64_t a0, int64_t a1,
                     int64_t b, int64_t b0, int64_t b1, double rcond, int64_t xr, int64_t sr,
                     int64_t res, bool f32) {
    int64_t k = m < n ? m : n;
    double *w = malloc(sizeof(double) * (size_t)(k + m * k + k * n + m * nrhs + n * nrhs +
                                                 m * n) + 1);
    if (!w)
        return -1;
    double *s = w, *u = s + k, *vt = u + m * k, *bb = vt + k * n, *x = bb + m * nrhs;
    double *am = x + n * nrhs;
    load(am, m, n, a, a0, a1, f32);
    load(bb, m, nrhs, b, b0, b1, f32);
    int64_t info = svd_core(m, n, a, a0, a1, f32, s, u, k, vt, k);
    if (info) {
        free(w);
        return info < 0 ? -1 : -2;
    }
    if (rcond < 0)
        rcond = f32 ? FLT_EPSILON : DBL_EPSILON;
    double cut = rcond * s[0];
    int64_t rank = 0;
    while (rank < k && s[rank] > cut)
        rank++;
    memset(x, 0, sizeof(double) * (size_t)(n * nrhs));
    for (int64_t l = 0; l < rank; l++)
        for (int64_t c = 0; c < nrhs; c++) {
            double t = dotc(u + l * m, bb + c * m, m) / s[l]; /* (U^T b)_l / s_l */
            for (int64_t i = 0; i < n; i++)
                x[c * n + i] += vt[i * k + l] * t;
        }
    for (int64_t c = 0; c < nrhs; c++) {
        double acc = 0;
        for (int64_t i = 0; i < m; i++) {
            double ri = bb[c * m + i];
            for (int64_t j = 0; j < n; j++)
                ri -= am[j * m + i] * x[c * n + j];
            acc += ri * ri;
        }
        ((double *)PTR(res))[c] = f32 ? (double)(float)acc : acc;
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t c = 0; c < nrhs; c++)
            put(xr, i * nrhs + c, x[c * n + i], f32);
    for (int64_t i = 0; i < k; i++)
        put(sr, i, s[i], f32);
    free(w);
    return rank;
}

static int64_t numjit_la_lstsq_f64(int64_t m, int64_t n, int64_t nrhs, int64_t a, int64_t a0,
                                   int64_t a1, int64_t b, int64_t b0, int64_t b1, double rcond,
                                   int64_t x, int64_t s, int64_t res) {
    return lstsq(m, n, nrhs, a, a0, a1, b, b0, b1, rcond, x, s, res, false);
}

static int64_t numjit_la_lstsq_f32(int64_t m, int64_t n, int64_t nrhs, int64_t a, int64_t a0,
                                   int64_t a1, int64_t b, int64_t b0, int64_t b1, double rcond,
                                   int64_t x, int64_t s, int64_t res) {
    return lstsq(m, n, nrhs, a, a0, a1, b, b0, b1, rcond, x, s, res, true);
}

/* ---- QR ----------------------------------------------------------------------------------------- */
/* qr: Q (m x k, F order) and R (k x n, F order), k = min(m, n), by Householder reflections
 * H_j = I - tau_j v_j v_j^T with LAPACK's choice of v and tau (dgeqr2, dlarfg, dorg2r). */
static int64_t qr(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t qr_,
                  int64_t rr, bool f32) {
    int64_t k = m < n ? m : n;
    double *w = malloc(sizeof(double) * (size_t)(m * n + k + m * k) + 1);
    if (!w)
        return -1;
    double *h = w, *tau = h + m * n, *q = tau + k;
    load(h, m, n, a, a0, a1, f32);
    for (int64_t j = 0; j < k; j++) {
        double *col = h + j * m;
        double alpha = col[j], xnorm = nrm2(col + j + 1, m - j - 1);
        if (xnorm == 0) {
            tau[j] = 0;
        } else {
            double beta = -copysign(hypot(alpha, xnorm), alpha);
            tau[j] = (beta - alpha) / beta;
            double scale = 1 / (alpha - beta);
            for (int64_t i = j + 1; i < m; i++)
                col[i] *= scale;
            col[j] = beta;
        }
        if (tau[j] == 0)
            continue;
        for (int64_t c = j + 1; c < n; c++) { /* H_j applied to the columns right of j */
            double *y = h + c * m, t = y[j];
            for (int64_t i = j + 1; i < m; i++)
                t += col[i] * y[i];
            t *= tau[j];
            y[j] -= t;
            for (int64_t i = j + 1; i < m; i++)
                y[i] -= t * col[i];
        }
    }
    for (int64_t c = 0; c < n; c++) /* R: the upper triangle, k rows */
        for (int64_t i = 0; i < k; i++)
            put(rr, c * k + i, i <= c ? h[c * m + i] : 0.0, f32);
    for (int64_t j = 0; j < k; j++) /* Q = H_0 ... H_{k-1} I[:, :k] */
        for (int64_t i = 0; i < m; i++)
            q[j * m + i] = i == j;
    for (int64_t j = k - 1; j >= 0; j--) {
        const double *v = h + j * m;
        if (tau[j] == 0)
            continue;
        for (int64_t c = j; c < k; c++) {
            double *y = q + c * m, t = y[j];
            for (int64_t i = j + 1; i < m; i++)
                t += v[i] * y[i];
            t *= tau[j];
            y[j] -= t;
            for (int64_t i = j + 1; i < m; i++)
                y[i] -= t * v[i];
        }
    }
    for (int64_t i = 0; i < m * k; i++)
        put(qr_, i, q[i], f32);
    free(w);
    return 0;
}

static int64_t numjit_la_qr_f64(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                int64_t q, int64_t r) {
    return qr(m, n, a, a0, a1, q, r, false);
}

static int64_t numjit_la_qr_f32(int64_t m, int64_t n, int64_t a, int64_t a0, int64_t a1,
                                int64_t q, int64_t r) {
    return qr(m, n, a, a0, a1, q, r, true);
}

/* ---- linking ------------------------------------------------------------------------------------- */
bool rt_linalg_decomp_define(CgJit *jit, char **err) {
    static const RtDef fns[] = {
        {LA_EIGH_F64, (uintptr_t)numjit_la_eigh_f64},   {LA_EIGH_F32, (uintptr_t)numjit_la_eigh_f32},
        {LA_SVD_F64, (uintptr_t)numjit_la_svd_f64},     {LA_SVD_F32, (uintptr_t)numjit_la_svd_f32},
        {LA_PINV_F64, (uintptr_t)numjit_la_pinv_f64},   {LA_PINV_F32, (uintptr_t)numjit_la_pinv_f32},
        {LA_SV_F64, (uintptr_t)numjit_la_sv_f64},       {LA_SV_F32, (uintptr_t)numjit_la_sv_f32},
        {LA_LSTSQ_F64, (uintptr_t)numjit_la_lstsq_f64}, {LA_LSTSQ_F32, (uintptr_t)numjit_la_lstsq_f32},
        {LA_QR_F64, (uintptr_t)numjit_la_qr_f64},       {LA_QR_F32, (uintptr_t)numjit_la_qr_f32},
    };
    return rt_define_each(jit, fns, (int)(sizeof fns / sizeof *fns), err);
}
