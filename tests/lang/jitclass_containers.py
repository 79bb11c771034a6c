# jitclass instances in lists and tuples inside compiled code: appended, indexed, replaced,
# popped and iterated; each element its own instance (a counted block the list holds).
from numba import njit, float64, int64
from numba.experimental import jitclass


@jitclass([('x', float64), ('k', int64)])
class Item:
    def __init__(self, x, k):
        self.x = x
        self.k = k

    def weight(self):
        return self.x * self.k


@njit
def build(n):
    items = []
    for i in range(n):
        items.append(Item(0.5 * i, i))
    total = 0.0
    for it in items:
        total += it.weight()
    return total, len(items)


@njit
def replace_and_pop(n):
    items = [Item(1.0, 1)]
    for i in range(n):
        items.append(Item(float(i), 2))
    last = items.pop()
    items[0] = Item(10.0, 3)
    first = items[0]
    first.k += 1
    return items[0].k, items[0].weight(), last.x, len(items)


@njit
def pair(a, b):
    t = (Item(a, 1), Item(b, 2))
    return t[0].weight() + t[1].weight()


@njit
def shared(n):
    it = Item(2.0, 0)
    items = [it, it, it]
    for _ in range(n):
        items[1].k += 1
    return it.k, items[0].k


r = build(100)
print(type(r[0]).__name__, r)
print(replace_and_pop(5))
print(pair(1.5, 2.5))
print(shared(4))
