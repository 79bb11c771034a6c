/* set.c — the hash table behind sets of numbers in compiled code (Numba's Set), laid out and
 * probed exactly as Numba 0.56's numba/cpython/setobj.py so that iterating a set visits its
 * items in the order Numba's does.
 *
 * A set is one block from malloc() that begins with the CgMemInfo header every counted object
 * has (codegen/refs.c counts it), then the table's fields and the address of its entries:
 * `size` entries (a power of two, at least MINSIZE), each [ hash | key ] with the key in its
 * memory form padded to 8 bytes.  A hash of EMPTY (-1) marks a free entry and DELETED (-2) a
 * removed one; an item whose hash is one of those is stored with FALLBACK (-43) instead, as
 * Numba does.  Lookup probes LINEAR_PROBES entries one after the other from hash & mask, then
 * goes on with CPython's perturbation (i = (5 i + 1 + perturb) & mask, perturb >>= 5); an
 * insert takes the first deleted entry met on the way.  The table grows (by 4) when twice the
 * used entries reach its size and shrinks on removals as Numba's upsize/downsize say; set()
 * of n items starts at the first power of two >= 2 n.  Iteration walks the entries in table
 * order; pop() takes the first used entry after the "finger" and moves the finger there.
 *
 * The keys are numbers: nothing to count.  Equality is a function compiled code made for the
 * key type (codegen/dict.c), handed over with the key size by the first add (the set may be
 * made before its type is known: `set()` typed by a later add).  The JIT resolves
 * numjit_set_<name> to these (rt_set_define).
 */
#include "runtime.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { EMPTY = -1, DELETED = -2, FALLBACK = -43, MINSIZE = 16, LINEAR_PROBES = 3 };

typedef struct NjSet {
    CgMemInfo mi;
    int64_t used;   /* items */
    int64_t fill;   /* entries used or deleted */
    int64_t mask;   /* size - 1; -1 before the first add */
    int64_t finger; /* where pop() looks from */
    int64_t hint;   /* items expected (set(iterable)): the first table's size */
    int64_t ksize, esize;
    bool (*eq)(const void *a, const void *b);
    char *entries;
} NjSet;

_Static_assert(offsetof(NjSet, used) == CG_DICT_USED, "NjSet.used");

NjSet *numjit_set_new(int64_t hint);
int64_t numjit_set_len(const NjSet *s);
int64_t numjit_set_find(const NjSet *s, const void *key, int64_t hash);
int64_t numjit_set_add(NjSet *s, const void *key, int64_t hash, int64_t ksize, void *eq);
int64_t numjit_set_discard(NjSet *s, const void *key, int64_t hash);
void *numjit_set_key(NjSet *s, int64_t ix);
int64_t numjit_set_next(const NjSet *s, int64_t ix);
void numjit_set_pop(NjSet *s, void *out);
void numjit_set_clear(NjSet *s);
NjSet *numjit_set_copy(const NjSet *s);
int64_t numjit_set_merge(NjSet *a, const NjSet *b, int64_t kind);
NjSet *numjit_set_binop(const NjSet *a, const NjSet *b, int64_t kind);
void numjit_set_dtor(CgMemInfo *mi);
NjList *numjit_set_tolist(const NjSet *s);
NjSet *numjit_set_fromlist(const NjList *l, int64_t dtype, void *eq);
int32_t numjit_set_reflect(NjSet *s, NjList *l, int32_t status);
int64_t numjit_dict_hash_int(int64_t x); /* runtime/dict.c: the hashes compiled code uses */
int64_t numjit_dict_hash_uint(int64_t x);
int64_t numjit_dict_hash_float(double v);

static int64_t *ent_hash(const NjSet *s, int64_t i) { return (int64_t *)(s->entries + i * s->esize); }
static void *ent_key(const NjSet *s, int64_t i) { return s->entries + i * s->esize + 8; }
static bool is_used(int64_t h) { return h != EMPTY && h != DELETED; }
static int64_t fix_hash(int64_t h) { return is_used(h) ? h : FALLBACK; }

