# expect error: 8:21: a dict literal's values must share one type: cannot unify float64 and unicode_type
# A dict literal whose values share no type: Numba 0.56 cannot type it as a typed dict.
from numba import njit


@njit
def f():
    d = {1: 2.0, 2: 'two'}
    return len(d)


print(f())
