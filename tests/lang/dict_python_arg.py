# A plain Python dict passed to a compiled function: Numba 0.56 has no reflected dicts and
# refuses it when typing the argument (a TypingError that cannot determine the dict's type),
# and so does numjit; a dict made inside the function and read there works.
from numba import njit


@njit
def size(d):
    return len(d)


@njit
def inside(n):
    d = {}
    for i in range(n):
        d[i] = i * 0.5
    return len(d), d[n - 1]


if __name__ == "__main__":
    for arg in ({1: 2.0}, {"a": 1}, {}):
        try:
            size(arg)
        except Exception as e:
            print(type(e).__name__, "Cannot determine Numba type of <class 'dict'>" in str(e))
    print(inside(4))
