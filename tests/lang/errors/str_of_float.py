# expect error: 9:12: str() of float64 is not supported
# Numba 0.56 converts integers, booleans and strings with str(); a float has no str() in
# nopython code, so the program is refused where it converts one.
from numba import njit


@njit
def label(x):
    return str(x) + ' units'


if __name__ == "__main__":
    print(label(1.5))
