/* linalg_symeig.c — the symmetric eigenproblem behind np.linalg.eigh and eigvalsh
 * (linalg_decomp.c's eigh calls rt_la_symeig), in the two steps LAPACK's dsyev takes:
 *
 *   1. Householder tridiagonalization: for k = 0 .. n-3 the reflection H_k = I - beta v v^T
 *      (v[0] = 1, chosen as dlarfg chooses it, beta = 2 / v.v) maps column k below the diagonal onto a multiple
 *      of e_1; it is applied to the trailing block from both sides as one symmetric rank-two
 *      update, T -= v w^T + w v^T with p = beta T v and w = p - (beta / 2)(p . v) v.  The
 *      vectors stay in the columns they annihilated; Q = H_0 H_1 ... H_{n-3} is then formed
 *      backwards, each reflection applied to the block it touches (as dorgtr does);
 *   2. the implicit QL iteration with Wilkinson's shift on the tridiagonal (d, e): each sweep
 *      chases a bulge from the bottom of the unreduced block up with plane rotations, which
 *      are also applied to the columns of Q (contiguous in column-major order), until every
 *      off-diagonal e[m] is negligible beside |d[m]| + |d[m+1]| or beside the matrix's norm
 *      (a block of rounding noise, as where a matrix of low rank leaves its zero eigenvalues,
 *      converges no better than to the noise).
 *
 * O(n^3) with a small constant, against the cyclic Jacobi method this replaces (several
 * sweeps of n^2 / 2 rotations each touching whole rows and columns).  Everything is float64 on
 * a column-major copy; the caller sorts the eigenvalues and rounds to the dtype.
 */
#include "runtime.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

enum { QL_ITERATIONS = 60 }; /* sweeps per eigenvalue before giving up (LAPACK allows 30) */

/* the 2-norm of x[0..n-1], scaled so that it neither overflows nor underflows */
static double norm2(const double *x, int64_t n) {
    double big = 0, s = 0;
    for (int64_t i = 0; i < n; i++)
        big = fmax(big, fabs(x[i]));
    if (big == 0)
        return 0;
    for (int64_t i = 0; i < n; i++) {
        double t = x[i] / big;
        s += t * t;
    }
    return big * sqrt(s);
}

/* a (n x n, column-major, symmetric, both triangles) to tridiagonal form: d the diagonal,
 * e[k] the element (k + 1, k) (e[n-1] = 0); the reflections' vectors are left below the
 * subdiagonal of a, their betas in beta.  p: scratch of n. */
static void tridiagonalize(int64_t n, double *a, double *d, double *e, double *beta, double *p) {
    for (int64_t k = 0; k + 2 < n; k++) {
        double *x = a + k * n + k + 1; /* column k below the diagonal, L elements */
        int64_t L = n - k - 1;
        double sigma = norm2(x + 1, L - 1);
        beta[k] = 0;
        if (sigma == 0) { /* already reduced: H = I */
            e[k] = x[0];
            continue;
        }
        /* on x / max |x|: a column of tiny (subnormal) rounding noise keeps its precision;
         * beta = 2 / v.v keeps H orthogonal whatever is left of it */
        double scale = fabs(x[0]);
        for (int64_t i = 1; i < L; i++)
            scale = fmax(scale, fabs(x[i]));
        double alpha = x[0] / scale, mu = hypot(alpha, sigma / scale);
        double top = alpha >= 0 ? -mu : mu; /* H x = top e_1, as dlarfg: -sign(alpha) norm */
        double v0 = alpha - top, vv = 1;
        for (int64_t i = 1; i < L; i++) {
            x[i] = x[i] / scale / v0;
            vv += x[i] * x[i];
        }
        beta[k] = 2 / vv;
        x[0] = 1;
        e[k] = top * scale;
        /* T = a[k+1:, k+1:]; p = beta T v */
        double *t = a + (k + 1) * n + k + 1;
        for (int64_t i = 0; i < L; i++)
            p[i] = 0;
        for (int64_t j = 0; j < L; j++) {
            double vj = beta[k] * x[j];
            const double *tj = t + j * n;
            for (int64_t i = 0; i < L; i++)
                p[i] += tj[i] * vj;
        }
        double pv = 0;
        for (int64_t i = 0; i < L; i++)
            pv += p[i] * x[i];
        double kk = beta[k] * pv / 2;
        for (int64_t i = 0; i < L; i++)
            p[i] -= kk * x[i]; /* w */
        for (int64_t j = 0; j < L; j++) {
            double vj = x[j], wj = p[j];
            double *tj = t + j * n;
            for (int64_t i = 0; i < L; i++)
                tj[i] -= x[i] * wj + p[i] * vj;
        }
    }
    for (int64_t k = 0; k < n; k++)
        d[k] = a[k * n + k];
    if (n >= 2)
        e[n - 2] = a[(n - 2) * n + n - 1];
    if (n >= 1)
        e[n - 1] = 0;
}

