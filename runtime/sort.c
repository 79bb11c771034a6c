/* sort.c — sorting and selection for compiled code: the functions of ir/rtcall.def, which the
 * JIT resolves by name (rt_sort_define makes them absolute symbols of each JIT, as random.c's).
 *
 * The algorithms are Numba 0.56's, statement for statement, so that every result is Numba's
 * and not merely "a" sorted order: where elements compare equal (ties, -0.0 and 0.0, NaNs) the
 * order they end up in, and so argsort's indices and the sign of a zero that np.sort or
 * np.median returns, depend on the exact sequence of comparisons and swaps.
 *   quicksort  numba/misc/quicksort.py: an explicit stack (of 100 entries, enough for the
 *              smaller-side-first order), median-of-three pivot stashed at the end,
 *              Hoare-style partition, insertion sort for ranges under 16 elements.  Used by
 *              a.sort(), np.sort and argsort (kind='quicksort', on the indices).
 *   mergesort  numba/misc/mergesort.py (NumPy's): top-down, insertion sort up to 20 elements,
 *              the left half copied to a workspace; stable.  argsort(kind='mergesort').
 *   select     numba/np/arraymath.py's _select and _select_two (median, percentile): the same
 *              partition with a plain <, so NaNs land where that comparison puts them.
 * Floats of the sorts compare by Numba's lt_floats, isnan(b) || a < b: every number is less
 * than NaN (so NaNs go last) and, as in Numba, a NaN is "less" than a NaN.
 *
 * Each algorithm is a macro instantiated per element type (the 11 dtypes), dispatched on the
 * TypeKind the compiled code passes; the value sort has a contiguous instance (the stride a
 * constant) and a strided one, and floats without NaN (checked first, a vectorized scan) take
 * an instance comparing with a plain <, which makes exactly the same comparisons' decisions.  Nothing here allocates or fails: workspaces come from the
 * compiled code.  Compiled as ISO C11 (no FMA contraction), so percentile's arithmetic rounds
 * as Numba's IR does.
 */
#include "runtime.h"

#include <math.h>
#include <string.h>

enum { SMALL_QUICKSORT = 15, MAX_STACK = 100, SMALL_MERGESORT = 20 };

#define LT_PLAIN(a, b) ((a) < (b))
#define LT_FLOAT(a, b) (isnan(b) || (a) < (b))

/* Numba's quicksort over "R" (the values themselves, or indices into the values), R's element
 * i at RAT(i), GET(r) the value an element r of R stands for.  NAME(base, rs, n, vals, vs). */