/* The first power of two >= max(2 n, MINSIZE) (Numba's choose_alloc_size). */
static int64_t alloc_size(int64_t n) {
    int64_t size = MINSIZE;
    while (size < 2 * n)
        size <<= 1;
    return size;
}

static bool alloc_entries(NjSet *s, int64_t size) {
    char *e = malloc((size_t)(size * s->esize));
    if (!e)
        return false;
    memset(e, 0xFF, (size_t)(size * s->esize));
    s->entries = e;
    s->mask = size - 1;
    s->used = s->fill = s->finger = 0;
    return true;
}

/* Numba's _lookup: *found, and the entry of the key or (for_insert) where it would go. */
static int64_t lookup(const NjSet *s, const void *key, int64_t h, bool for_insert, bool *found) {
    uint64_t mask = (uint64_t)s->mask, perturb = (uint64_t)h, i = (uint64_t)h & mask;
    int64_t free_ix = -1;
    for (int probe = 0;; probe++) {
        int64_t eh = *ent_hash(s, (int64_t)i);
        if (eh == h && s->eq(key, ent_key(s, (int64_t)i))) {
            *found = true;
            return (int64_t)i;
        }
        if (eh == EMPTY) {
            *found = false;
            return for_insert && free_ix >= 0 ? free_ix : (int64_t)i;
        }
        if (for_insert && eh == DELETED && free_ix < 0)
            free_ix = (int64_t)i;
        if (probe < LINEAR_PROBES)
            i = (i + 1) & mask;
        else {
            perturb >>= 5;
            i = (i * 5 + 1 + perturb) & mask;
        }
    }
}

/* Numba's _add_key without resizing: 1 when added, 0 when present. */
static int64_t add_key(NjSet *s, const void *key, int64_t h) {
    bool found;
    int64_t i = lookup(s, key, h, true, &found);
    if (found)
        return 0;
    int64_t old = *ent_hash(s, i);
    *ent_hash(s, i) = h;
    memcpy(ent_key(s, i), key, (size_t)s->ksize);
    s->used++;
    if (old == EMPTY)
        s->fill++;
    return 1;
}

/* The table rebuilt at size entries, the items re-added in table order (Numba's _resize). */
static bool resize(NjSet *s, int64_t size) {
    NjSet old = *s;
    if (!alloc_entries(s, size)) {
        *s = old;
        return false;
    }
    for (int64_t i = 0; i <= old.mask; i++)
        if (is_used(*ent_hash(&old, i)))
            add_key(s, ent_key(&old, i), *ent_hash(&old, i));
    free(old.entries);
    return true;
}

static bool upsize(NjSet *s, int64_t n) {
    int64_t size = s->mask + 1, min_entries = n << 1;
    if (min_entries < size)
        return true;
    int64_t ns = size;
    do
        ns <<= 2;
    while (min_entries >= ns);
    return resize(s, ns);
}

static void downsize(NjSet *s, int64_t n) {
    int64_t size = s->mask + 1, min_entries = n << 1;
    if (min_entries < MINSIZE)
        min_entries = MINSIZE;
    if (!((min_entries << 2) <= size && MINSIZE < size))
        return;
    int64_t ns = size;
    while (min_entries <= (ns >> 1))
        ns >>= 1;
    resize(s, ns); /* a smaller table that cannot be had: the set keeps its larger one */
}

static void remove_entry(NjSet *s, int64_t i, bool do_resize) {
    *ent_hash(s, i) = DELETED;
    s->used--;
    if (do_resize)
        downsize(s, s->used);
}

/* ---- the functions compiled code calls ---------------------------------------------------- */
void numjit_set_dtor(CgMemInfo *mi) {
    NjSet *s = (NjSet *)mi;
    free(s->entries);
    s->entries = NULL;
}

NjSet *numjit_set_new(int64_t hint) {
    NjSet *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->mi.refcount = 1;
    s->mi.nbytes = (int64_t)(sizeof *s - sizeof s->mi);
    s->mi.dtor = numjit_set_dtor;
    s->mask = -1;
    s->hint = hint > 0 ? hint : 0;
    return s;
}

