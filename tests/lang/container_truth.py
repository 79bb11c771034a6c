# The truth value of a list, a set, a dict and a tuple, as Numba's bool() of each: non-empty is
# true.  `while queue:` drains a list used as a work queue (breadth-first order over an
# adjacency matrix), `if not seen:`, `if d:`, and a conditional expression on a list.
from numba import njit
import numpy as np


@njit
def bfs_order(adj, start):
    n = adj.shape[0]
    seen = np.zeros(n, dtype=np.bool_)
    seen[start] = True
    queue = [start]
    order = []
    while queue:
        u = queue.pop(0)
        order.append(u)
        for v in range(n):
            if adj[u, v] and not seen[v]:
                seen[v] = True
                queue.append(v)
    return order


@njit
def truths(n):
    items = [1.5]
    items.pop()
    for i in range(n):
        items.append(i * 0.5)
    s = {0}
    s.discard(0)
    for i in range(n):
        s.add(i)
    d = {0: 1.0}
    d.pop(0)
    if n > 1:
        d[n] = 2.0
    r = 0
    if items:
        r += 1
    if not s:
        r += 10
    if d:
        r += 100
    if (n, 2.5):
        r += 1000
    label = 7 if items else -7
    return r, label


if __name__ == "__main__":
    adj = np.array([[0, 1, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1],
                    [0, 0, 0, 0, 0]], dtype=np.bool_)
    print(bfs_order(adj, 0))
    print(bfs_order(adj, 2))
    for n in (0, 1, 3):
        print(truths(n))
