# expect error: 10:31: startswith() takes at most 1 argument (2 given)
# Numba 0.56's str.startswith takes the prefix alone ("too many positional arguments" for a
# start index); numjit refuses the start at its place.
from numba import njit


@njit
def f(s):
    return (s.upper(),
            s.startswith('b', 1))


if __name__ == "__main__":
    print(f("abc"))