#define DEF_QUICKSORT(NAME, RT, VT, RAT, GET, LT)                                              \
    static void NAME(char *rb, int64_t rs, int64_t n, const char *vb, int64_t vs) {            \
        (void)rs, (void)vb, (void)vs;                                                          \
        if (n < 2)                                                                             \
            return;                                                                            \
        int64_t st_lo[MAX_STACK], st_hi[MAX_STACK];                                            \
        st_lo[0] = 0, st_hi[0] = n - 1;                                                        \
        int sp = 1;                                                                            \
        RT tmp;                                                                                \
        while (sp > 0) {                                                                       \
            sp--;                                                                              \
            int64_t low = st_lo[sp], high = st_hi[sp];                                         \
            while (high - low >= SMALL_QUICKSORT) {                                            \
                /* partition */                                                                \
                int64_t mid = (low + high) >> 1;                                               \
                if (LT(GET(RAT(mid)), GET(RAT(low))))                                          \
                    tmp = RAT(low), RAT(low) = RAT(mid), RAT(mid) = tmp;                       \
                if (LT(GET(RAT(high)), GET(RAT(mid))))                                         \
                    tmp = RAT(high), RAT(high) = RAT(mid), RAT(mid) = tmp;                     \
                if (LT(GET(RAT(mid)), GET(RAT(low))))                                          \
                    tmp = RAT(low), RAT(low) = RAT(mid), RAT(mid) = tmp;                       \
                VT pivot = GET(RAT(mid));                                                      \
                tmp = RAT(high), RAT(high) = RAT(mid), RAT(mid) = tmp;                         \
                int64_t i = low, j = high - 1;                                                 \
                for (;;) {                                                                     \
                    while (i < high && LT(GET(RAT(i)), pivot))                                 \
                        i++;                                                                   \
                    while (j >= low && LT(pivot, GET(RAT(j))))                                 \
                        j--;                                                                   \
                    if (i >= j)                                                                \
                        break;                                                                 \
                    tmp = RAT(i), RAT(i) = RAT(j), RAT(j) = tmp;                               \
                    i++;                                                                       \
                    j--;                                                                       \
                }                                                                              \
                tmp = RAT(i), RAT(i) = RAT(high), RAT(high) = tmp;                             \
                /* the larger side waits on the stack, the smaller goes on */                  \
                if (high - i > i - low) {                                                      \
                    if (high > i && sp < MAX_STACK)                                            \
                        st_lo[sp] = i + 1, st_hi[sp] = high, sp++;                             \
                    high = i - 1;                                                              \
                } else {                                                                       \
                    if (i > low && sp < MAX_STACK)                                             \
                        st_lo[sp] = low, st_hi[sp] = i - 1, sp++;                              \
                    low = i + 1;                                                               \
                }                                                                              \
            }                                                                                  \
            /* insertion sort of [low, high] */                                                \
            for (int64_t i = low + 1; i <= high; i++) {                                        \
                RT k = RAT(i);                                                                 \
                VT v = GET(k);                                                                 \
                int64_t j = i;                                                                 \
                while (j > low && LT(v, GET(RAT(j - 1)))) {                                    \
                    RAT(j) = RAT(j - 1);                                                       \
                    j--;                                                                       \
                }                                                                              \
                RAT(j) = k;                                                                    \
            }                                                                                  \
        }                                                                                      \
    }

/* Numba's argmergesort_inner on the int64 indices arr[0..n), values at vb + idx * vs. */
#define DEF_MERGESORT(NAME, VT, LT)                                                            \
    static void NAME(int64_t *arr, int64_t n, const char *vb, int64_t vs, int64_t *ws) {       \
        if (n > SMALL_MERGESORT) {                                                             \
            int64_t mid = n / 2;                                                               \
            NAME(arr, mid, vb, vs, ws);                                                        \
            NAME(arr + mid, n - mid, vb, vs, ws);                                              \
            memcpy(ws, arr, (size_t)mid * sizeof *ws);                                         \
            int64_t *right = arr + mid, nr = n - mid, i = 0, j = 0, k = 0;                     \
            while (i < mid && j < nr) {                                                        \
                if (!LT(VAL(VT, right[j]), VAL(VT, ws[i])))                                    \
                    arr[k] = ws[i++];                                                          \
                else                                                                           \
                    arr[k] = right[j++];                                                       \
                k++;                                                                           \
            }                                                                                  \
            while (i < mid)                                                                    \
                arr[k++] = ws[i++];                                                            \
            while (j < nr)                                                                     \
                arr[k++] = right[j++];                                                         \
        } else {                                                                               \
            for (int64_t i = 1; i < n; i++)                                                    \
                for (int64_t j = i; j > 0 && LT(VAL(VT, arr[j]), VAL(VT, arr[j - 1])); j--) {  \
                    int64_t t = arr[j - 1];                                                    \
                    arr[j - 1] = arr[j], arr[j] = t;                                           \
                }                                                                              \
        }                                                                                      \
    }

