/* linalg_kernel.h — the kernels of runtime/linalg.c, written once and included once per
 * (element type, instruction set): a template, not a header of its own.  Before including it,
 * linalg.c defines
 *   LK_T       the element type (double or float)
 *   LK_VW      elements per vector register of the instruction set (GCC vector extensions:
 *              the compiler maps an LK_V onto zmm, ymm or xmm registers)
 *   LK_NV      vectors per row of the register tile (the tile is LK_MR x LK_NV * LK_VW)
 *   LK_MR      rows of the register tile
 *   LK_KC      steps of k per packed block (the kernel's B panel, KC x NR, stays in L1)
 *   LK_ATTR    the function attribute selecting the instruction set (target("..."))
 *   LK(x)      the name of x in this instance (x ## _f64_avx512 ...)
 * and gets the static functions LK(gemm), LK(getrf) and LK(getrs).
 *
 * The matrix product follows the Goto/BLIS scheme: C = A B is cut into blocks of KC columns of
 * A (rows of B) and NC columns of B; each B block is copied ("packed") into panels of NR
 * columns stored k by k, each MC-row block of A into panels of MR rows stored k by k, so that
 * the innermost kernel reads both operands contiguously whatever the strides of the arrays
 * (C order, F order, transposed, sliced); the kernel keeps an MR x NR tile of C in registers
 * for the whole KC loop (MR broadcasts and NV loads per step for MR * NV fused multiply-adds)
 * and adds it to C once.  Panels are padded with zeros to whole tiles, so the kernel has no
 * edge cases; partial tiles go through a small buffer.  Products with one row or one column
 * (matrix-vector) skip the packing: a dot product per row when the matrix's rows are
 * contiguous, a sum of scaled columns when its columns are.
 *
 * The LU factorization is LAPACK's unblocked right-looking getf2 (partial pivoting on the
 * first largest |a_ij| in the column, rows swapped across the whole matrix, the column below
 * the pivot scaled by its reciprocal, a rank-one update of the rest) on a column-major copy:
 * every inner loop runs down a contiguous column.  getrs then applies the row swaps and solves
 * with the unit lower and the upper triangle, column by column of the right-hand sides.
 */

#define LK_NR (LK_NV * LK_VW)
typedef LK_T LK(vec) __attribute__((vector_size(LK_VW * sizeof(LK_T))));

enum { LK(KC) = LK_KC, LK(MC) = 16 * LK_MR, LK(NC) = 2048 };

