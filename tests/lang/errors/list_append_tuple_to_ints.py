# expect error: 9:5: cannot append UniTuple(int64, 2) to list(int64)
# Appending a tuple to a list of integers: Numba 0.56 cannot unify the two item types.
from numba import njit


@njit
def f():
    l = [1, 2]
    l.append((3, 4))
    return len(l)


if __name__ == "__main__":
    print(f())
