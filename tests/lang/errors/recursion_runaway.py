# expect error: 10:16: cannot infer the return type of 'down'
# Every return depends on the recursive call: no type to start from (Numba: "cannot type
# infer runaway recursion").
from numba import njit


@njit
def down(n):
    if n > 0:
        return down(n - 1)
    return down(n + 1)


if __name__ == "__main__":
    print(down(3))
