/* linalg_eig.c — the eigenvalues and eigenvectors of a general real matrix, behind
 * np.linalg.eig and eigvals (ir/linalg.def's eig rows; typer/typer_decomp.c types the calls).
 *
 * The algorithm is the classical one of EISPACK's hqr and LAPACK's dhseqr, written for
 * numjit: (1) the matrix, copied into float64 column-major memory, is reduced to upper
 * Hessenberg form by Householder reflections H = I - tau v v^T applied on both sides; (2)
 * Francis' implicit double-shift QR iteration runs on the active block, deflating one real
 * eigenvalue or a 2 x 2 block (a real pair or a complex-conjugate pair) whenever a
 * subdiagonal element becomes negligible next to its diagonal neighbours, with an
 * exceptional shift after 10 and 20 (... ) iterations without deflation; the eigenvalues
 * are left in the positions of the Schur form's diagonal, as LAPACK leaves them; (3) when
 * every eigenvalue is real (Numba raises otherwise), the eigenvector of each is found by
 * inverse iteration: A - lambda I factorized with partial pivoting (a pivot that is exactly
 * zero replaced by eps * |A|), three solves from a fixed start, each result normalized; a
 * vector of an eigenvalue equal to an earlier one is orthogonalized against the earlier
 * vectors, so a repeated eigenvalue of a diagonalizable matrix gets independent vectors
 * (unless that leaves it no eigenvector, as for a defective matrix: then it is computed
 * again without, and comes out nearly parallel to the earlier ones, as LAPACK's do).
 * Vectors have unit 2-norm, as LAPACK's dgeev returns them; their signs may differ.
 */
#include "runtime.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PTR(x) ((char *)(uintptr_t)(x))
#define A_(i, j) a[(j) * n + (i)]
enum { MAXITS = 60 };

/* ---- step 1: Hessenberg form ----------------------------------------------------------------- */
static void hessenberg(int64_t n, double *a, double *v) {
    for (int64_t k = 0; k + 2 < n; k++) {
        double alpha = A_(k + 1, k), big = 0, s = 0;
        for (int64_t i = k + 2; i < n; i++)
            big = fmax(big, fabs(A_(i, k)));
        if (big == 0)
            continue;
        for (int64_t i = k + 2; i < n; i++)
            s += (A_(i, k) / big) * (A_(i, k) / big);
        double xnorm = big * sqrt(s);
        double beta = -copysign(hypot(alpha, xnorm), alpha), tau = (beta - alpha) / beta;
        v[k + 1] = 1;
        for (int64_t i = k + 2; i < n; i++)
            v[i] = A_(i, k) / (alpha - beta);
        for (int64_t j = k; j < n; j++) { /* H A: rows k+1.. */
            double t = 0;
            for (int64_t i = k + 1; i < n; i++)
                t += v[i] * A_(i, j);
            t *= tau;
            for (int64_t i = k + 1; i < n; i++)
                A_(i, j) -= t * v[i];
        }
        for (int64_t i = 0; i < n; i++) { /* (H A) H: columns k+1.. */
            double t = 0;
            for (int64_t j = k + 1; j < n; j++)
                t += A_(i, j) * v[j];
            t *= tau;
            for (int64_t j = k + 1; j < n; j++)
                A_(i, j) -= t * v[j];
        }
        A_(k + 1, k) = beta;
        for (int64_t i = k + 2; i < n; i++)
            A_(i, k) = 0;
    }
}

/* ---- step 2: the double-shift QR iteration ----------------------------------------------------- */
/* One Francis step on rows and columns l..nn, shifts from x, y, w; m found by the caller's
 * search for two small consecutive subdiagonal elements. */
