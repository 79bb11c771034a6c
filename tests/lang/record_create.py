# Arrays of records made in compiled code from a structured dtype that is a global of the
# module (np.empty(n, dtype=DT), as Numba freezes the global), filled field by field, used
# there and given back to Python as a structured ndarray of that dtype.
import numpy as np
from numba import njit

particle = np.dtype([("x", "f8"), ("v", "f8"), ("id", "i4")])
cell = np.dtype([("n", "i8"), ("mass", "f4")], align=True)


@njit
def spawn(n, v0):
    p = np.empty(n, dtype=particle)
    for i in range(n):
        p[i].x = i * 0.5
        p[i].v = v0 * (i + 1)
        p[i].id = 100 + i
    return p


@njit
def step(p, dt):
    for i in range(p.shape[0]):
        p[i].x += p[i].v * dt
    return p["x"].sum()


@njit
def census(p, ncell):
    c = np.empty(ncell, cell)
    for k in range(ncell):
        c[k].n = 0
        c[k].mass = 0.0
    for i in range(len(p)):
        k = int(p[i].x) % ncell
        c[k].n += 1
        c[k]["mass"] += 1.5
    total = 0
    for k in range(ncell):
        total += c[k].n * 10 ** k
    return total


if __name__ == "__main__":
    p = spawn(5, 0.25)
    print(type(p).__name__, p.dtype == particle, p.shape, p.tolist())
    print(step(p, 2.0), p["x"].tolist())
    print(census(p, 3), census(spawn(7, 1.0), 2))
