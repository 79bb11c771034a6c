# @jit(forceobj=True) (object mode) beside nopython functions: an object-mode function works
# on Python objects (a string built with repr, an object() argument, a dict) and gives the
# interpreter's results; the nopython functions of the file compile as usual.  Defined at
# module level and inside a setup function, as benchmark suites do.
import numpy as np
from numba import jit, njit


@jit(forceobj=True)
def describe(x):
    return "object mode: " + repr(x)


@jit(nopython=True)
def add(a, b):
    return a + b


def setup():
    @jit(forceobj=True, looplift=False)
    def binary_pyobj(x, y):
        if isinstance(x, object) and not isinstance(x, (int, float, str)):
            return None
        return x + y

    @njit
    def binary(x, y):
        return x * y

    return binary, binary_pyobj


if __name__ == "__main__":
    print("add", add(2, 3), type(add(2, 3)).__name__)
    print("add arrays", add(np.arange(3.0), 1.5).tolist())
    binary, binary_pyobj = setup()
    print(describe(3), describe([1, 2]))
    print("pyobj", binary_pyobj("ab", "cd"), binary_pyobj(1, 2.5), binary_pyobj(object(), None) is None)
    print("binary", binary(4, 2.5), type(binary(4, 2.5)).__name__)
    print("binary arrays", binary(np.arange(3), np.arange(3)).tolist())