static void francis(int64_t n, double *a, int64_t l, int64_t m, int64_t nn, double p, double q,
                    double r) {
    for (int64_t i = m + 2; i <= nn; i++) {
        A_(i, i - 2) = 0;
        if (i != m + 2)
            A_(i, i - 3) = 0;
    }
    double x = 0, y, z, s;
    for (int64_t k = m; k <= nn - 1; k++) {
        if (k != m) {
            p = A_(k, k - 1);
            q = A_(k + 1, k - 1);
            r = k != nn - 1 ? A_(k + 2, k - 1) : 0;
            if ((x = fabs(p) + fabs(q) + fabs(r)) != 0) {
                p /= x;
                q /= x;
                r /= x;
            }
        }
        s = copysign(sqrt(p * p + q * q + r * r), p);
        if (s == 0)
            continue;
        if (k == m) {
            if (l != m)
                A_(k, k - 1) = -A_(k, k - 1);
        } else {
            A_(k, k - 1) = -s * x;
        }
        p += s;
        x = p / s;
        y = q / s;
        z = r / s;
        q /= p;
        r /= p;
        for (int64_t j = k; j <= nn; j++) { /* rows k, k+1, k+2 */
            p = A_(k, j) + q * A_(k + 1, j);
            if (k != nn - 1) {
                p += r * A_(k + 2, j);
                A_(k + 2, j) -= p * z;
            }
            A_(k + 1, j) -= p * y;
            A_(k, j) -= p * x;
        }
        int64_t top = nn < k + 3 ? nn : k + 3;
        for (int64_t i = l; i <= top; i++) { /* columns k, k+1, k+2 */
            p = x * A_(i, k) + y * A_(i, k + 1);
            if (k != nn - 1) {
                p += z * A_(i, k + 2);
                A_(i, k + 2) -= p * r;
            }
            A_(i, k + 1) -= p * q;
            A_(i, k) -= p;
        }
    }
}

/* The eigenvalues of the Hessenberg a (destroyed) into wr, wi: 0, or 1 (no convergence). */
static int64_t hqr(int64_t n, double *a, double *wr, double *wi) {
    double anorm = 0, t = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i > 0 ? i - 1 : 0; j < n; j++)
            anorm += fabs(A_(i, j));
    int64_t nn = n - 1;
    while (nn >= 0) {
        int its = 0;
        int64_t l;
        do {
            for (l = nn; l >= 1; l--) { /* a negligible subdiagonal element splits the block */
                double s = fabs(A_(l - 1, l - 1)) + fabs(A_(l, l));
                if (s == 0)
                    s = anorm;
                if (fabs(A_(l, l - 1)) + s == s) {
                    A_(l, l - 1) = 0;
                    break;
                }
            }
            double x = A_(nn, nn);
            if (l == nn) { /* one root */
                wr[nn] = x + t;
                wi[nn--] = 0;
                continue;
            }
            double y = A_(nn - 1, nn - 1), w = A_(nn, nn - 1) * A_(nn - 1, nn);
            if (l == nn - 1) { /* two roots */
                double p = 0.5 * (y - x), q = p * p + w, z = sqrt(fabs(q));
                x += t;
                if (q >= 0) {
                    z = p + copysign(z, p);
                    wr[nn - 1] = wr[nn] = x + z;
                    if (z != 0)
                        wr[nn] = x - w / z;
                    wi[nn - 1] = wi[nn] = 0;
                } else {
                    wr[nn - 1] = wr[nn] = x + p;
                    wi[nn - 1] = -(wi[nn] = z);
                }
                nn -= 2;
                continue;
            }
            if (its == MAXITS)
                return 1;
            if (its && its % 10 == 0) { /* an exceptional shift */
                t += x;
                for (int64_t i = 0; i <= nn; i++)
                    A_(i, i) -= x;
                double s = fabs(A_(nn, nn - 1)) + fabs(A_(nn - 1, nn - 2));
                y = x = 0.75 * s;
                w = -0.4375 * s * s;
            }
            its++;
            int64_t m;
            double p = 0, q = 0, r = 0;
            for (m = nn - 2; m >= l; m--) { /* two small consecutive subdiagonal elements */
                double z = A_(m, m), rr = x - z, s = y - z;
                p = (rr * s - w) / A_(m + 1, m) + A_(m, m + 1);
                q = A_(m + 1, m + 1) - z - rr - s;
                r = A_(m + 2, m + 1);
                s = fabs(p) + fabs(q) + fabs(r);
                p /= s;
                q /= s;
                r /= s;
                if (m == l)
                    break;
                double u = fabs(A_(m, m - 1)) * (fabs(q) + fabs(r));
                double v = fabs(p) * (fabs(A_(m - 1, m - 1)) + fabs(z) + fabs(A_(m + 1, m + 1)));
                if (u + v == v)
                    break;
            }
            francis(n, a, l, m, nn, p, q, r);
        } while (l < nn - 1);
    }
    return 0;
}