/* Numba's _partition (plain <) on A[low..high], contiguous; returns the pivot's place. */
#define DEF_SELECT(SUF, T)                                                                     \
    static int64_t partition_##SUF(T *A, int64_t low, int64_t high) {                          \
        int64_t mid = (low + high) >> 1;                                                       \
        T t;                                                                                   \
        if (A[mid] < A[low])                                                                   \
            t = A[low], A[low] = A[mid], A[mid] = t;                                           \
        if (A[high] < A[mid])                                                                  \
            t = A[high], A[high] = A[mid], A[mid] = t;                                         \
        if (A[mid] < A[low])                                                                   \
            t = A[low], A[low] = A[mid], A[mid] = t;                                           \
        T pivot = A[mid];                                                                      \
        t = A[high], A[high] = A[mid], A[mid] = t;                                             \
        int64_t i = low, j = high - 1;                                                         \
        for (;;) {                                                                             \
            while (i < high && A[i] < pivot)                                                   \
                i++;                                                                           \
            while (j >= low && pivot < A[j])                                                   \
                j--;                                                                           \
            if (i >= j)                                                                        \
                break;                                                                         \
            t = A[i], A[i] = A[j], A[j] = t;                                                   \
            i++;                                                                               \
            j--;                                                                               \
        }                                                                                      \
        t = A[i], A[i] = A[high], A[high] = t;                                                 \
        return i;                                                                              \
    }                                                                                          \
    static void select_##SUF(T *A, int64_t k, int64_t low, int64_t high) {                     \
        int64_t i = partition_##SUF(A, low, high);                                             \
        while (i != k) {                                                                       \
            if (i < k)                                                                         \
                low = i + 1;                                                                   \
            else                                                                               \
                high = i - 1;                                                                  \
            i = partition_##SUF(A, low, high);                                                 \
        }                                                                                      \
    }                                                                                          \
    static void select_two_##SUF(T *A, int64_t k, int64_t low, int64_t high) {                 \
        while (high > low) {                                                                   \
            int64_t i = partition_##SUF(A, low, high);                                         \
            if (i < k)                                                                         \
                low = i + 1;                                                                   \
            else if (i > k + 1)                                                                \
                high = i - 1;                                                                  \
            else if (i == k) {                                                                 \
                select_##SUF(A, k + 1, i + 1, high);                                           \
                return;                                                                        \
            } else {                                                                           \
                select_##SUF(A, k, low, i - 1);                                                \
                return;                                                                        \
            }                                                                                  \
        }                                                                                      \
    }

#define VAL(VT, idx) (*(const VT *)(vb + (idx) * vs))
#define SELF(x) (x)

