/* linalg_svd.c — the singular value decomposition behind np.linalg.svd, pinv, lstsq,
 * matrix_rank, cond and the matrix 2-norm (linalg_decomp.c's svd_core calls rt_la_gksvd), in
 * the steps of LAPACK's dgesvd:
 *
 *   1. Householder bidiagonalization of B (r x c, r >= c): for each k a reflection from the
 *      left zeroes column k below the diagonal (d[k] is left on it), then one from the right
 *      zeroes row k beyond the superdiagonal (e[k]); the reflections are chosen as dlarfg
 *      chooses them, their vectors kept in the entries they zeroed;
 *   2. U = H_0 ... H_{c-1} (its first c columns, or more: all r for a full U) and
 *      V = G_0 ... G_{c-3} formed backwards, each
 *      reflection applied to the block it touches (dorgbr);
 *   3. the Golub-Kahan iteration on the bidiagonal (d, e): each step takes Wilkinson's shift
 *      from the trailing 2 x 2 block of B^T B, chases the bulge down with alternating right and
 *      left plane rotations (applied to the columns of V and U), and off-diagonals negligible
 *      beside their neighbours (or beside the norm) are set to zero, splitting the problem; a
 *      zero on the diagonal is first chased out of its row by left rotations;
 *   4. negative diagonal entries made positive by negating V's column.
 *
 * O(r c^2) with a small constant, against the one-sided Jacobi sweeps this replaces.  All in
 * float64 on column-major copies; the caller sorts and rounds.
 */
#include "runtime.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { GK_STEPS = 75 }; /* Golub-Kahan steps per singular value before giving up */

/* The reflection (I - tau v v^T) x = top e_1 of x[0], x[k * inc] (k < n), as dlarfg: v[0] = 1,
 * the rest of v left in x; returns tau (0 when x is already a multiple of e_1). */
static double reflector(double *x, int64_t n, int64_t inc, double *top) {
    double scale = 0;
    for (int64_t k = 0; k < n; k++)
        scale = fmax(scale, fabs(x[k * inc]));
    double sigma = 0;
    for (int64_t k = 1; k < n && scale > 0; k++) {
        double t = x[k * inc] / scale;
        sigma += t * t;
    }
    if (sigma == 0) {
        *top = x[0];
        return 0;
    }
    double alpha = x[0] / scale, mu = sqrt(alpha * alpha + sigma);
    double t = alpha >= 0 ? -mu : mu, v0 = alpha - t, vv = 1;
    for (int64_t k = 1; k < n; k++) {
        x[k * inc] = x[k * inc] / scale / v0;
        vv += x[k * inc] * x[k * inc];
    }
    x[0] = 1;
    *top = t * scale;
    return 2 / vv;
}

/* y[:, j] -= tau v (v . y[:, j]) for the n columns of y (m rows, column stride ld) */
static void reflect_left(const double *v, int64_t m, double tau, double *y, int64_t n, int64_t ld) {
    if (tau == 0)
        return;
    for (int64_t j = 0; j < n; j++) {
        double *c = y + j * ld, s = 0;
        for (int64_t i = 0; i < m; i++)
            s += v[i] * c[i];
        s *= tau;
        for (int64_t i = 0; i < m; i++)
            c[i] -= s * v[i];
    }
}

/* B (r x c, column-major, r >= c) to upper bidiagonal form d, e; the left vectors stay below
 * the diagonal (taus in tl), the right ones beyond the superdiagonal (taus in tr).  w:
 * scratch of r + c. */
static void bidiagonalize(int64_t r, int64_t c, double *b, double *d, double *e, double *tl,
                          double *tr, double *w) {
    for (int64_t k = 0; k < c; k++) {
        double *col = b + k * r + k;
        tl[k] = reflector(col, r - k, 1, &d[k]);
        reflect_left(col, r - k, tl[k], col + r, c - k - 1, r);
        tr[k] = 0;
        if (k + 2 < c) {
            double *row = b + (k + 1) * r + k; /* B[k, k+1:], stride r */
            int64_t m = c - k - 1;
            tr[k] = reflector(row, m, r, &e[k]);
            for (int64_t j = 0; j < m; j++)
                w[j] = row[j * r];
            /* B[k+1:, k+1:] -= tau (B[k+1:, k+1:] v) v^T */
            int64_t rows = r - k - 1;
            double *blk = b + (k + 1) * r + k + 1, *p = w + c;
            for (int64_t i = 0; i < rows; i++)
                p[i] = 0;
            for (int64_t j = 0; j < m; j++) {
                const double *bj = blk + j * r;
                for (int64_t i = 0; i < rows; i++)
                    p[i] += bj[i] * w[j];
            }
            for (int64_t j = 0; j < m; j++) {
                double *bj = blk + j * r, s = tr[k] * w[j];
                for (int64_t i = 0; i < rows; i++)
                    bj[i] -= p[i] * s;
            }
        } else if (k + 1 < c) {
            e[k] = b[(k + 1) * r + k];
        }
    }
}

/* u (r x uc, uc >= c) = the first uc columns of H_0 ... H_{c-1}, v (c x c) = G_0 ... G_{c-3} */
static void form_uv(int64_t r, int64_t c, const double *b, const double *tl, const double *tr,
                    double *u, int64_t uc, double *v, double *w) {
    memset(u, 0, sizeof(double) * (size_t)(r * uc));
    for (int64_t i = 0; i < uc; i++)
        u[i * r + i] = 1;
    for (int64_t k = c - 1; k >= 0; k--)
        reflect_left(b + k * r + k, r - k, tl[k], u + k * r + k, uc - k, r);
    memset(v, 0, sizeof(double) * (size_t)(c * c));
    for (int64_t i = 0; i < c; i++)
        v[i * c + i] = 1;
    for (int64_t k = c - 3; k >= 0; k--) {
        if (tr[k] == 0)
            continue;
        int64_t m = c - k - 1;
        for (int64_t j = 0; j < m; j++)
            w[j] = b[(k + 1 + j) * r + k];
        reflect_left(w, m, tr[k], v + (k + 1) * c + k + 1, m, c);
    }
}