int64_t numjit_set_len(const NjSet *s) { return s->used; }

int64_t numjit_set_find(const NjSet *s, const void *key, int64_t hash) {
    if (s->mask < 0)
        return -1;
    bool found;
    int64_t i = lookup(s, key, fix_hash(hash), false, &found);
    return found ? i : -1;
}

/* Adds key: 1 added, 0 present, -1 without memory. */
int64_t numjit_set_add(NjSet *s, const void *key, int64_t hash, int64_t ksize, void *eq) {
    if (s->mask < 0) {
        s->ksize = ksize;
        s->esize = 8 + ((ksize + 7) & ~(int64_t)7);
        s->eq = (bool (*)(const void *, const void *))eq;
        if (!alloc_entries(s, alloc_size(s->hint)))
            return -1;
    }
    int64_t r = add_key(s, key, fix_hash(hash));
    if (r && !upsize(s, s->used)) {
        bool found;
        remove_entry(s, lookup(s, key, fix_hash(hash), false, &found), false);
        return -1;
    }
    return r;
}

/* Removes key: 1 when it was there, else 0. */
int64_t numjit_set_discard(NjSet *s, const void *key, int64_t hash) {
    int64_t i = numjit_set_find(s, key, hash);
    if (i < 0)
        return 0;
    remove_entry(s, i, true);
    return 1;
}

void *numjit_set_key(NjSet *s, int64_t ix) { return ent_key(s, ix); }

/* The first used entry at or after ix in table order, or -1. */
int64_t numjit_set_next(const NjSet *s, int64_t ix) {
    for (; ix >= 0 && ix <= s->mask; ix++)
        if (is_used(*ent_hash(s, ix)))
            return ix;
    return -1;
}

/* Numba's pop: the first used entry after the finger (the set is not empty: the typer has
 * raised KeyError), its key copied to out, removed (which may shrink the table). */
void numjit_set_pop(NjSet *s, void *out) {
    int64_t i = s->finger;
    do
        i = (i + 1) & s->mask;
    while (!is_used(*ent_hash(s, i)));
    s->finger = i;
    memcpy(out, ent_key(s, i), (size_t)s->ksize);
    remove_entry(s, i, true);
}

void numjit_set_clear(NjSet *s) {
    if (s->mask < 0)
        return;
    char *old = s->entries;
    if (alloc_entries(s, MINSIZE))
        free(old);
    else { /* no memory for a small table: empty the large one */
        memset(old, 0xFF, (size_t)((s->mask + 1) * s->esize));
        s->used = s->fill = s->finger = 0;
    }
}

NjSet *numjit_set_copy(const NjSet *s) {
    NjSet *c = numjit_set_new(0);
    if (!c || s->mask < 0)
        return c;
    c->ksize = s->ksize;
    c->esize = s->esize;
    c->eq = s->eq;
    if (s->used == s->fill) { /* a raw copy of the table */
        if (!alloc_entries(c, s->mask + 1))
            goto fail;
        memcpy(c->entries, s->entries, (size_t)((s->mask + 1) * s->esize));
        c->used = s->used;
        c->fill = s->fill;
        c->finger = s->finger;
        return c;
    }
    if (!alloc_entries(c, alloc_size(s->used)))
        goto fail;
    for (int64_t i = 0; i <= s->mask; i++)
        if (is_used(*ent_hash(s, i)))
            add_key(c, ent_key(s, i), *ent_hash(s, i));
    return c;
fail:
    free(c);
    return NULL;
}

/* a op= b for kind 0 update (|=), 1 intersection (&=), 2 difference (-=), 3 symmetric
 * difference (^=), each as Numba's: 0 on success, -1 without memory. */