/* One set of functions per element type: SUF names it, LT is its comparison. */
#define DEF_ALL(SUF, T, LT)                                                                    \
    DEF_QUICKSORT(qsort_c_##SUF, T, T, RAT_C, SELF, LT)                                        \
    DEF_QUICKSORT(qsort_s_##SUF, T, T, RAT_S, SELF, LT)                                        \
    DEF_QUICKSORT(aqsort_##SUF, int64_t, T, RAT_I, GET_V, LT)                                  \
    DEF_MERGESORT(amsort_##SUF, T, LT)                                                         \
    DEF_SELECT(SUF, T)

#define RAT_C(i) (((RT_ *)rb)[i])
#define RAT_S(i) (*(RT_ *)(rb + (i) * rs))
#define RAT_I(i) (((int64_t *)rb)[i])
#define GET_V(r) VAL(VT_, r)

/* RT_ and VT_ name the element and value types inside the instances. */
#define RT_ T_
#define VT_ T_
#define T_ bool
DEF_ALL(b, bool, LT_PLAIN)
#undef T_
#define T_ int8_t
DEF_ALL(i8, int8_t, LT_PLAIN)
#undef T_
#define T_ int16_t
DEF_ALL(i16, int16_t, LT_PLAIN)
#undef T_
#define T_ int32_t
DEF_ALL(i32, int32_t, LT_PLAIN)
#undef T_
#define T_ int64_t
DEF_ALL(i64, int64_t, LT_PLAIN)
#undef T_
#define T_ uint8_t
DEF_ALL(u8, uint8_t, LT_PLAIN)
#undef T_
#define T_ uint16_t
DEF_ALL(u16, uint16_t, LT_PLAIN)
#undef T_
#define T_ uint32_t
DEF_ALL(u32, uint32_t, LT_PLAIN)
#undef T_
#define T_ uint64_t
DEF_ALL(u64, uint64_t, LT_PLAIN)
#undef T_
#define T_ float
DEF_ALL(f32, float, LT_FLOAT)
#undef T_
#define T_ double
DEF_ALL(f64, double, LT_FLOAT)
#undef T_
/* Floats known to hold no NaN: isnan(b) || a < b is then a < b, the same comparisons with
 * less work in the innermost loops. */
#define T_ float
DEF_QUICKSORT(qsort_c_f32n, float, float, RAT_C, SELF, LT_PLAIN)
DEF_QUICKSORT(qsort_s_f32n, float, float, RAT_S, SELF, LT_PLAIN)
DEF_QUICKSORT(aqsort_f32n, int64_t, float, RAT_I, GET_V, LT_PLAIN)
#undef T_
#define T_ double
DEF_QUICKSORT(qsort_c_f64n, double, double, RAT_C, SELF, LT_PLAIN)
DEF_QUICKSORT(qsort_s_f64n, double, double, RAT_S, SELF, LT_PLAIN)
DEF_QUICKSORT(aqsort_f64n, int64_t, double, RAT_I, GET_V, LT_PLAIN)
#undef T_

/* Whether n floats (kind TY_F32 or TY_F64) at b, stride s, hold no NaN. */
static bool no_nan(const char *b, int64_t n, int64_t s, int64_t kind) {
    bool nan = false;
    if (kind == TY_F64 && s == 8)
        for (int64_t i = 0; i < n; i++)
            nan |= isnan(((const double *)b)[i]);
    else if (kind == TY_F32 && s == 4)
        for (int64_t i = 0; i < n; i++)
            nan |= isnan(((const float *)b)[i]);
    else if (kind == TY_F64)
        for (int64_t i = 0; i < n; i++)
            nan |= isnan(*(const double *)(b + i * s));
    else
        for (int64_t i = 0; i < n; i++)
            nan |= isnan(*(const float *)(b + i * s));
    return !nan;
}

/* Calls F##_<suffix of kind>(args...) for the element type kind. */
#define DISPATCH(kind, F, ...)                                                                 \
    switch ((TypeKind)(kind)) {                                                                \
    case TY_BOOL: F##_b(__VA_ARGS__); break;                                                   \
    case TY_I8: F##_i8(__VA_ARGS__); break;                                                    \
    case TY_I16: F##_i16(__VA_ARGS__); break;                                                  \
    case TY_I32: F##_i32(__VA_ARGS__); break;                                                  \
    case TY_I64: F##_i64(__VA_ARGS__); break;                                                  \
    case TY_U8: F##_u8(__VA_ARGS__); break;                                                    \
    case TY_U16: F##_u16(__VA_ARGS__); break;                                                  \
    case TY_U32: F##_u32(__VA_ARGS__); break;                                                  \
    case TY_U64: F##_u64(__VA_ARGS__); break;                                                  \
    case TY_F32: F##_f32(__VA_ARGS__); break;                                                  \
    case TY_F64: F##_f64(__VA_ARGS__); break;                                                  \
    default: break;                                                                            \
    }

/* ---- the functions of ir/rtcall.def ---------------------------------------------------------- */
void numjit_rt_sort(int64_t addr, int64_t n, int64_t stride, int64_t kind);
void numjit_rt_argsort(int64_t addr, int64_t n, int64_t stride, int64_t kind, int64_t out,
                       int64_t ws);
void numjit_rt_select(int64_t addr, int64_t n, int64_t k, int64_t kind);
void numjit_rt_select_two(int64_t addr, int64_t n, int64_t k, int64_t kind);
int64_t numjit_rt_nan_compact(int64_t addr, int64_t n, int64_t kind);
double numjit_rt_percentile(int64_t addr, int64_t n, double q);

void numjit_rt_sort(int64_t addr, int64_t n, int64_t stride, int64_t kind) {
    char *b = (char *)(uintptr_t)addr;
    if (kind < TY_BOOL || kind > TY_F64)
        return;
    bool contiguous = stride == ty_size(ty_scalar((TypeKind)kind));
    if ((kind == TY_F64 || kind == TY_F32) && n >= 2 && no_nan(b, n, stride, kind)) {
        if (kind == TY_F64)
            (contiguous ? qsort_c_f64n : qsort_s_f64n)(b, stride, n, NULL, 0);
        else
            (contiguous ? qsort_c_f32n : qsort_s_f32n)(b, stride, n, NULL, 0);
        return;
    }
    if (contiguous) {
        DISPATCH(kind, qsort_c, b, stride, n, NULL, 0)
    } else {
        DISPATCH(kind, qsort_s, b, stride, n, NULL, 0)
    }
}

void numjit_rt_argsort(int64_t addr, int64_t n, int64_t stride, int64_t kind, int64_t out,
                       int64_t ws) {
    int64_t *r = (int64_t *)(uintptr_t)out;
    for (int64_t i = 0; i < n; i++)
        r[i] = i;
    const char *vb = (const char *)(uintptr_t)addr;
    if (ws) {
        DISPATCH(kind, amsort, r, n, vb, stride, (int64_t *)(uintptr_t)ws)
    } else if ((kind == TY_F64 || kind == TY_F32) && no_nan(vb, n, stride, kind)) {
        (kind == TY_F64 ? aqsort_f64n : aqsort_f32n)((char *)r, 8, n, vb, stride);
    } else {
        DISPATCH(kind, aqsort, (char *)r, 8, n, vb, stride)
    }
}

void numjit_rt_select(int64_t addr, int64_t n, int64_t k, int64_t kind) {
    if (n > 0 && k >= 0 && k < n)
        DISPATCH(kind, select, (void *)(uintptr_t)addr, k, 0, n - 1)
}

void numjit_rt_select_two(int64_t addr, int64_t n, int64_t k, int64_t kind) {
    if (k >= 0 && k + 1 < n)
        DISPATCH(kind, select_two, (void *)(uintptr_t)addr, k, 0, n - 1)
}

int64_t numjit_rt_nan_compact(int64_t addr, int64_t n, int64_t kind) {
    int64_t m = 0;
    if (kind == TY_F64) {
        double *a = (double *)(uintptr_t)addr;
        for (int64_t i = 0; i < n; i++)
            if (!isnan(a[i]))
                a[m++] = a[i];
    } else if (kind == TY_F32) {
        float *a = (float *)(uintptr_t)addr;
        for (int64_t i = 0; i < n; i++)
            if (!isnan(a[i]))
                a[m++] = a[i];
    } else {
        m = n;
    }
    return m;
}

/* Numba's _collect_percentiles_inner for one q (0 <= q <= 100) and its single-element rule
 * (_can_collect_percentiles: one element gives itself when finite, else NaN); n == 0 (no
 * element, or NaNs where they may not be skipped) gives NaN. */
double numjit_rt_percentile(int64_t addr, int64_t n, double q) {
    double *a = (double *)(uintptr_t)addr;
    if (n == 0)
        return NAN;
    if (n == 1)
        return isfinite(a[0]) ? a[0] : NAN;
    bool all_finite = true;
    for (int64_t i = 0; i < n; i++)
        all_finite &= isfinite(a[i]) != 0;
    double val;
    if (q == 100) {
        val = a[0];
        for (int64_t i = 1; i < n; i++)
            if (a[i] > val)
                val = a[i];
        if (!all_finite && !isfinite(val))
            val = NAN;
    } else if (q == 0) {
        val = a[0];
        for (int64_t i = 1; i < n; i++)
            if (a[i] < val)
                val = a[i];
        if (!all_finite) {
            int64_t pos = 0, neg = 0;
            for (int64_t i = 0; i < n; i++)
                pos += a[i] == INFINITY, neg += a[i] == -INFINITY;
            int64_t finite = n - (neg + pos);
            if (finite == 0 || (pos == 1 && n == 2) || neg > 1 ||
                (finite == 1 && pos > 1 && neg != 1))
                val = NAN;
        }
    } else {
        double rank = 1 + (double)(n - 1) * (q / 100.0);
        double f = floor(rank);
        double m = rank - f;
        int64_t k = (int64_t)(f - 1);
        select_two_f64(a, k, 0, n - 1);
        val = a[k] * (1 - m) + a[k + 1] * m;
    }
    return val;
}

bool rt_sort_define(CgJit *jit, char **err) {
    const uintptr_t addrs[RT_SORT__COUNT] = { /* the first entries of the rtcall table */
#define X(e, name, args, ret) [e] = (uintptr_t)numjit_rt_##name,
#include "../ir/rtcall.def"
#undef X
    };
    const char *names[RT_SORT__COUNT];
    for (int i = 0; i < RT_SORT__COUNT; i++)
        names[i] = ir_rtcall[i].symbol;
    return cg_jit_define(jit, names, addrs, RT_SORT__COUNT, err);
}
