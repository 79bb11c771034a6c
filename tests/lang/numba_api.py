# Numba's Python API around compiled code: submodules (numba.core.errors, numba.np.numpy_support,
# numba.extending, numba.types), signatures built from type objects, the dispatcher API
# (compile() and its entry point, signatures, nopython_signatures, overloads, disable_compile),
# decorator options with and without signatures (fastmath flag sets, locals=,
# @vectorize(nopython=True), a dynamic @guvectorize from a layout alone, layouts written with
# spaces), register_jitable,
# generated_jit (implementations chosen by argument types, compiled per types).
import math

import numpy as np
import numba
from numba import njit, vectorize, guvectorize, generated_jit, types, float64, int64, float32
from numba.core.errors import TypingError, NumbaWarning, NumbaPerformanceWarning
from numba.core.errors import NumbaDeprecationWarning, NumbaValueError, NumbaError
from numba.np.numpy_support import as_dtype, from_dtype
from numba.extending import register_jitable


@register_jitable
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@njit(nogil=True, cache=False, error_model="numpy", boundscheck=False, inline="never")
def clamped_sum(a, lo, hi):
    s = 0.0
    for v in a:
        s += clamp(v, lo, hi)
    return s


@njit(fastmath={"nsz", "arcp", "contract"}, locals={"s": float64})
def dot_fm(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i] / 4.0
    return s


@njit(fastmath={"fast": True, "reassoc": False}, error_model="numpy")
def recip(x):
    return 1.0 / x


