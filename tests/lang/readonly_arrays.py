# Read-only arrays (a non-writeable ndarray, the memory of a bytes object): read, sliced and
# returned like others, typed apart (`readonly array(...)`), views of them stay read-only, a
# copy is writable.  Writing into one is a typing error (tests/lang/errors/readonly_*.py).
from numba import njit
import numpy as np


@njit
def total(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit
def tail(a):
    return a[2:]


@njit
def doubled(a):
    b = a.copy()
    b[0] = 7
    return b


@njit
def pick(a, b, first):
    c = a if first else b
    return c.sum()


@njit
def first_rows(m):
    return m[:1, ::2]


if __name__ == "__main__":
    data = np.frombuffer(b"hello", dtype=np.uint8)
    print(total(data))
    t = tail(data)
    print(t.tolist(), t.flags.writeable)
    d = doubled(data)
    print(d.tolist(), d.flags.writeable)
    ro = np.arange(6.0)
    ro.flags.writeable = False
    rw = np.arange(6.0) * 10
    print(total(ro), total(rw))
    print(pick(ro, rw, True), pick(ro, rw, False))
    m = np.arange(12.0).reshape(3, 4)
    m.flags.writeable = False
    r = first_rows(m)
    print(r.tolist(), r.flags.writeable)
    print([str(t) for s in total.signatures for t in s])
    print(data.tobytes())
