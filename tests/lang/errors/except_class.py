# expect error: 10:12: only `except:` and `except Exception:` can catch
# Numba 0.56 cannot match an exception against a class other than Exception.
from numba import njit


@njit
def f(a, b):
    try:
        r = a // b
    except ZeroDivisionError:
        r = -1
    return r


if __name__ == "__main__":
    print(f(1, 0))
