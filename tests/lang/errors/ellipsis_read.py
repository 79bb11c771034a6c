# expect error: 9:14: reading a[...] is not supported
# Reading a[...] alone: Numba 0.56 types it but has no lowering for it (LoweringError);
# writing a[...] = x works in both.
from numba import njit


@njit
def whole(a):
    return a[...]


if __name__ == "__main__":
    print(whole(__import__("numpy").zeros(3)))