static inline LK_ATTR LK(vec) LK(load)(const LK_T *p) {
    LK(vec) v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline LK_ATTR void LK(store)(LK_T *p, LK(vec) v) { memcpy(p, &v, sizeof v); }

/* The MR x NR tile C += or = Ap Bp over kc steps.  Ap: kc groups of MR, Bp: kc groups of NR.
 * Into c (row stride ldc elements, rows contiguous) when full, else into the buffer t. */
static LK_ATTR void LK(micro)(int64_t kc, const LK_T *restrict ap, const LK_T *restrict bp,
                              LK_T *restrict c, int64_t ldc, bool first) {
    LK(vec) acc[LK_MR][LK_NV];
#pragma GCC unroll 16
    for (int i = 0; i < LK_MR; i++)
#pragma GCC unroll 4
        for (int v = 0; v < LK_NV; v++)
            acc[i][v] = (LK(vec)){0};
    for (int64_t p = 0; p < kc; p++) {
        LK(vec) b[LK_NV];
#pragma GCC unroll 4
        for (int v = 0; v < LK_NV; v++)
            b[v] = LK(load)(bp + v * LK_VW);
#pragma GCC unroll 16
        for (int i = 0; i < LK_MR; i++) {
            LK(vec) a = (LK(vec)){0} + ap[i];
#pragma GCC unroll 4
            for (int v = 0; v < LK_NV; v++)
                acc[i][v] += a * b[v];
        }
        ap += LK_MR;
        bp += LK_NR;
    }
#pragma GCC unroll 16
    for (int i = 0; i < LK_MR; i++)
#pragma GCC unroll 4
        for (int v = 0; v < LK_NV; v++) {
            LK_T *q = c + i * ldc + v * LK_VW;
            LK(store)(q, first ? acc[i][v] : acc[i][v] + LK(load)(q));
        }
}

/* C element (i, j) of a matrix with byte strides s0, s1 */
#define LK_AT(base, i, j, s0, s1) ((LK_T *)((char *)(base) + (i) * (s0) + (j) * (s1)))

/* y[m] = A[m, k] x[k], x contiguous and y contiguous (buffers of the caller) */
static LK_ATTR void LK(gemv_buf)(int64_t m, int64_t k, const char *a, int64_t a0, int64_t a1,
                                 const LK_T *restrict x, LK_T *restrict y) {
    if (a1 == (int64_t)sizeof(LK_T)) { /* rows contiguous: a dot product per row */
        for (int64_t i = 0; i < m; i++) {
            const LK_T *r = (const LK_T *)(a + i * a0);
            LK(vec) s[4] = {{0}, {0}, {0}, {0}};
            int64_t p = 0;
            for (; p + 4 * LK_VW <= k; p += 4 * LK_VW)
#pragma GCC unroll 4
                for (int u = 0; u < 4; u++)
                    s[u] += LK(load)(r + p + u * LK_VW) * LK(load)(x + p + u * LK_VW);
            LK(vec) t = (s[0] + s[1]) + (s[2] + s[3]);
            LK_T sum = 0;
            for (int l = 0; l < LK_VW; l++)
                sum += t[l];
            for (; p < k; p++)
                sum += r[p] * x[p];
            y[i] = sum;
        }
        return;
    }
    for (int64_t i = 0; i < m; i++)
        y[i] = 0;
    if (a0 == (int64_t)sizeof(LK_T)) { /* columns contiguous: y += x[p] * A[:, p] */
        for (int64_t p = 0; p < k; p++) {
            const LK_T *col = (const LK_T *)(a + p * a1);
            LK(vec) xv = (LK(vec)){0} + x[p];
            int64_t i = 0;
            for (; i + LK_VW <= m; i += LK_VW)
                LK(store)(y + i, LK(load)(y + i) + xv * LK(load)(col + i));
            for (; i < m; i++)
                y[i] += x[p] * col[i];
        }
        return;
    }
    for (int64_t i = 0; i < m; i++) {
        LK_T sum = 0;
        for (int64_t p = 0; p < k; p++)
            sum += *LK_AT(a, i, p, a0, a1) * x[p];
        y[i] = sum;
    }
}

/* y = A x with any strides; false when the buffers could not be had */
static LK_ATTR bool LK(gemv)(int64_t m, int64_t k, const char *a, int64_t a0, int64_t a1,
                             const char *x, int64_t xs, char *y, int64_t ys) {
    LK_T *buf = malloc(sizeof(LK_T) * (size_t)(m + k + 1));
    if (!buf)
        return false;
    LK_T *xb = buf, *yb = buf + k;
    for (int64_t p = 0; p < k; p++)
        xb[p] = *(const LK_T *)(x + p * xs);
    LK(gemv_buf)(m, k, a, a0, a1, xb, yb);
    for (int64_t i = 0; i < m; i++)
        *(LK_T *)(y + i * ys) = yb[i];
    free(buf);
    return true;
}

/* C[m, n] = A[m, k] B[k, n], every matrix with byte strides (a0, a1) ... */
static LK_ATTR void LK(gemm)(int64_t m, int64_t n, int64_t k, const char *a, int64_t a0,
                             int64_t a1, const char *b, int64_t b0, int64_t b1, char *c,
                             int64_t c0, int64_t c1) {
    if (m == 0 || n == 0)
        return;
    if (k == 0) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                *LK_AT(c, i, j, c0, c1) = 0;
        return;
    }
    if (n == 1 && LK(gemv)(m, k, a, a0, a1, b, b0, c, c0))
        return;
    if (m == 1 && LK(gemv)(n, k, b, b1, b0, a, a1, c, c1)) /* C^T = B^T A^T */
        return;
    int64_t kcmax = k < LK(KC) ? k : LK(KC);
    int64_t mcmax = m < LK(MC) ? m : LK(MC), ncmax = n < LK(NC) ? n : LK(NC);
    int64_t mcpad = (mcmax + LK_MR - 1) / LK_MR * LK_MR, ncpad = (ncmax + LK_NR - 1) / LK_NR * LK_NR;
    /* panels lie a cache line further apart than they need: at a power-of-two distance the
     * loads of the kernel's two streams collide in the cache (kc = 256 ran at 40% speed) */
    const int64_t pad = 64 / (int64_t)sizeof(LK_T);
    size_t abytes = sizeof(LK_T) * (size_t)(mcpad / LK_MR * (kcmax * LK_MR + pad));
    size_t bbytes = sizeof(LK_T) * (size_t)(ncpad / LK_NR * (kcmax * LK_NR + pad));
    abytes = (abytes + 63) / 64 * 64;
    bbytes = (bbytes + 63) / 64 * 64;
    LK_T *ap = aligned_alloc(64, abytes), *bp = aligned_alloc(64, bbytes);
    if (!ap || !bp) { /* no memory for the panels: the plain triple loop */
        free(ap);
        free(bp);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                LK_T s = 0;
                for (int64_t p = 0; p < k; p++)
                    s += *LK_AT(a, i, p, a0, a1) * *LK_AT(b, p, j, b0, b1);
                *LK_AT(c, i, j, c0, c1) = s;
            }
        return;
    }
    bool crow = c1 == (int64_t)sizeof(LK_T) && c0 % (int64_t)sizeof(LK_T) == 0;
    LK_T tile[LK_MR * LK_NR];
    for (int64_t jc = 0; jc < n; jc += LK(NC)) {
        int64_t nc = n - jc < LK(NC) ? n - jc : LK(NC);
        for (int64_t pc = 0; pc < k; pc += LK(KC)) {
            int64_t kc = k - pc < LK(KC) ? k - pc : LK(KC);
            /* B[pc:pc+kc, jc:jc+nc] into panels of NR columns, k by k, zero-padded */
            for (int64_t jr = 0; jr < nc; jr += LK_NR) {
                LK_T *dst = bp + jr / LK_NR * (kc * LK_NR + pad);
                int64_t nr = nc - jr < LK_NR ? nc - jr : LK_NR;
                for (int64_t p = 0; p < kc; p++) {
                    const char *row = b + (pc + p) * b0 + (jc + jr) * b1;
                    if (nr == LK_NR && b1 == (int64_t)sizeof(LK_T))
                        memcpy(dst, row, sizeof(LK_T) * LK_NR);
                    else {
                        int64_t j = 0;
                        for (; j < nr; j++)
                            dst[j] = *(const LK_T *)(row + j * b1);
                        for (; j < LK_NR; j++)
                            dst[j] = 0;
                    }
                    dst += LK_NR;
                }
            }
            for (int64_t ic = 0; ic < m; ic += LK(MC)) {
                int64_t mc = m - ic < LK(MC) ? m - ic : LK(MC);
                /* A[ic:ic+mc, pc:pc+kc] into panels of MR rows, k by k, zero-padded */
                for (int64_t ir = 0; ir < mc; ir += LK_MR) {
                    LK_T *dst = ap + ir / LK_MR * (kc * LK_MR + pad);
                    int64_t mr = mc - ir < LK_MR ? mc - ir : LK_MR;
                    const char *base = a + (ic + ir) * a0 + pc * a1;
                    if (mr == LK_MR && a0 == (int64_t)sizeof(LK_T)) {
                        for (int64_t p = 0; p < kc; p++, dst += LK_MR)
                            memcpy(dst, base + p * a1, sizeof(LK_T) * LK_MR);
                    } else {
                        for (int64_t p = 0; p < kc; p++, dst += LK_MR) {
                            int64_t i = 0;
                            for (; i < mr; i++)
                                dst[i] = *(const LK_T *)(base + i * a0 + p * a1);
                            for (; i < LK_MR; i++)
                                dst[i] = 0;
                        }
                    }
                }
                for (int64_t jr = 0; jr < nc; jr += LK_NR) {
                    int64_t nr = nc - jr < LK_NR ? nc - jr : LK_NR;
                    for (int64_t ir = 0; ir < mc; ir += LK_MR) {
                        int64_t mr = mc - ir < LK_MR ? mc - ir : LK_MR;
                        LK_T *cij = LK_AT(c, ic + ir, jc + jr, c0, c1);
                        const LK_T *pa = ap + ir / LK_MR * (kc * LK_MR + pad);
                        const LK_T *pb = bp + jr / LK_NR * (kc * LK_NR + pad);
                        if (crow && mr == LK_MR && nr == LK_NR) {
                            LK(micro)(kc, pa, pb, cij,
                                      c0 / (int64_t)sizeof(LK_T), pc == 0);
                            continue;
                        }
                        LK(micro)(kc, pa, pb, tile, LK_NR, true);
                        for (int64_t i = 0; i < mr; i++)
                            for (int64_t j = 0; j < nr; j++) {
                                LK_T *q = LK_AT(cij, i, j, c0, c1);
                                *q = pc == 0 ? tile[i * LK_NR + j] : *q + tile[i * LK_NR + j];
                            }
                    }
                }
            }
        }
    }
    free(ap);
    free(bp);
}

