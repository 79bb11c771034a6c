# numba.stencil: relative indexing in one, two and three dimensions, the neighborhood found
# from the constant indices or given, cval (border cells), standard_indexing, a scalar argument,
# out=, result types inferred from the kernel (int, float, bool), several input arrays, the
# "constant" mode spelled out; called from Python, from @njit code and from
# @njit(parallel=True) code; the errors Numba raises for bad kernels and options.
import numpy as np
from numba import njit, stencil


@stencil
def avg3(a):
    return (a[-1] + a[0] + a[1]) / 3


@stencil
def diff_int(a):
    return a[1] - a[-1]


@stencil(cval=-1.5)
def lap(a):
    return a[-1, 0] + a[1, 0] + a[0, -1] + a[0, 1] - 4 * a[0, 0]


@stencil(neighborhood=((-2, 0),))
def trailing(a):
    acc = 0.0
    for i in range(-2, 1):
        acc += a[i]
    return acc / 3


@stencil(standard_indexing=("w",))
def weighted(a, w):
    return w[0] * a[-1] + w[1] * a[0] + w[2] * a[1]


@stencil
def scaled(a, k):
    return k * (a[0, 1] - a[0, -1])


@stencil("constant", cval=7)
def above(a, b):
    return a[0, 0] > b[-1, 0]


@stencil
def box3(a):
    return a[-1, -1, -1] + a[1, 1, 1] + a[0, 0, 0]


@stencil(cval=np.nan)
def nan_border(a):
    return a[-1] * a[1]


@stencil
def lopsided(a):
    return a[2] - a[1]


@njit
def lap_twice(a):
    return lap(lap(a))


@njit
def smooth_then_sum(a):
    return avg3(a).sum()


@njit(parallel=True)
def lap_parallel(a):
    return lap(a)


@njit(parallel=True)
def weighted_parallel(a, w):
    b = weighted(a, w)
    return b * 2.0


def show(label, r):
    print(label, type(r).__name__, r.dtype, r.shape, r.tolist())


if __name__ == "__main__":
    x = np.arange(10.0) ** 2
    show("avg3", avg3(x))
    show("avg3-int", avg3(np.arange(8)))
    show("diff_int", diff_int(np.arange(9) * 3))
    show("diff_int32", diff_int(np.arange(6, dtype=np.int32)))
    g = np.arange(30.0).reshape(5, 6) ** 1.5
    show("lap", lap(g))
    show("lap-f32", lap(g.astype(np.float32)))
    show("trailing", trailing(x))
    show("weighted", weighted(x, np.array([0.25, 0.5, 0.25])))
    show("scaled", scaled(g, 0.5))
    show("scaled-int", scaled(np.arange(12).reshape(3, 4), 3))
    show("above", above(g, g.T.copy().reshape(5, 6)))
    show("box3", box3(np.arange(64.0).reshape(4, 4, 4)))
    show("nan_border", nan_border(x))
    show("lopsided", lopsided(np.arange(7.0)))
    out = np.full(10, 99.0)
    r = avg3(x, out=out)
    show("avg3-out", out)
    print("out-is-result", r is out or np.shares_memory(r, out))
    out2 = np.full((5, 6), 99.0)
    lap(g, out=out2)
    show("lap-out-cval", out2)
    show("lap_twice", lap_twice(g))
    print("smooth_then_sum", repr(smooth_then_sum(x)))
    big = np.sin(np.arange(200 * 300.0)).reshape(200, 300)
    print("lap_parallel", np.allclose(lap_parallel(big), lap(big)), lap_parallel(big).shape)
    show("lap_parallel-small", lap_parallel(g))
    show("weighted_parallel", weighted_parallel(x, np.array([1.0, -2.0, 1.0])))
    for bad in ("mode", "option"):
        try:
            if bad == "mode":
                stencil("reflect")(lambda a: a[0])
            else:
                stencil(padding=1)(lambda a: a[0])
        except ValueError as e:
            print(bad, type(e).__name__, e)
    try:
        trailing(g)
    except Exception as e:
        print("trailing-2d", type(e).__name__, e)
