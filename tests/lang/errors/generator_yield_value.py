# expect error: 17:14: 'yield' is supported as a statement only
# The value of a yield expression is what send() passes in: Numba 0.56 fails to type it; numjit
# refuses the expression and, at the loop, the generator that holds it.
from numba import njit


@njit
def echo(n):
    for i in range(n):
        x = yield i
        print(x)


@njit
def run(n):
    s = 0
    for v in echo(n):
        s += v
    return s


if __name__ == "__main__":
    print(run(3))
