/* checked.c — size and index arithmetic that cannot overflow: the one place that multiplies
 * extents, turns element counts into byte counts, counts the iterations of range(start, stop,
 * step) and normalizes a Python index.
 *
 * Every product of sizes in numjit (an array's element count from its shape, its byte size, a
 * .npy file's payload, an arange or linspace length) goes through nj_shape_size/nj_byte_size,
 * which refuse a negative extent and a product above INT64_MAX instead of wrapping, so no caller
 * can allocate a small block and then write a large one.  Range lengths are computed in unsigned
 * arithmetic on the distance |stop - start|, so `range(0, 2**63-1, 2**62)` has 2 iterations and
 * the loop never steps past INT64_MAX.  The compiler's generated code follows the same formulas
 * (the typer's range loops, codegen's prange trip count, the typer's index checks); tests compare
 * them with these functions (tests/unit/test_checked.c). */
#include "base.h"

bool nj_mul_size(int64_t a, int64_t b, int64_t *out) {
    int64_t r;
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r))
        return false;
    *out = r;
    return true;
}

NjSizeStatus nj_shape_size(int ndim, const int64_t *shape, int64_t *count) {
    int64_t n = 1;
    bool over = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return NJ_SIZE_NEGATIVE;
        if (!over && !nj_mul_size(n, shape[i], &n))
            over = true; /* a later 0 extent still gives a legal empty array (NumPy's rule) */
    }
    if (over) {
        for (int i = 0; i < ndim; i++)
            if (shape[i] == 0) {
                *count = 0;
                return NJ_SIZE_OK;
            }
        return NJ_SIZE_OVERFLOW;
    }
    *count = n;
    return NJ_SIZE_OK;
}

NjSizeStatus nj_byte_size(int ndim, const int64_t *shape, int64_t itemsize, int64_t *nbytes) {
    int64_t n;
    NjSizeStatus st = nj_shape_size(ndim, shape, &n);
    if (st != NJ_SIZE_OK)
        return st;
    if (!nj_mul_size(n, itemsize, nbytes))
        return NJ_SIZE_OVERFLOW;
    return NJ_SIZE_OK;
}

const char *nj_size_message(NjSizeStatus st) {
    switch (st) {
    case NJ_SIZE_OK:
        return "";
    case NJ_SIZE_NEGATIVE:
        return "negative dimensions not allowed";
    case NJ_SIZE_OVERFLOW:
        break;
    }
    return "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
           "possible size.";
}

uint64_t nj_range_len(int64_t start, int64_t stop, int64_t step) {
    if (step > 0 && start < stop)
        return ((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1;
    if (step < 0 && start > stop)
        return ((uint64_t)start - (uint64_t)stop - 1) / (0 - (uint64_t)step) + 1;
    return 0;
}

uint64_t nj_range_len_u64(uint64_t start, uint64_t stop, int64_t step) {
    if (step > 0 && start < stop)
        return (stop - start - 1) / (uint64_t)step + 1;
    if (step < 0 && start > stop)
        return (start - stop - 1) / (0 - (uint64_t)step) + 1;
    return 0;
}

int64_t nj_range_at(int64_t start, int64_t step, uint64_t k) {
    return (int64_t)((uint64_t)start + k * (uint64_t)step);
}

bool nj_index_norm(int64_t i, int64_t n, int64_t *out) {
    if (n < 0)
        return false;
    if (i < 0)
        i += n; /* cannot overflow: i < 0 <= n */
    if (i < 0 || i >= n)
        return false;
    *out = i;
    return true;
}

bool nj_index_norm_u64(uint64_t i, int64_t n, int64_t *out) {
    if (n < 0 || i >= (uint64_t)n)
        return false; /* an unsigned index never wraps: 2**64-1 is out of range, not -1 */
    *out = (int64_t)i;
    return true;
}
