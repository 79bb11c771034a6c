# gufuncs whose layout has no '->' (Numba reads every operand as an input, nout=0): the kernel
# writes its results into an argument, as numbagg's grouped reductions ('(a),(a),(z)') and
# quantecon's random.probvec ('(n), (k)') do.  On target 'cpu' and 'parallel', with outer
# dimensions broadcast, and the ufunc's nin/nout/signature.  Also which loop a gufunc with
# several signatures runs: Numba's @guvectorize prefers the loop of the inputs' exact dtypes to
# declared order (its @vectorize searches in declared order).
import numpy as np
from numba import guvectorize, vectorize


@guvectorize(["void(float64[:], int64[:], float64[:])", "void(float32[:], int64[:], float32[:])"],
             "(a),(a),(z)", nopython=True)
def group_sum(values, labels, out):
    out[:] = 0
    for i in range(values.shape[0]):
        out[labels[i]] += values[i]


@guvectorize(["(f8[:], f8[:])"], "(n), (k)", nopython=True, target="parallel")
def cumulate(r, out):
    n = r.shape[0]
    out[0] = r[0]
    for i in range(1, n):
        out[i] = out[i - 1] + r[i]
    out[n] = 1.0


@guvectorize(["void(int64[:, :], int64[:])"], "(m,n),(m)", nopython=True)
def row_max(a, out):
    for i in range(a.shape[0]):
        m = a[i, 0]
        for j in range(1, a.shape[1]):
            if a[i, j] > m:
                m = a[i, j]
        out[i] = m


@guvectorize(["void(float64[:], float64[:])", "void(float32[:], float32[:])"], "(n)->()",
             nopython=True)
def first(a, out):
    out[0] = a[0]


@guvectorize(["void(int64[:], float64[:])", "void(int32[:], float32[:])"], "(n)->(n)",
             target="parallel")
def widen(a, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * 0.5


@vectorize(["float64(float64)", "float32(float32)"])
def plus_one(a):
    return a + 1


if __name__ == "__main__":
    for dt in (np.float32, np.float64, np.int16):
        print(first(np.arange(3, dtype=dt) + 1).dtype, first(np.arange(3, dtype=dt) + 1))
    for dt in (np.int32, np.int64, np.int16, np.uint8):
        r = widen(np.arange(4, dtype=dt))
        print(r.dtype, r.tolist())
    print(plus_one(np.zeros(2, dtype=np.float32)).dtype)
    labels = np.array([0, 1, 2, 0, 1, 2])
    out = np.zeros(3)
    res = group_sum(np.arange(6.0), labels, out)
    print(type(res).__name__, res, out.tolist(), out.dtype)
    out2 = np.zeros((2, 3))
    group_sum(np.arange(12.0).reshape(2, 6), labels, out2)
    print(out2.tolist())
    out32 = np.zeros((2, 3), dtype=np.float32)
    group_sum(np.arange(12, dtype=np.float32).reshape(2, 6), labels, out32)
    print(out32.tolist(), out32.dtype)
    print(group_sum.nin, group_sum.nout, group_sum.nargs, group_sum.signature, group_sum.ntypes)

    r = np.linspace(0.1, 0.4, 12).reshape(4, 3)
    cum = np.empty((4, 4))
    cumulate(r, cum)
    print([[round(x, 12) for x in row] for row in cum.tolist()])
    print(cumulate.nin, cumulate.nout, cumulate.signature)

    a = np.array([[[1, 5, 2], [7, 0, 3]], [[-1, -5, -2], [4, 4, 9]]])
    m = np.zeros((2, 2), dtype=np.int64)
    row_max(a, m)
    print(m.tolist(), m.dtype)
    try:
        group_sum(np.arange(6.0), labels)
    except (TypeError, ValueError) as e:
        print(type(e).__name__)
