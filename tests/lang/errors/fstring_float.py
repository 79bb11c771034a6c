# expect error: 9:12: str() of float64 is not supported
# An f-string formats its values with str(), and Numba 0.56 has no str() of a float: an
# f-string of a float is refused at the f-string.
from numba import njit


@njit
def label(x):
    return f"x = {x}"


if __name__ == "__main__":
    print(label(1.5))