/* w (n x n, column-major) = its LU factors, piv[j] the row swapped with row j; returns
 * LAPACK's info: 0, or j + 1 for the first exactly zero pivot u_jj. */
static LK_ATTR int64_t LK(getrf)(int64_t n, LK_T *restrict w, int64_t *restrict piv) {
    int64_t info = 0;
    for (int64_t j = 0; j < n; j++) {
        LK_T *cj = w + j * n;
        int64_t p = j;
        LK_T best = cj[j] < 0 ? -cj[j] : cj[j];
        for (int64_t i = j + 1; i < n; i++) {
            LK_T v = cj[i] < 0 ? -cj[i] : cj[i];
            if (v > best)
                best = v, p = i;
        }
        piv[j] = p;
        if (cj[p] != 0) {
            if (p != j)
                for (int64_t c = 0; c < n; c++) {
                    LK_T t = w[c * n + j];
                    w[c * n + j] = w[c * n + p];
                    w[c * n + p] = t;
                }
            LK_T r = 1 / cj[j];
            for (int64_t i = j + 1; i < n; i++)
                cj[i] *= r;
        } else if (info == 0) {
            info = j + 1;
        }
        for (int64_t c = j + 1; c < n; c++) {
            LK_T *cc = w + c * n;
            LK_T t = cc[j];
            if (t == 0)
                continue;
            LK(vec) tv = (LK(vec)){0} + t;
            int64_t i = j + 1;
            for (; i + LK_VW <= n; i += LK_VW)
                LK(store)(cc + i, LK(load)(cc + i) - tv * LK(load)(cj + i));
            for (; i < n; i++)
                cc[i] -= t * cj[i];
        }
    }
    return info;
}

/* x (n x nrhs, column-major) = A^-1 x from getrf's factors w and piv (no zero pivot) */
static LK_ATTR void LK(getrs)(int64_t n, int64_t nrhs, const LK_T *restrict w,
                              const int64_t *restrict piv, LK_T *restrict x) {
    for (int64_t r = 0; r < nrhs; r++) {
        LK_T *b = x + r * n;
        for (int64_t j = 0; j < n; j++)
            if (piv[j] != j) {
                LK_T t = b[j];
                b[j] = b[piv[j]];
                b[piv[j]] = t;
            }
        for (int64_t j = 0; j < n; j++) { /* L (unit diagonal) */
            LK_T t = b[j];
            if (t == 0)
                continue;
            const LK_T *cj = w + j * n;
            for (int64_t i = j + 1; i < n; i++)
                b[i] -= t * cj[i];
        }
        for (int64_t j = n - 1; j >= 0; j--) { /* U */
            if (b[j] == 0)
                continue;
            const LK_T *cj = w + j * n;
            b[j] /= cj[j];
            LK_T t = b[j];
            for (int64_t i = 0; i < j; i++)
                b[i] -= t * cj[i];
        }
    }
}

#undef LK_NR
#undef LK_AT