int64_t numjit_set_merge(NjSet *a, const NjSet *b, int64_t kind) {
    if (b->mask < 0 || (a->mask < 0 && kind != 0 && kind != 3))
        return kind == 1 ? (numjit_set_clear(a), 0) : 0;
    if (a->mask < 0) {
        a->ksize = b->ksize;
        a->esize = b->esize;
        a->eq = b->eq;
        if (!alloc_entries(a, alloc_size(a->hint)))
            return -1;
    }
    switch (kind) {
    case 0: /* presized to len(a) + len(b), then shrunk in case of many duplicates */
        if (!upsize(a, a->used + b->used))
            return -1;
        for (int64_t i = 0; i <= b->mask; i++)
            if (is_used(*ent_hash(b, i)) && add_key(a, ent_key(b, i), *ent_hash(b, i)) &&
                !upsize(a, a->used))
                return -1;
        downsize(a, a->used);
        return 0;
    case 1:
        for (int64_t i = 0; i <= a->mask; i++) {
            bool found;
            if (is_used(*ent_hash(a, i)) &&
                (b->mask < 0 || (lookup(b, ent_key(a, i), *ent_hash(a, i), false, &found), !found)))
                remove_entry(a, i, false);
        }
        break;
    case 2:
        for (int64_t i = 0; i <= b->mask; i++) {
            bool found;
            if (!is_used(*ent_hash(b, i)))
                continue;
            int64_t j = lookup(a, ent_key(b, i), *ent_hash(b, i), false, &found);
            if (found)
                remove_entry(a, j, false);
        }
        break;
    default:
        for (int64_t i = 0; i <= b->mask; i++) {
            bool found;
            if (!is_used(*ent_hash(b, i)))
                continue;
            int64_t h = *ent_hash(b, i);
            int64_t j = lookup(a, ent_key(b, i), h, true, &found);
            if (found) {
                remove_entry(a, j, false);
                continue;
            }
            int64_t old = *ent_hash(a, j);
            *ent_hash(a, j) = h;
            memcpy(ent_key(a, j), ent_key(b, i), (size_t)a->ksize);
            a->used++;
            if (old == EMPTY)
                a->fill++;
            if (!upsize(a, a->used))
                return -1;
        }
    }
    downsize(a, a->used);
    return 0;
}

/* A new set a | b (kind 0), a & b (1), a - b (2) or a ^ b (3), made as Numba makes it: a copy
 * of one operand (the larger for | and ^, the smaller for &, a for -) updated with the other.
 * NULL without memory. */
NjSet *numjit_set_binop(const NjSet *a, const NjSet *b, int64_t kind) {
    const NjSet *first = a, *second = b;
    if ((kind == 0 || kind == 3) ? !(a->used > b->used) : kind == 1 ? !(a->used < b->used) : false) {
        first = b;
        second = a;
    }
    NjSet *s = numjit_set_copy(first);
    if (s && numjit_set_merge(s, second, kind) < 0) {
        numjit_set_dtor(&s->mi);
        free(s);
        return NULL;
    }
    return s;
}

static void list_items_free(NjList *l) { free(l->items); }

/* A new list (an NjList, numjit.h: the block every compiled list is) of s's items in iteration
 * order, for the C entry to hand a returned set over as a list does; NULL without memory. */
NjList *numjit_set_tolist(const NjSet *s) {
    NjList *l = malloc(sizeof *l);
    char *items = malloc((size_t)(s->used > 0 ? s->used * s->ksize : 1));
    if (!l || !items) {
        free(l);
        free(items);
        return NULL;
    }
    *l = (NjList){.refcount = 1, .nbytes = 24, .dtor = list_items_free, .size = s->used,
                  .capacity = s->used, .items = items};
    for (int64_t i = numjit_set_next(s, 0), k = 0; i >= 0; i = numjit_set_next(s, i + 1))
        memcpy(items + k++ * s->ksize, ent_key(s, i), (size_t)s->ksize);
    return l;
}

/* The hash compiled code gives item p of dtype dt (codegen/dict.c key_hash): floats as doubles,
 * other numbers widened to 64 bits, unsigned ones hashed as such. */