/* ---- step 3: eigenvectors by inverse iteration -------------------------------------------------- */
/* lu (n x n) = the factors of A - lambda I with partial pivoting, zero pivots replaced */
static void shifted_lu(int64_t n, const double *a0, double lambda, double tiny, double *lu,
                       int64_t *piv) {
    memcpy(lu, a0, sizeof(double) * (size_t)(n * n));
    for (int64_t i = 0; i < n; i++)
        lu[i * n + i] -= lambda;
    for (int64_t j = 0; j < n; j++) {
        int64_t p = j;
        for (int64_t i = j + 1; i < n; i++)
            if (fabs(lu[j * n + i]) > fabs(lu[j * n + p]))
                p = i;
        piv[j] = p;
        if (p != j)
            for (int64_t c = 0; c < n; c++) {
                double t = lu[c * n + j];
                lu[c * n + j] = lu[c * n + p];
                lu[c * n + p] = t;
            }
        if (fabs(lu[j * n + j]) < tiny)
            lu[j * n + j] = copysign(tiny, lu[j * n + j]);
        for (int64_t i = j + 1; i < n; i++)
            lu[j * n + i] /= lu[j * n + j];
        for (int64_t c = j + 1; c < n; c++) {
            double t = lu[c * n + j];
            for (int64_t i = j + 1; i < n; i++)
                lu[c * n + i] -= t * lu[j * n + i];
        }
    }
}

static void lu_solve(int64_t n, const double *lu, const int64_t *piv, double *b) {
    for (int64_t j = 0; j < n; j++) {
        double t = b[j];
        b[j] = b[piv[j]];
        b[piv[j]] = t;
        for (int64_t i = j + 1; i < n; i++)
            b[i] -= b[j] * lu[j * n + i];
    }
    for (int64_t j = n - 1; j >= 0; j--) {
        b[j] /= lu[j * n + j];
        for (int64_t i = 0; i < j; i++)
            b[i] -= b[j] * lu[j * n + i];
    }
}

static bool normalize(double *x, int64_t n) {
    double big = 0, s = 0;
    for (int64_t i = 0; i < n; i++)
        big = fmax(big, fabs(x[i]));
    if (!(big > 0) || !isfinite(big))
        return false;
    for (int64_t i = 0; i < n; i++)
        x[i] /= big, s += x[i] * x[i];
    s = sqrt(s);
    for (int64_t i = 0; i < n; i++)
        x[i] /= s;
    return true;
}

/* |(A - lambda I) x|_inf for the unit x */
static double residual(int64_t n, const double *a0, double lambda, const double *x) {
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double t = -lambda * x[i];
        for (int64_t j = 0; j < n; j++)
            t += a0[j * n + i] * x[j];
        worst = fmax(worst, fabs(t));
    }
    return worst;
}

/* v's column k: the eigenvector of wr[k]; apart (first try) keeps it orthogonal to earlier
 * columns of an equal eigenvalue, which a defective matrix (one eigenvector for a repeated
 * eigenvalue) does not allow: then the caller tries again without */
