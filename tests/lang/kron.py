# np.kron in @njit functions: two matrices, two vectors (a vector result), a matrix and a
# vector, F-ordered operands, scalars beside arrays (the array's shape) and two scalars (a
# 1-element vector, as Numba returns it); the result's dtype is the first operand's (an int
# array times floats is cast, as Numba casts).
import numpy as np
from numba import njit


@njit
def kron(a, b):
    return np.kron(a, b)


def show(v):
    print(type(v).__name__, v.dtype, v.shape, v.tolist())


if __name__ == "__main__":
    a = np.arange(1.0, 5.0).reshape(2, 2)
    b = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    show(kron(a, b))
    show(kron(b, a))
    show(kron(np.asfortranarray(b), a))
    show(kron(np.arange(3), np.arange(1, 3)))
    show(kron(np.arange(3.0), b))
    show(kron(b, np.array([1.0, -1.0])))
    show(kron(np.arange(3), 2.5))
    show(kron(2.5, np.arange(3)))
    show(kron(2.0, 3.0))
    show(kron(np.arange(3), np.arange(2.0)))
    show(kron(np.ones((2, 2), dtype=np.float32), np.eye(2, dtype=np.float32)))
    show(kron(np.zeros((0, 2)), a))
