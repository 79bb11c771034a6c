from numba import njit


# for ... else over dict items and set items, with break, and the walk of dict.copy/update:
# the one entry-walk loop that dicts and sets share (typer_emit.c ty_entries_for)


@njit
def f(n, stop):
    d = {}
    s = set()
    for i in range(n):
        d[i * 3] = i * 0.5
        s.add(i * 7 % 11)
    out = 0.0
    for k, v in d.items():
        if k == stop:
            break
        out += v
    else:
        out += 1000.0
    for x in s:
        if x == stop:
            break
        out += x
    else:
        out -= 1.0
    e = d.copy()
    e.update({100: 2.5})
    for k in e:
        out += k
    return out

for n, stop in ((6, 9), (6, 4), (0, 1), (3, 0)):
    r = f(n, stop)
    print(n, stop, r, type(r).__name__)