/* columns x, y (n each) <- (c x + s y, c y - s x) */
static void rot(double *x, double *y, int64_t n, double c, double s) {
    for (int64_t i = 0; i < n; i++) {
        double g = x[i], h = y[i];
        x[i] = c * g + s * h;
        y[i] = c * h - s * g;
    }
}

/* One Golub-Kahan step on the unreduced block p..q of (d, e); u (r rows), v (c rows). */
static void gk_step(int64_t p, int64_t q, double *d, double *e, double *u, int64_t r, double *v,
                    int64_t c) {
    /* Wilkinson's shift: the eigenvalue of the trailing 2 x 2 of B^T B nearer its last entry */
    double eq2 = q - 2 >= p ? e[q - 2] : 0;
    double t11 = d[q - 1] * d[q - 1] + eq2 * eq2, t12 = d[q - 1] * e[q - 1];
    double t22 = d[q] * d[q] + e[q - 1] * e[q - 1];
    double h = (t11 - t22) / 2, mu = t22 - t12 * t12 / (h + (h >= 0 ? 1 : -1) * hypot(h, t12));
    if (!isfinite(mu))
        mu = t22;
    double y = d[p] * d[p] - mu, z = d[p] * e[p];
    for (int64_t k = p; k < q; k++) {
        /* right rotation of columns k, k+1: zeroes z against y */
        double rr = hypot(y, z), cs = rr == 0 ? 1 : y / rr, sn = rr == 0 ? 0 : z / rr;
        if (k > p)
            e[k - 1] = rr;
        double dk = d[k], ek = e[k];
        d[k] = cs * dk + sn * ek;
        e[k] = cs * ek - sn * dk;
        double bulge = sn * d[k + 1];
        d[k + 1] *= cs;
        rot(v + k * c, v + (k + 1) * c, c, cs, sn);
        /* left rotation of rows k, k+1: zeroes the bulge below the diagonal */
        rr = hypot(d[k], bulge);
        cs = rr == 0 ? 1 : d[k] / rr;
        sn = rr == 0 ? 0 : bulge / rr;
        d[k] = rr;
        ek = e[k];
        double dk1 = d[k + 1];
        e[k] = cs * ek + sn * dk1;
        d[k + 1] = cs * dk1 - sn * ek;
        rot(u + k * r, u + (k + 1) * r, r, cs, sn);
        if (k + 1 < q) {
            y = e[k];
            z = sn * e[k + 1];
            e[k + 1] *= cs;
        }
    }
}

/* d[i] == 0 (p <= i < q): e[i] chased along row i to the end of the block by left rotations
 * of rows j and i, after which row i is zero and the block splits. */
static void chase_zero(int64_t i, int64_t q, double *d, double *e, double *u, int64_t r) {
    double f = e[i];
    e[i] = 0;
    for (int64_t j = i + 1; j <= q && f != 0; j++) {
        double rr = hypot(d[j], f), cs = d[j] / rr, sn = f / rr;
        d[j] = rr;
        rot(u + j * r, u + i * r, r, cs, sn);
        if (j < q) {
            f = -sn * e[j];
            e[j] *= cs;
        }
    }
}

/* The Golub-Kahan iteration on (d, e) with u and v.  0, or 1 when it did not converge. */
static int64_t gk_iterate(int64_t c, double *d, double *e, double *u, int64_t r, double *v) {
    double big = 0;
    for (int64_t k = 0; k < c; k++)
        big = fmax(big, fabs(d[k]) + (k + 1 < c ? fabs(e[k]) : 0));
    double tiny = DBL_EPSILON * big;
    int64_t steps = 0, q = c - 1;
    while (q > 0) {
        for (int64_t k = 0; k < q; k++)
            if (fabs(e[k]) <= DBL_EPSILON * (fabs(d[k]) + fabs(d[k + 1])) ||
                fabs(e[k]) <= tiny * 0.5)
                e[k] = 0;
        while (q > 0 && e[q - 1] == 0)
            q--;
        if (q == 0)
            break;
        int64_t p = q - 1;
        while (p > 0 && e[p - 1] != 0)
            p--;
        if (steps++ > GK_STEPS * c)
            return 1;
        bool chased = false;
        for (int64_t i = p; i < q; i++)
            if (fabs(d[i]) <= tiny) {
                d[i] = 0;
                chase_zero(i, q, d, e, u, r);
                chased = true;
                break;
            }
        if (!chased)
            gk_step(p, q, d, e, u, r, v, c);
    }
    for (int64_t k = 0; k < c; k++)
        if (d[k] < 0) {
            d[k] = -d[k];
            for (int64_t i = 0; i < c; i++)
                v[k * c + i] = -v[k * c + i];
        }
    return 0;
}

int64_t rt_la_gksvd(int64_t r, int64_t c, double *b, double *s, double *v, double *u,
                    int64_t uc) {
    double *work = malloc(sizeof(double) * (size_t)(4 * c + 2 * r + 1));
    if (!work)
        return -1;
    double *e = work, *tl = e + c, *tr = tl + c, *w = tr + c;
    bidiagonalize(r, c, b, s, e, tl, tr, w);
    form_uv(r, c, b, tl, tr, u, uc, v, w);
    int64_t info = gk_iterate(c, s, e, u, r, v);
    free(work);
    return info;
}
