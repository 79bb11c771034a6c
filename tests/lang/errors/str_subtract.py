# expect error: 8:12: operator - is not supported between unicode_type and unicode_type
# Strings concatenate with '+'; Numba 0.56 has no other arithmetic on them.
from numba import njit


@njit
def minus(a, b):
    return a - b


if __name__ == "__main__":
    print(minus('abc', 'b'))
