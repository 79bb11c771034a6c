# expect error: 10:12: format spec in f-strings not supported yet
# Numba 0.56 formats an f-string's values with str() only: a format spec (or a conversion such
# as !r) is refused where the f-string is written.
from numba import njit
import numpy as np


@njit
def label(x):
    return f"x = {x:.3f}"


if __name__ == "__main__":
    print(label(np.pi))