/* q (n x n, column-major) = H_0 ... H_{n-3} from the vectors tridiagonalize left in a */
static void form_q(int64_t n, const double *a, const double *beta, double *q, double *p) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            q[j * n + i] = i == j;
    for (int64_t k = n - 3; k >= 0; k--) {
        if (beta[k] == 0)
            continue;
        const double *v = a + k * n + k + 1;
        int64_t L = n - k - 1;
        /* Q[k+1:, k+1:] -= beta v (v^T Q[k+1:, k+1:]) */
        for (int64_t j = 0; j < L; j++) {
            const double *qj = q + (k + 1 + j) * n + k + 1;
            double s = 0;
            for (int64_t i = 0; i < L; i++)
                s += v[i] * qj[i];
            p[j] = beta[k] * s;
        }
        for (int64_t j = 0; j < L; j++) {
            double *qj = q + (k + 1 + j) * n + k + 1;
            double s = p[j];
            for (int64_t i = 0; i < L; i++)
                qj[i] -= v[i] * s;
        }
    }
}

/* The implicit QL iteration on (d, e) (e[k] couples k and k + 1); z (or NULL), n x n
 * column-major, takes the rotations on its columns.  Returns 0, or 1 when an eigenvalue did
 * not converge. */
static int64_t ql(int64_t n, double *d, double *e, double *z) {
    double big = 0; /* the largest |d[k]| + |e[k]|: off-diagonals below eps * big are zeros */
    for (int64_t k = 0; k < n; k++)
        big = fmax(big, fabs(d[k]) + fabs(e[k]));
    for (int64_t l = 0; l < n; l++) {
        int iter = 0;
        for (;;) {
            int64_t m = l;
            for (; m + 1 < n; m++) {
                double dd = fabs(d[m]) + fabs(d[m + 1]);
                if (fabs(e[m]) <= DBL_EPSILON * dd || fabs(e[m]) <= DBL_EPSILON * big * 0.5)
                    break;
            }
            if (m == l)
                break;
            if (iter++ == QL_ITERATIONS)
                return 1;
            /* Wilkinson's shift from the leading 2 x 2 block */
            double g = (d[l + 1] - d[l]) / (2 * e[l]);
            double r = hypot(g, 1.0);
            g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
            double s = 1, c = 1, p = 0;
            int64_t i = m - 1;
            bool split = false;
            for (; i >= l; i--) {
                double f = s * e[i], b = c * e[i];
                r = hypot(f, g);
                e[i + 1] = r;
                if (r == 0) { /* an exact split: deflate and start again */
                    d[i + 1] -= p;
                    e[m] = 0;
                    split = true;
                    break;
                }
                s = f / r;
                c = g / r;
                g = d[i + 1] - p;
                r = (d[i] - g) * s + 2 * c * b;
                p = s * r;
                d[i + 1] = g + p;
                g = c * r - b;
                if (z) {
                    double *zi = z + i * n, *zj = z + (i + 1) * n;
                    for (int64_t k = 0; k < n; k++) {
                        double t = zj[k];
                        zj[k] = s * zi[k] + c * t;
                        zi[k] = c * zi[k] - s * t;
                    }
                }
            }
            if (split)
                continue;
            d[l] -= p;
            e[l] = g;
            e[m] = 0;
        }
    }
    return 0;
}

int64_t rt_la_symeig(int64_t n, double *a, double *d, double *z) {
    double *work = malloc(sizeof(double) * (size_t)(3 * n) + 1);
    if (!work)
        return -1;
    double *e = work, *beta = work + n, *p = work + 2 * n;
    tridiagonalize(n, a, d, e, beta, p);
    if (z)
        form_q(n, a, beta, z, p);
    int64_t info = ql(n, d, e, z);
    free(work);
    return info;
}