@njit(float64(float64[:], int64))
def scaled(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * k
    return s


@njit
def pair(x, n):
    return x * n, n + 1


@njit(parallel=True)
def psum(a):
    s = 0.0
    for i in numba.prange(a.shape[0]):
        s += a[i]
    return s


@vectorize(nopython=True)
def hyp(x, y):
    return math.sqrt(x * x + y * y)


@vectorize([float32(float32), float64(float64)], nopython=True, fastmath=False)
def half(x):
    return x / 2


@guvectorize("(n),(m)->(m)", nopython=True)
def shift_by_sum(a, b, out):
    s = 0.0
    for v in a:
        s += v
    for i in range(b.shape[0]):
        out[i] = b[i] + s


@guvectorize(["void(float64[:], float64[:, :], float64[:])"], " (n) , ( n, m ) -> (m) ",
             nopython=True)
def vecmat(v, m, out):
    for j in range(m.shape[1]):
        s = 0.0
        for i in range(m.shape[0]):
            s += v[i] * m[i, j]
        out[j] = s


@generated_jit(nopython=True)
def scale_or_sum(x, k=2):
    if isinstance(x, types.Array):
        def impl(x, k=2):
            s = 0.0
            for v in x:
                s += v
            return s * k
        return impl
    if isinstance(x, types.Integer):
        return lambda_free_int
    def impl_scalar(x, k=2):
        return x * k + 0.5
    return impl_scalar


def lambda_free_int(x, k=2):
    return x * k


def show_generated():
    print(repr(scale_or_sum(np.arange(4.0))), repr(scale_or_sum(np.arange(3.0), 3)))
    print(repr(scale_or_sum(3)), repr(scale_or_sum(1.5, k=4)), repr(scale_or_sum(7, 1)))


@guvectorize("(n)->()", nopython=True)
def int_total(a, out):
    s = 0
    for v in a:
        s += v
    out[0] = s


def show_gufunc_add():
    int_total.add("void(int32[:], int64[:])")
    int_total.build_ufunc()
    print(int_total.types, int_total.ntypes)
    o = np.zeros(2, dtype=np.int64)
    int_total(np.arange(6, dtype=np.int32).reshape(2, 3), o)
    print(o.tolist(), int_total.types)
    int_total.disable_compile()
    try:
        int_total(np.arange(3.0), np.zeros(1))
    except TypeError:
        print("TypeError: compilation disabled")


def show_types():
    print(types.float64[:, ::1], types.Array(types.int32, 3, "F"), types.float32[::1])
    print(float64(float64[:], int64))
    print(types.UniTuple(float64, 3), types.Tuple([float64, int64]), types.Tuple((int64, int64)))
    print(types.UniTuple(float64, 2)(float64[:]))
    print(repr(as_dtype(types.int16)), repr(as_dtype(float32)), from_dtype(np.dtype("u2")))
    print(numba.from_dtype(np.float64), numba.typeof(np.zeros((2, 3))), numba.typeof(2.5))
    print(numba.typeof((1, 2.5)), numba.typeof((3, 4)), numba.typeof(True), numba.typeof(1j))
    print(types.float_, types.double, types.intp, types.uintp, types.int_, types.intc)
    print(isinstance(numba.typeof(3), types.Integer), isinstance(numba.typeof(1.5), types.Float),
          isinstance(types.complex64, types.Complex), isinstance(types.float64[:], types.Array))
    print(types.int32.bitwidth, types.uint16.signed, types.int8.signed, types.float32.bitwidth)
    print(numba.int32(7), type(numba.float32(1.5)).__name__)


def show_errors():
    print(issubclass(NumbaPerformanceWarning, NumbaWarning), issubclass(NumbaWarning, Warning))
    print(issubclass(NumbaDeprecationWarning, DeprecationWarning))
    print(issubclass(NumbaValueError, TypingError), issubclass(TypingError, NumbaError))
    print(numba.NumbaWarning is NumbaWarning, numba.TypingError is TypingError)
    try:
        raise NumbaValueError("bad value")
    except NumbaError as e:
        print(type(e).__name__)


def show_dispatcher():
    a = np.arange(10.0)[::2]      # layout A: the declared signature itself
    print(repr(scaled(a, 3)), scaled.signatures)
    print(scaled.nopython_signatures)
    entry = pair.compile(types.Tuple([float64, int64])(float64, int64))
    print(entry(1.5, 4), pair.signatures, pair.nopython_signatures)
    print(pair(2.0, 3), len(pair.overloads), sorted(str(k) for k in pair.overloads))
    pair.disable_compile()
    print(pair(1.0, 2))
    print(pair(1, 2), pair(np.float32(0.5), np.int32(1)))  # converted to the compiled types
    try:
        pair(np.zeros(2), 2)
    except TypeError:
        print("TypeError: no matching definition")
    print(pair.py_func(1, 2), clamped_sum.py_func is not clamped_sum)
    print(repr(clamped_sum(np.array([-3.0, 0.5, 9.0]), 0.0, 1.0)), repr(clamp(5, 0, 3)))
    print(repr(dot_fm(np.arange(5.0), np.arange(5.0) + 0.5)), repr(recip(8.0)))
    print(set(scaled.inspect_llvm()) == set(scaled.signatures))
    print("define" in scaled.inspect_llvm(scaled.signatures[0]))


def show_ufuncs():
    x = np.array([3.0, 5.0, 8.0])
    print(hyp(x, 4.0).tolist(), hyp(np.array([3, 6]), np.array([4, 8])).tolist(), hyp.types)
    print(half(np.float32(3.0)), half(np.array([1.0, 3.0])).tolist(), half.types, half.ntypes)
    print(half.nin, half.nout, vecmat.signature, vecmat.nin, vecmat.nout)
    out = np.zeros(2)
    shift_by_sum(np.arange(4.0), np.array([1.0, 2.0]), out)
    print(out.tolist(), shift_by_sum.types)
    out2 = np.zeros((2, 3))
    shift_by_sum(np.arange(4.0).reshape(2, 2), np.ones((2, 3)), out=out2)
    print(out2.tolist())
    iout = np.zeros(2, dtype=np.int64)
    shift_by_sum(np.array([1, 2], dtype=np.int64), np.array([5, 6], dtype=np.int64), iout)
    print(iout.tolist(), shift_by_sum.types)
    try:
        shift_by_sum(np.arange(4.0), np.array([1.0, 2.0]))
    except TypeError as e:
        print("TypeError:", str(e)[:40])
    print(vecmat(np.ones(2), np.arange(6.0).reshape(2, 3)).tolist())


if __name__ == "__main__":
    show_types()
    show_errors()
    show_dispatcher()
    show_ufuncs()
    show_generated()
    show_gufunc_add()
    print(numba.version_info.major, numba.version_info.minor, numba.__version__[:4])
    print(repr(psum(np.arange(10.0))))
    print(numba.threading_layer() in ("workqueue", "omp", "tbb"), numba.get_thread_id())
    print(isinstance(numba.config.NUMBA_NUM_THREADS, int), numba.config.DISABLE_JIT)
    print(numba.config.BOUNDSCHECK, numba.config.OPT, numba.config.THREADING_LAYER)
