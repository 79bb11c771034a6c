/* linalg_complex_kernel.h — the LU factorization of a complex matrix and what is built on it
 * (det, slogdet, inv, solve), written once and included once per precision by
 * linalg_complex.c: a template, not a header of its own.  Before including it, that file
 * defines
 *   LC_T       the type of a part (double for complex128, float for complex64)
 *   LC(x)      the name of x in this instance (x ## _c128 ...)
 * and gets the functions LC(det), LC(slogdet), LC(inv) and LC(solve) that compiled code calls.
 *
 * A complex number is a pair {re, im} of LC_T, so an array of them has NumPy's layout.  The
 * arithmetic is written out on the parts (C's complex multiplication checks for inf and nan
 * through a library call at every product; LAPACK's Fortran does not).  The factorization is
 * LAPACK's unblocked getf2 as in linalg_kernel.h, with LAPACK's complex pivot choice: the first
 * largest |re| + |im| of the column (izamax's cabs1, not the modulus), so that the pivots, and
 * with them the signs of the factors, are the ones Numba's zgetrf picks.  Quotients follow
 * Smith's algorithm, as Fortran compilers divide complex numbers.
 */

typedef struct {
    LC_T re, im;
} LC(c);

static inline LC(c) LC(mul)(LC(c) a, LC(c) b) {
    return (LC(c)){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

static inline LC_T LC(abs1)(LC(c) a) { return (a.re < 0 ? -a.re : a.re) + (a.im < 0 ? -a.im : a.im); }

/* a / b by Smith's algorithm (b != 0) */
static inline LC(c) LC(div)(LC(c) a, LC(c) b) {
    LC_T ar = b.re < 0 ? -b.re : b.re, ai = b.im < 0 ? -b.im : b.im;
    if (ar >= ai) {
        LC_T r = b.im / b.re, d = b.re + b.im * r;
        return (LC(c)){(a.re + a.im * r) / d, (a.im - a.re * r) / d};
    }
    LC_T r = b.re / b.im, d = b.im + b.re * r;
    return (LC(c)){(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}

/* w (n x n, column-major) = its LU factors, piv[j] the row swapped with row j; LAPACK's info:
 * 0, or j + 1 for the first exactly zero pivot. */
static int64_t LC(getrf)(int64_t n, LC(c) *restrict w, int64_t *restrict piv) {
    int64_t info = 0;
    for (int64_t j = 0; j < n; j++) {
        LC(c) *cj = w + j * n;
        int64_t p = j;
        LC_T best = LC(abs1)(cj[j]);
        for (int64_t i = j + 1; i < n; i++) {
            LC_T v = LC(abs1)(cj[i]);
            if (v > best)
                best = v, p = i;
        }
        piv[j] = p;
        if (cj[p].re != 0 || cj[p].im != 0) {
            if (p != j)
                for (int64_t c = 0; c < n; c++) {
                    LC(c) t = w[c * n + j];
                    w[c * n + j] = w[c * n + p];
                    w[c * n + p] = t;
                }
            LC(c) r = LC(div)((LC(c)){1, 0}, cj[j]);
            for (int64_t i = j + 1; i < n; i++)
                cj[i] = LC(mul)(cj[i], r);
        } else if (info == 0) {
            info = j + 1;
        }
        for (int64_t c = j + 1; c < n; c++) {
            LC(c) *cc = w + c * n;
            LC(c) t = cc[j];
            if (t.re == 0 && t.im == 0)
                continue;
            for (int64_t i = j + 1; i < n; i++) {
                LC(c) u = LC(mul)(t, cj[i]);
                cc[i].re -= u.re;
                cc[i].im -= u.im;
            }
        }
    }
    return info;
}

/* x (n x nrhs, column-major) = A^-1 x from getrf's factors (no zero pivot) */
static void LC(getrs)(int64_t n, int64_t nrhs, const LC(c) *restrict w,
                      const int64_t *restrict piv, LC(c) *restrict x) {
    for (int64_t r = 0; r < nrhs; r++) {
        LC(c) *b = x + r * n;
        for (int64_t j = 0; j < n; j++)
            if (piv[j] != j) {
                LC(c) t = b[j];
                b[j] = b[piv[j]];
                b[piv[j]] = t;
            }
        for (int64_t j = 0; j < n; j++) { /* L (unit diagonal) */
            LC(c) t = b[j];
            if (t.re == 0 && t.im == 0)
                continue;
            const LC(c) *cj = w + j * n;
            for (int64_t i = j + 1; i < n; i++) {
                LC(c) u = LC(mul)(t, cj[i]);
                b[i].re -= u.re;
                b[i].im -= u.im;
            }
        }
        for (int64_t j = n - 1; j >= 0; j--) { /* U */
            const LC(c) *cj = w + j * n;
            b[j] = LC(div)(b[j], cj[j]);
            LC(c) t = b[j];
            if (t.re == 0 && t.im == 0)
                continue;
            for (int64_t i = 0; i < j; i++) {
                LC(c) u = LC(mul)(t, cj[i]);
                b[i].re -= u.re;
                b[i].im -= u.im;
            }
        }
    }
}

/* The n x n matrix at a (byte strides a0, a1) into the column-major w, pivots after it. */
static int64_t *LC(load)(int64_t n, int64_t a, int64_t a0, int64_t a1, LC(c) *w) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            w[j * n + i] = *(const LC(c) *)LC_PTR(a + i * a0 + j * a1);
    return (int64_t *)(w + n * n);
}

/* Numba's slogdet of a complex matrix (_get_slogdet_diag_walker): the parity of the swaps as
 * a complex sign, multiplied by u_kk / |u_kk| for each diagonal element (the quotient in the
 * matrix's precision, the product in complex128), and the sum of log |u_kk| in float64 (each
 * log in the matrix's precision).  Returns the sum, the sign in ws's first two float64s; a
 * singular matrix gives (0, -inf). */
static double LC(slogdet)(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws) {
    double *sign = (double *)LC_PTR(ws);
    if (n == 0) {
        sign[0] = 1, sign[1] = 0;
        return 0.0;
    }
    LC(c) *w = (LC(c) *)LC_PTR(ws);
    int64_t *piv = LC(load)(n, a, a0, a1, w);
    if (LC(getrf)(n, w, piv) > 0) {
        sign[0] = 0, sign[1] = 0;
        return -INFINITY;
    }
    int64_t swaps = 0;
    for (int64_t k = 0; k < n; k++)
        swaps += piv[k] != k;
    double sr = swaps & 1 ? -1.0 : 1.0, si = 0.0, acc = 0.0;
    for (int64_t k = 0; k < n; k++) {
        LC(c) u = w[k * n + k];
        LC_T m = LC_HYPOT(u.re, u.im);
        double qr = (double)(u.re / m), qi = (double)(u.im / m);
        double t = sr * qr - si * qi;
        si = sr * qi + si * qr;
        sr = t;
        acc += (double)LC_LOG(m);
    }
    sign[0] = sr, sign[1] = si;
    return acc;
}

/* Numba's det: sign * exp(slogdet), a complex128; the real part returned, the imaginary part
 * left in ws's first float64. */
static double LC(det)(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws) {
    double acc = LC(slogdet)(n, a, a0, a1, ws), *sign = (double *)LC_PTR(ws);
    double e = exp(acc), re = sign[0] * e - sign[1] * 0.0;
    sign[0] = sign[0] * 0.0 + sign[1] * e;
    return re;
}

/* R (n x n, F order) = A^-1; LAPACK's info (> 0: singular, R undefined) */
static int64_t LC(inv)(int64_t n, int64_t a, int64_t a0, int64_t a1, int64_t ws, int64_t rs) {
    LC(c) *w = (LC(c) *)LC_PTR(ws), *r = (LC(c) *)LC_PTR(rs);
    int64_t *piv = LC(load)(n, a, a0, a1, w);
    int64_t info = LC(getrf)(n, w, piv);
    if (info)
        return info;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            r[j * n + i] = (LC(c)){i == j, 0};
    LC(getrs)(n, n, w, piv, r);
    return 0;
}

/* X (n x nrhs, F order) holds B and receives A^-1 B; info as for inv */
static int64_t LC(solve)(int64_t n, int64_t nrhs, int64_t a, int64_t a0, int64_t a1, int64_t ws,
                         int64_t xs) {
    LC(c) *w = (LC(c) *)LC_PTR(ws);
    int64_t *piv = LC(load)(n, a, a0, a1, w);
    int64_t info = LC(getrf)(n, w, piv);
    if (!info)
        LC(getrs)(n, nrhs, w, piv, (LC(c) *)LC_PTR(xs));
    return info;
}
