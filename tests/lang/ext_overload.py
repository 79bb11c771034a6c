# numba.extending.overload, overload_method and overload_attribute: typing functions that see
# the argument types (isinstance on numba.types) and return the implementation to compile.
import numpy as np
from numba import njit, types
from numba.extending import overload, overload_method, overload_attribute, register_jitable


def scale(x):
    """A Python function with no compiled body: @overload gives it one."""
    raise NotImplementedError


@overload(scale)
def scale_typing(x):
    if isinstance(x, types.Float):
        def impl(x):
            return x * 2.0
        return impl
    if isinstance(x, types.Integer):
        def impl(x):
            return x * 3
        return impl
    if isinstance(x, types.Array) and x.ndim == 1:
        def impl(x):
            out = np.empty_like(x)
            for i in range(x.shape[0]):
                out[i] = scale(x[i])
            return out
        return impl
    return None


def describe(a, b):
    raise NotImplementedError


@overload(describe)
def describe_typing(a, b):
    kinds = []
    for t in (a, b):
        if isinstance(t, types.Boolean):
            kinds.append(1)
        elif isinstance(t, types.Integer):
            kinds.append(2 if t.signed else 3)
        elif isinstance(t, types.Float):
            kinds.append(4 if t.bitwidth == 64 else 5)
        elif isinstance(t, types.Complex):
            kinds.append(6)
        elif isinstance(t, types.UniTuple):
            kinds.append(7)
        elif isinstance(t, types.Tuple):
            kinds.append(8)
        elif isinstance(t, types.Array):
            kinds.append(10 * t.ndim + {"C": 1, "F": 2, "A": 3}[t.layout])
        else:
            kinds.append(0)
    code = kinds[0] * 100 + kinds[1]
    number = isinstance(a, types.Number)

    def impl(a, b):
        return code if number else -code
    return impl


@register_jitable
def clamp_helper(v, lo, hi):
    return min(max(v, lo), hi)


def clamp(v, lo, hi):
    raise NotImplementedError


@overload(clamp)
def clamp_typing(v, lo, hi):
    if isinstance(v, types.Array):
        def impl(v, lo, hi):
            out = np.empty_like(v)
            for i in range(v.size):
                out.flat[i] = clamp_helper(v.flat[i], lo, hi)
            return out
        return impl

    def impl(v, lo, hi):
        return clamp_helper(v, lo, hi)
    return impl


@overload_method(types.Array, "total_plus")
def total_plus_typing(arr, k):
    if isinstance(k, (types.Integer, types.Float)):
        def impl(arr, k):
            s = 0.0
            for x in arr.flat:
                s += x
            return s + k
        return impl


@overload_attribute(types.Array, "span")
def span_typing(arr):
    def impl(arr):
        return arr.max() - arr.min()
    return impl


@njit
def use_scale(x, a):
    return scale(x), scale(a), scale(7)


@njit
def use_describe(a, b):
    return describe(a, b)


@njit
def describe_tuples(x, a):
    return describe(x, (1, 2)), describe((1, 2.5), a)


@njit
def use_clamp(v, a):
    return clamp(v, 0.0, 1.0), clamp(a, 0.25, 0.75)


@njit
def use_methods(a):
    return a.total_plus(2), a.span


if __name__ == "__main__":
    r = use_scale(1.5, np.arange(4.0))
    print(type(r[0]).__name__, r[0], r[1].tolist(), r[1].dtype, type(r[2]).__name__, r[2])
    r = use_scale(np.float32(1.25), np.arange(3, dtype=np.int32))
    print(type(r[0]).__name__, r[0], r[1].tolist(), r[1].dtype)
    print(use_describe(1, 2.0))
    print(use_describe(np.int32(1), np.uint8(3)))
    print(use_describe(True, np.float32(2)))
    print(describe_tuples(1j, np.zeros((2, 3))))
    print(use_describe(np.zeros((2, 3)).T, np.zeros(5)[::2]))
    r = use_clamp(1.5, np.array([-1.0, 0.5, 2.0]))
    print(type(r[0]).__name__, r[0], r[1].tolist())
    r = use_methods(np.arange(5.0))
    print(type(r[0]).__name__, r[0], type(r[1]).__name__, r[1])
    r = use_methods(np.array([[3, 9], [1, 4]]))
    print(type(r[0]).__name__, r[0], type(r[1]).__name__, r[1])
