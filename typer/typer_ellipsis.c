/* typer_ellipsis.c — '...' (Ellipsis) in an array index, as Numba 0.56 types it
 * (numba/core/typing/arraydecl.py get_array_index_type, numba/np/arrayobj.py basic_indexing).
 *
 * `a[..., 0]`, `a[1, ...]`, `a[...]`, `a[..., 1:3] = x`: the Ellipsis stands for as many whole
 * dimensions (`:`) as the other index items leave unindexed, so the index is rewritten, per
 * specialization (the number of dimensions is the array type's), into the same tuple with
 * the '...' replaced by that many empty slices, and every path of basic and advanced indexing
 * (reads, writes, augmented assignments, views) then runs unchanged.  The rewritten tuple is a
 * fresh node of the compilation's arena; the source's node is left alone, since another
 * specialization of the function may index an array of other dimensions with it.
 *
 * When the other items are integers for every dimension (`a[..., 0]` of a 1-d array), the
 * result is an element, as Numba 0.56 types it (NumPy would return a 0-d view).  A second
 * '...' is an error in Numba's words, and so is reading `a[...]` alone, which Numba 0.56 types
 * but cannot compile ("No definition for lowering getitem(array, ...)"); writing it
 * (`a[...] = x`) is the common way to fill an array and works in both.
 */
#include "typer_internal.h"

static int count(Node *ix) { return ix->kind == ND_TUPLE ? ix->list.n : 1; }
static Node *item(Node *ix, int k) { return ix->kind == ND_TUPLE ? ix->list.items[k] : ix; }

Node *ty_index_expand(Fn *fn, const Type *at, Node *ix) {
    int n = count(ix), at_k = -1;
    for (int k = 0; k < n; k++) {
        if (item(ix, k)->kind != ND_ELLIPSIS)
            continue;
        if (at_k >= 0) {
            ty_error(fn, item(ix, k)->loc, "only one ellipsis allowed in array index");
            return NULL;
        }
        at_k = k;
    }
    if (at_k < 0 || at->kind != TY_ARRAY)
        return ix;
    int fill = at->ndim - (n - 1);
    if (fill < 0)
        fill = 0; /* too many indices: the indexing path says so */
    Arena *arena = fn->tc->arena;
    int m = n - 1 + fill;
    Node *t = ast_new(arena, ND_TUPLE, ix->loc);
    Node **items = arena_alloc(arena, (size_t)(m > 0 ? m : 1) * sizeof(Node *));
    if (!t || !items)
        return NULL;
    t->list.items = items;
    for (int k = 0; k < n; k++) {
        Node *e = item(ix, k);
        if (k != at_k) {
            t->list.items[t->list.n++] = e;
            continue;
        }
        for (int j = 0; j < fill; j++) {
            Node *whole = ast_new(arena, ND_SLICE, e->loc);
            if (!whole)
                return NULL;
            t->list.items[t->list.n++] = whole;
        }
    }
    return t;
}