static void eigvec(int64_t n, const double *a0, const double *wr, int64_t k, double anorm,
                   double *v, double *lu, int64_t *piv, bool apart) {
    double *x = v + k * n, tol = 1e3 * DBL_EPSILON * (anorm > 0 ? anorm : 1);
    shifted_lu(n, a0, wr[k], DBL_EPSILON * (anorm > 0 ? anorm : 1), lu, piv);
    for (int64_t i = 0; i < n; i++) /* a start with no special direction */
        x[i] = 1.0 + (double)((i * 7 + k * 3) % 11) / 13.0;
    for (int it = 0; it < 3; it++) {
        lu_solve(n, lu, piv, x);
        for (int64_t j = 0; apart && j < k; j++)
            if (fabs(wr[j] - wr[k]) <= tol) {
                double t = 0;
                for (int64_t i = 0; i < n; i++)
                    t += v[j * n + i] * x[i];
                for (int64_t i = 0; i < n; i++)
                    x[i] -= t * v[j * n + i];
            }
        if (!normalize(x, n)) {
            for (int64_t i = 0; i < n; i++)
                x[i] = i == k % n;
            return;
        }
    }
}

/* eig: WR, WI (n each, the dtype) the eigenvalues; V (n x n F order, or 0) the eigenvectors,
 * computed only when every eigenvalue is real */
static int64_t eig(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t wrr, int64_t wir,
                   int64_t vr, bool f32) {
    double *w = malloc(sizeof(double) * (size_t)(3 * n * n + 3 * n) + 1);
    int64_t *piv = malloc(sizeof(int64_t) * (size_t)n + 1);
    if (!w || !piv) {
        free(w);
        free(piv);
        return -1;
    }
    double *h = w, *orig = h + n * n, *lu = orig + n * n, *wr = lu + n * n, *wi = wr + n,
           *tmp = wi + n;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const char *p = PTR(a) + i * a0 + j * a1;
            h[j * n + i] = f32 ? (double)*(const float *)p : *(const double *)p;
        }
    memcpy(orig, h, sizeof(double) * (size_t)(n * n));
    double anorm = 0;
    for (int64_t i = 0; i < n * n; i++)
        anorm = fmax(anorm, fabs(orig[i]));
    hessenberg(n, h, tmp);
    int64_t info = hqr(n, h, wr, wi);
    bool real = true;
    for (int64_t i = 0; i < n; i++) {
        if (f32) {
            ((float *)PTR(wrr))[i] = (float)wr[i];
            ((float *)PTR(wir))[i] = (float)wi[i];
        } else {
            ((double *)PTR(wrr))[i] = wr[i];
            ((double *)PTR(wir))[i] = wi[i];
        }
        real &= wi[i] == 0;
    }
    if (vr && real && !info) {
        double *v = h; /* the Hessenberg form is done with */
        double good = sqrt(DBL_EPSILON) * (anorm > 0 ? anorm : 1) * (double)n;
        for (int64_t k = 0; k < n; k++) {
            eigvec(n, orig, wr, k, anorm, v, lu, piv, true);
            if (residual(n, orig, wr[k], v + k * n) > good)
                eigvec(n, orig, wr, k, anorm, v, lu, piv, false);
        }
        for (int64_t i = 0; i < n * n; i++) {
            if (f32)
                ((float *)PTR(vr))[i] = (float)v[i];
            else
                ((double *)PTR(vr))[i] = v[i];
        }
    }
    free(w);
    free(piv);
    return info;
}

static int64_t numjit_la_eig_f64(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t wr,
                                 int64_t wi, int64_t v) {
    return eig(n, a, a0, a1, wr, wi, v, false);
}

static int64_t numjit_la_eig_f32(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t wr,
                                 int64_t wi, int64_t v) {
    return eig(n, a, a0, a1, wr, wi, v, true);
}

bool rt_linalg_eig_define(CgJit *jit, char **err) {
    static const RtDef fns[] = {{LA_EIG_F64, (uintptr_t)numjit_la_eig_f64},
                                {LA_EIG_F32, (uintptr_t)numjit_la_eig_f32}};
    return rt_define_each(jit, fns, 2, err);
}
