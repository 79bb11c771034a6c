# A text put together from several files (numjit/source.py appends the def of a callee from
# another file after a mark): errors after the mark name the file, line and column it gives.
from numba import njit

@njit
def here(*, a):
    return 0

# numjit-source: 40 4 pkg/core.py
@njit
def there(x, *rest, k):
    return x
# numjit-source: 7 0 pkg/other.py
@njit
def elsewhere(**kw):
    return 1