static int64_t item_hash(const void *p, NjDType dt) {
    switch (dt) {
    case NJ_FLOAT32: return numjit_dict_hash_float(*(const float *)p);
    case NJ_FLOAT64: return numjit_dict_hash_float(*(const double *)p);
    case NJ_BOOL: return numjit_dict_hash_int(*(const uint8_t *)p);
    case NJ_INT8: return numjit_dict_hash_int(*(const int8_t *)p);
    case NJ_INT16: return numjit_dict_hash_int(*(const int16_t *)p);
    case NJ_INT32: return numjit_dict_hash_int(*(const int32_t *)p);
    case NJ_UINT8: return numjit_dict_hash_uint(*(const uint8_t *)p);
    case NJ_UINT16: return numjit_dict_hash_uint(*(const uint16_t *)p);
    case NJ_UINT32: return numjit_dict_hash_uint(*(const uint32_t *)p);
    case NJ_UINT64: return numjit_dict_hash_uint(*(const int64_t *)p);
    default: return numjit_dict_hash_int(*(const int64_t *)p);
    }
}

/* A set argument (Numba's reflected set): a new set of the items of l, the list of numbers of
 * dtype dt the caller made of its set, with eq the key type's equality; NULL without memory. */
NjSet *numjit_set_fromlist(const NjList *l, int64_t dtype, void *eq) {
    NjDType dt = (NjDType)dtype;
    int64_t ksize = nj_dtype_size(dt);
    NjSet *s = numjit_set_new(l->size);
    for (int64_t i = 0; s && i < l->size; i++) {
        const char *item = (const char *)l->items + i * ksize;
        if (numjit_set_add(s, item, item_hash(item, dt), ksize, eq) < 0) {
            numjit_set_dtor(&s->mi);
            free(s);
            s = NULL;
        }
    }
    return s;
}

/* After the call that took set s made from list l: when the call returned normally (status 0),
 * l's items become s's (iteration order), for the caller to write back to its own set; s's
 * reference is given back.  Returns status, or -1 when no memory was left for the items. */
int32_t numjit_set_reflect(NjSet *s, NjList *l, int32_t status) {
    if (status == 0) {
        char *items = realloc(l->items, (size_t)(s->used > 0 ? s->used * s->ksize : 1));
        if (items) {
            l->items = items;
            l->size = l->capacity = 0;
            for (int64_t i = numjit_set_next(s, 0); i >= 0; i = numjit_set_next(s, i + 1))
                memcpy(items + l->size++ * s->ksize, ent_key(s, i), (size_t)s->ksize);
            l->capacity = l->size;
        } else {
            status = -1;
        }
    }
    if (__atomic_fetch_sub(&s->mi.refcount, 1, __ATOMIC_ACQ_REL) == 1) {
        numjit_set_dtor(&s->mi);
        free(s);
    }
    return status;
}

bool rt_set_define(CgJit *jit, char **err) {
    static const char *const names[] = {
        "numjit_set_new", "numjit_set_len", "numjit_set_find", "numjit_set_add",
        "numjit_set_discard", "numjit_set_key", "numjit_set_next", "numjit_set_pop",
        "numjit_set_clear", "numjit_set_copy", "numjit_set_merge", "numjit_set_binop",
        "numjit_set_tolist", "numjit_set_fromlist", "numjit_set_reflect",
    };
    const uintptr_t addrs[] = {
        (uintptr_t)numjit_set_new, (uintptr_t)numjit_set_len, (uintptr_t)numjit_set_find,
        (uintptr_t)numjit_set_add, (uintptr_t)numjit_set_discard, (uintptr_t)numjit_set_key,
        (uintptr_t)numjit_set_next, (uintptr_t)numjit_set_pop, (uintptr_t)numjit_set_clear,
        (uintptr_t)numjit_set_copy, (uintptr_t)numjit_set_merge, (uintptr_t)numjit_set_binop,
        (uintptr_t)numjit_set_tolist, (uintptr_t)numjit_set_fromlist,
        (uintptr_t)numjit_set_reflect,
    };
    _Static_assert(sizeof names / sizeof *names == sizeof addrs / sizeof *addrs, "set symbols");
    return cg_jit_define(jit, names, addrs, (int)(sizeof addrs / sizeof *addrs), err);
}
