# expect error: 10:9: Nesting of literal_unroll is unsupported
# A literal_unroll loop over a heterogeneous tuple inside another (Numba refuses the nesting).
from numba import njit, literal_unroll


@njit
def f():
    s = 0.0
    for a in literal_unroll((1, 2.5)):
        for b in literal_unroll((0.5, 3)):
            s += a * b
    return s


if __name__ == "__main__":
    print(f())
