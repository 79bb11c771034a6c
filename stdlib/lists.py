# lists.py — sorting by a key function, in numjit's own language: list.sort(key=f) and
# sorted(iterable, key=f, reverse=...) as Numba 0.56 runs them (numba/cpython/listobj.py
# computes the keys once and sorts them by timsort, carrying the items along).
#
# lib/list.c types each call and passes the key, a function value (a jitted function of the
# program: its type names it, typer_expr.c).  The sort is a stable bottom-up merge sort of
# the items' positions by their keys, so equal keys keep their order, and reverse=True is
# the stable reverse order Python gives (a later item goes first only when its key is
# greater), not the sorted order read backwards.  Always joined to a module, as str.py is.


def _nj_list_sort_key(l, key, reverse):
    n = len(l)
    if n < 2:
        return
    keys = [key(x) for x in l]
    idx = [i for i in range(n)]
    tmp = [i for i in range(n)]
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            k = lo
            while k < hi:
                right = False
                if i >= mid:
                    right = True
                elif j < hi:
                    if reverse:
                        right = keys[idx[j]] > keys[idx[i]]
                    else:
                        right = keys[idx[j]] < keys[idx[i]]
                if right:
                    tmp[k] = idx[j]
                    j += 1
                else:
                    tmp[k] = idx[i]
                    i += 1
                k += 1
            lo = hi
        for k in range(n):
            idx[k] = tmp[k]
        width *= 2
    items = [l[i] for i in idx]
    for k in range(n):
        l[k] = items[k]


def _nj_list_items(it):
    return [x for x in it]
