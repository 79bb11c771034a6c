# gufuncs with a "()" core operand declared as a 1-d array and read as w[0] (a window length or
# a weight beside "(n)" operands, the moving-window style of numbagg): NumPy hands the loop no
# core stride for that operand, so the operands after it must still find theirs.  Scalars,
# 0-d arrays and broadcast 1-d arrays as the "()" operand; targets 'cpu' and 'parallel'; the
# "()" operand first, in the middle and last among the inputs.
import numpy as np
from numba import guvectorize


@guvectorize(["void(float64[:], int64[:], float64[:])"], "(n),()->(n)")
def moving_sum(a, window_arr, out):
    w = window_arr[0]
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        if i >= w:
            s -= a[i - w]
        out[i] = s if i >= w - 1 else np.nan


@guvectorize(["void(float64[:], float64[:], float64[:], float64[:])"], "(),(n),(n)->(n)",
             target="parallel")
def axpy(alpha, x, y, out):
    for i in range(x.shape[0]):
        out[i] = alpha[0] * x[i] + y[i]


@guvectorize(["void(float32[:], float32[:], float32[:], float32[:])"], "(n),(),(m)->(m)")
def shift_scale(a, k, b, out):
    t = a.sum() * k[0]
    for i in range(b.shape[0]):
        out[i] = b[i] + t


def show(label, r):
    print(label, r.dtype, r.shape, np.round(r, 6).tolist())


if __name__ == "__main__":
    x = np.arange(8.0)
    show("moving_sum int", moving_sum(x, 3))
    show("moving_sum 0-d", moving_sum(x, np.asarray(2)))
    show("moving_sum 2-d", moving_sum(x.reshape(2, 4), 2))
    show("moving_sum each window", moving_sum(x[:5], np.array([1, 2, 3])))
    show("axpy scalar", axpy(2.0, x, x + 1.0))
    show("axpy rows", axpy(np.array([1.0, -1.0]), x.reshape(2, 4), np.ones(4)))
    f = np.arange(6, dtype=np.float32)
    show("shift_scale", shift_scale(f[:3], np.float32(0.5), f))
    show("shift_scale batch", shift_scale(f.reshape(2, 3), np.array([1, 2], dtype=np.float32), f[:4]))
    out = np.zeros(8)
    moving_sum(x, 4, out=out)
    show("moving_sum out=", out)
