# expect error: 9:12: '<' is not supported between unicode_type and int64
# A string orders only against a string: Numba 0.56 has no '<' of unicode_type and int64
# (equality alone is defined, and is False).
from numba import njit


@njit
def before(s, n):
    return s < n


if __name__ == "__main__":
    print(before('a', 1))
