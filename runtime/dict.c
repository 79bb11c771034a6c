/* dict.c — the hash table behind typed dicts of compiled code (Numba's DictType), and Python's
 * hashes of numbers and tuples that compiled code computes its keys' hashes with.
 *
 * A dict is one block from malloc() that begins with the CgMemInfo header every counted object
 * has (refcount, nbytes, dtor: codegen.h), so compiled code counts and releases dicts with the
 * helpers it uses for arrays and lists (codegen/refs.c).  After the header (CG_DICT_*):
 *
 *   used | filled | entcap | tabsize | ksize | vsize | esize | index | entries | eq | krel | vrel
 *
 * It is CPython's compact dict, as Numba's dictobject.c is: `entries` holds the items in
 * insertion order, each [ hash | key | value ] (key and value in their memory form, each padded
 * to 8 bytes), and `index` is an open-addressing table of tabsize (a power of two) slots, each
 * the number of an entry, EMPTY or DUMMY (a deleted entry's slot, which probing passes over).
 * Probing is CPython's: slot = hash & mask, then slot = 5 * slot + 1 + perturb with perturb
 * shifted right 5 bits each step, so every slot is reached.  Deleting an entry sets its hash to
 * -1 (Python never hashes to -1) and its slot to DUMMY; iteration (next/last) skips such
 * entries, so it walks the items in insertion order as Python's and Numba's dicts do.  When
 * the entries are full, the table is rebuilt with the live entries moved to the front (entry
 * numbers change then, as in CPython), at twice the size when more than half are live.
 *
 * Keys are compared by `eq`, a function compiled code made for the key type (numbers by value,
 * strings by their text, tuples element by element); hashes come from compiled code too (the
 * functions below, or numjit_str_hash for strings).  The dict owns one reference to each key
 * and value that holds references (a string, an array, a list, another dict): compiled code
 * counts them up before insert and set, and the dict releases them through krel and vrel
 * (compiled functions of the types, NULL for types without references) when an item is
 * deleted or replaced by clear, and when the last reference to the dict goes (numjit_dict_dtor,
 * the header's destructor).  A new dict has no table: the first insert brings the sizes and the
 * functions of its item types (so that `{}` can be made before its types are known) and builds
 * one of MINSIZE slots.  The JIT resolves numjit_dict_<name> to these (rt_dict_define).
 * Hosts reach the same table through nj_dict_* (numjit.h; at the end of this file).
 */
#include "runtime.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { EMPTY = -1, DUMMY = -2, MINSIZE = 8 };

typedef struct NjDict {
    CgMemInfo mi;
    int64_t used;    /* live items */
    int64_t filled;  /* entries written (live or deleted) */
    int64_t entcap;  /* entries allocated: tabsize * 2 / 3 */
    int64_t tabsize; /* index slots, a power of two */
    int64_t ksize, vsize, esize;
    int64_t *index;
    char *entries;
    bool (*eq)(const void *a, const void *b);
    void (*krel)(void *key);
    void (*vrel)(void *value);
} NjDict;

_Static_assert(offsetof(NjDict, used) == CG_DICT_USED, "NjDict.used");

/* The functions compiled code calls (prototypes for -Wmissing-prototypes). */
void numjit_dict_dtor(CgMemInfo *mi);
NjDict *numjit_dict_new(void);
int64_t numjit_dict_len(const NjDict *d);
int64_t numjit_dict_find(const NjDict *d, const void *key, int64_t hash);
int64_t numjit_dict_insert(NjDict *d, const void *key, const void *value, int64_t hash,
                           int64_t ksize, int64_t vsize, void *eq, void *krel, void *vrel);
void *numjit_dict_key(NjDict *d, int64_t ix);
void *numjit_dict_value(NjDict *d, int64_t ix);
void numjit_dict_delete(NjDict *d, int64_t ix);
int64_t numjit_dict_next(const NjDict *d, int64_t ix);
int64_t numjit_dict_last(const NjDict *d);
void numjit_dict_clear(NjDict *d);
int64_t numjit_dict_hash_int(int64_t x);
int64_t numjit_dict_hash_uint(int64_t x);
int64_t numjit_dict_hash_float(double v);
int64_t numjit_dict_hash_tuple(const int64_t *lanes, int64_t n);

static int64_t pad8(int64_t n) { return (n + 7) & ~(int64_t)7; }

static char *entry(const NjDict *d, int64_t i) { return d->entries + i * d->esize; }
static int64_t *entry_hash(const NjDict *d, int64_t i) { return (int64_t *)entry(d, i); }
static void *entry_key(const NjDict *d, int64_t i) { return entry(d, i) + 8; }
static void *entry_value(const NjDict *d, int64_t i) { return entry(d, i) + 8 + pad8(d->ksize); }

static void release_entry(NjDict *d, int64_t i) {
    if (d->krel)
        d->krel(entry_key(d, i));
    if (d->vrel && d->vsize)
        d->vrel(entry_value(d, i));
}

/* The slot of entry ix (present) or, with ix < 0, the first free slot for hash. */
static int64_t find_slot(const NjDict *d, uint64_t hash, int64_t ix) {
    uint64_t mask = (uint64_t)d->tabsize - 1, perturb = hash, i = hash & mask;
    for (;;) {
        int64_t s = d->index[i];
        if (ix >= 0 ? s == ix : s == EMPTY)
            return (int64_t)i;
        perturb >>= 5;
        i = (i * 5 + perturb + 1) & mask;
    }
}

/* A table of tabsize slots holding the live entries, compacted; false without memory. */
static bool rebuild(NjDict *d, int64_t tabsize) {
    int64_t entcap = tabsize * 2 / 3;
    int64_t *index = malloc(sizeof *index * (size_t)tabsize);
    char *entries = malloc((size_t)(entcap * d->esize));
    if (!index || !entries) {
        free(index);
        free(entries);
        return false;
    }
    for (int64_t i = 0; i < tabsize; i++)
        index[i] = EMPTY;
    int64_t n = 0;
    for (int64_t i = 0; i < d->filled; i++)
        if (*entry_hash(d, i) != -1)
            memcpy(entries + n++ * d->esize, entry(d, i), (size_t)d->esize);
    free(d->index);
    free(d->entries);
    d->index = index;
    d->entries = entries;
    d->tabsize = tabsize;
    d->entcap = entcap;
    d->filled = n;
    for (int64_t i = 0; i < n; i++)
        d->index[find_slot(d, (uint64_t)*entry_hash(d, i), -1)] = i;
    return true;
}

void numjit_dict_dtor(CgMemInfo *mi) {
    NjDict *d = (NjDict *)mi;
    for (int64_t i = 0; i < d->filled; i++)
        if (*entry_hash(d, i) != -1)
            release_entry(d, i);
    free(d->index);
    free(d->entries);
    d->index = NULL;
    d->entries = NULL;
}

/* A new empty dict: no table until the first insert, which gives the item types' sizes and
 * functions (so `{}` can be made before the typer knows what it will hold). */
NjDict *numjit_dict_new(void) {
    NjDict *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->mi.refcount = 1;
    d->mi.nbytes = (int64_t)(sizeof *d - sizeof d->mi);
    d->mi.dtor = numjit_dict_dtor;
    return d;
}

int64_t numjit_dict_len(const NjDict *d) { return d->used; }

/* The entry holding key (whose hash is hash), or -1. */
int64_t numjit_dict_find(const NjDict *d, const void *key, int64_t hash) {
    if (!d->tabsize)
        return -1;
    uint64_t mask = (uint64_t)d->tabsize - 1, perturb = (uint64_t)hash, i = (uint64_t)hash & mask;
    for (;;) {
        int64_t s = d->index[i];
        if (s == EMPTY)
            return -1;
        if (s >= 0 && *entry_hash(d, s) == hash && d->eq(entry_key(d, s), key))
            return s;
        perturb >>= 5;
        i = (i * 5 + perturb + 1) & mask;
    }
}

/* Appends the item (key absent; its references already counted for the dict): 0, or -1
 * without memory (nothing changed).  The sizes and functions of the item types come with
 * every insert; the first one keeps them. */
int64_t numjit_dict_insert(NjDict *d, const void *key, const void *value, int64_t hash,
                           int64_t ksize, int64_t vsize, void *eq, void *krel, void *vrel) {
    if (!d->tabsize) {
        d->ksize = ksize;
        d->vsize = vsize;
        d->esize = 8 + pad8(ksize) + pad8(vsize);
        d->eq = (bool (*)(const void *, const void *))eq;
        d->krel = (void (*)(void *))krel;
        d->vrel = (void (*)(void *))vrel;
    }
    if (d->filled == d->entcap) {
        int64_t size = MINSIZE; /* the live items fill at most half of the new entries */
        while (size * 2 / 3 < (d->used + 1) * 2)
            size *= 2;
        if (size > ((int64_t)1 << 58) || !rebuild(d, size))
            return -1;
    }
    int64_t i = d->filled++;
    *entry_hash(d, i) = hash;
    memcpy(entry_key(d, i), key, (size_t)d->ksize);
    if (d->vsize)
        memcpy(entry_value(d, i), value, (size_t)d->vsize);
    d->index[find_slot(d, (uint64_t)hash, -1)] = i;
    d->used++;
    return 0;
}

void *numjit_dict_key(NjDict *d, int64_t ix) { return entry_key(d, ix); }
void *numjit_dict_value(NjDict *d, int64_t ix) { return entry_value(d, ix); }

/* Removes live entry ix, releasing its key and value. */
void numjit_dict_delete(NjDict *d, int64_t ix) {
    d->index[find_slot(d, (uint64_t)*entry_hash(d, ix), ix)] = DUMMY;
    release_entry(d, ix);
    *entry_hash(d, ix) = -1;
    d->used--;
}

/* The first live entry at or after ix, or -1. */
int64_t numjit_dict_next(const NjDict *d, int64_t ix) {
    for (; ix < d->filled; ix++)
        if (ix >= 0 && *entry_hash(d, ix) != -1)
            return ix;
    return -1;
}

/* The last live entry, or -1 (popitem). */
int64_t numjit_dict_last(const NjDict *d) {
    for (int64_t ix = d->filled - 1; ix >= 0; ix--)
        if (*entry_hash(d, ix) != -1)
            return ix;
    return -1;
}

void numjit_dict_clear(NjDict *d) {
    for (int64_t i = 0; i < d->filled; i++)
        if (*entry_hash(d, i) != -1) {
            release_entry(d, i);
            *entry_hash(d, i) = -1;
        }
    d->used = 0;
    d->filled = 0;
    for (int64_t i = 0; i < d->tabsize; i++)
        d->index[i] = EMPTY;
}

/* ---- Python's hashes (CPython's Python/pyhash.c and Objects/tupleobject.c) ---------------- */
enum { HASH_BITS = 61 };
#define HASH_MODULUS (((uint64_t)1 << HASH_BITS) - 1)

static int64_t not_minus_one(int64_t h) { return h == -1 ? -2 : h; }

int64_t numjit_dict_hash_int(int64_t x) {
    uint64_t m = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    int64_t h = (int64_t)(m % HASH_MODULUS);
    return not_minus_one(x < 0 ? -h : h);
}

int64_t numjit_dict_hash_uint(int64_t x) {
    return not_minus_one((int64_t)((uint64_t)x % HASH_MODULUS));
}

int64_t numjit_dict_hash_float(double v) {
    if (isinf(v))
        return v > 0 ? 314159 : -314159;
    if (isnan(v))
        return 0;
    int e;
    double m = frexp(v, &e);
    int sign = 1;
    if (m < 0) {
        sign = -1;
        m = -m;
    }
    uint64_t x = 0;
    while (m) {
        x = ((x << 28) & HASH_MODULUS) | x >> (HASH_BITS - 28);
        m *= 268435456.0;
        e -= 28;
        uint64_t y = (uint64_t)m;
        m -= (double)y;
        x += y;
        if (x >= HASH_MODULUS)
            x -= HASH_MODULUS;
    }
    e = e >= 0 ? e % HASH_BITS : HASH_BITS - 1 - ((-1 - e) % HASH_BITS);
    x = ((x << e) & HASH_MODULUS) | x >> (HASH_BITS - e);
    x = x * (uint64_t)(int64_t)sign;
    return not_minus_one((int64_t)x);
}

/* The hash of a tuple whose n items hash to lanes[0..n-1] (CPython 3.8's xxHash scheme). */
int64_t numjit_dict_hash_tuple(const int64_t *lanes, int64_t n) {
    const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL,
                   p5 = 2870177450012600261ULL;
    uint64_t acc = p5;
    for (int64_t i = 0; i < n; i++) {
        acc += (uint64_t)lanes[i] * p2;
        acc = (acc << 31) | (acc >> 33);
        acc *= p1;
    }
    acc += (uint64_t)n ^ (p5 ^ 3527539UL);
    return acc == (uint64_t)-1 ? 1546275796 : (int64_t)acc;
}

/* ---- the dict for C callers (numjit.h: nj_dict_*) ------------------------------------------
 * A host that holds a dict (the Python package's numba.typed.Dict) works on it here by the raw
 * bytes of keys and values, with the same table compiled code uses.  What compiled code makes
 * per type (codegen/dict.c: key equality, the release of a string) is written here once per
 * item code, with the same meaning, so a dict made by a host and filled by compiled code (or
 * the other way round) behaves as one made in either alone; hashes are the ones above. */
int64_t numjit_str_hash(const NjStr *a);
int64_t numjit_str_compare(const NjStr *a, const NjStr *b);

static bool eq_1(const void *a, const void *b) { return !memcmp(a, b, 1); }
static bool eq_2(const void *a, const void *b) { return !memcmp(a, b, 2); }
static bool eq_4(const void *a, const void *b) { return !memcmp(a, b, 4); }
static bool eq_8(const void *a, const void *b) { return !memcmp(a, b, 8); }
static bool eq_f32(const void *a, const void *b) { return *(const float *)a == *(const float *)b; }
static bool eq_f64(const void *a, const void *b) {
    return *(const double *)a == *(const double *)b;
}
static bool eq_str(const void *a, const void *b) { return !numjit_str_compare(a, b); }
static void rel_str(void *item) { nj_str_release(item); }

static int64_t item_size(NjDictItem t) {
    return t == NJ_DICT_STR ? (int64_t)sizeof(NjStr) : nj_dtype_size((NjDType)t);
}

bool nj_dict_item_ok(NjDictItem key, NjDictItem value) {
    return (key == NJ_DICT_STR || (key >= NJ_BOOL && key <= NJ_FLOAT64)) &&
           (value == NJ_DICT_STR || (value >= NJ_BOOL && value <= NJ_FLOAT64));
}

static bool (*eq_of(NjDictItem t))(const void *, const void *) {
    switch (t) {
    case NJ_DICT_STR: return eq_str;
    case NJ_FLOAT32: return eq_f32;
    case NJ_FLOAT64: return eq_f64;
    default: break;
    }
    int64_t n = item_size(t);
    return n == 1 ? eq_1 : n == 2 ? eq_2 : n == 4 ? eq_4 : eq_8;
}

/* Python's hash of the key at p (code t), as compiled code computes it (codegen/dict.c). */
static int64_t key_hash(NjDictItem t, const void *p) {
    switch (t) {
    case NJ_DICT_STR: return numjit_str_hash(p);
    case NJ_BOOL: return numjit_dict_hash_int(*(const uint8_t *)p != 0);
    case NJ_INT8: return numjit_dict_hash_int(*(const int8_t *)p);
    case NJ_INT16: return numjit_dict_hash_int(*(const int16_t *)p);
    case NJ_INT32: return numjit_dict_hash_int(*(const int32_t *)p);
    case NJ_INT64: return numjit_dict_hash_int(*(const int64_t *)p);
    case NJ_UINT8: return numjit_dict_hash_uint(*(const uint8_t *)p);
    case NJ_UINT16: return numjit_dict_hash_uint(*(const uint16_t *)p);
    case NJ_UINT32: return numjit_dict_hash_uint(*(const uint32_t *)p);
    case NJ_UINT64: return numjit_dict_hash_uint(*(const int64_t *)p);
    case NJ_FLOAT32: return numjit_dict_hash_float(*(const float *)p);
    default: return numjit_dict_hash_float(*(const double *)p);
    }
}

/* The item at src (code t) copied to dst with the dict's own reference: a string with an
 * owner counted up, one without copied; false without memory. */
static bool own_item(NjDictItem t, const void *src, void *dst) {
    if (t != NJ_DICT_STR) {
        memcpy(dst, src, (size_t)item_size(t));
        return true;
    }
    NjStr s = *(const NjStr *)src;
    if (s.owner) {
        __atomic_fetch_add(&((CgMemInfo *)s.owner)->refcount, 1, __ATOMIC_RELAXED);
    } else if (s.nbytes > 0) {
        NjStr c;
        char *text = rt_str_new(&c, s.nbytes, s.nchars);
        if (!text)
            return false;
        memcpy(text, s.data, (size_t)s.nbytes);
        s = c;
    }
    memcpy(dst, &s, sizeof s);
    return true;
}

static void drop_item(NjDictItem t, void *item) {
    if (t == NJ_DICT_STR)
        nj_str_release(item);
}

NjDict *nj_dict_new(void) { return numjit_dict_new(); }

void nj_dict_retain(NjDict *d) {
    if (d)
        __atomic_fetch_add(&d->mi.refcount, 1, __ATOMIC_RELAXED);
}

void nj_dict_release(NjDict *d) {
    if (d && __atomic_fetch_sub(&d->mi.refcount, 1, __ATOMIC_ACQ_REL) == 1) {
        if (d->mi.dtor)
            d->mi.dtor(&d->mi);
        free(d);
    }
}

int64_t nj_dict_len(const NjDict *d) { return d->used; }

int64_t nj_dict_find(const NjDict *d, NjDictItem ktype, const void *key) {
    return numjit_dict_find(d, key, key_hash(ktype, key));
}

NjStatus nj_dict_set(NjDict *d, NjDictItem ktype, NjDictItem vtype, const void *key,
                     const void *value) {
    int64_t h = key_hash(ktype, key);
    int64_t ix = numjit_dict_find(d, key, h);
    _Alignas(16) unsigned char kb[sizeof(NjStr)], vb[sizeof(NjStr)];
    if (!own_item(vtype, value, vb))
        return NJ_ERR_NOMEM;
    if (ix >= 0) { /* the new value in, then the old one out (they may be the same string) */
        void *p = entry_value(d, ix);
        _Alignas(16) unsigned char old[sizeof(NjStr)];
        memcpy(old, p, (size_t)d->vsize);
        memcpy(p, vb, (size_t)d->vsize);
        drop_item(vtype, old);
        return NJ_OK;
    }
    if (!own_item(ktype, key, kb)) {
        drop_item(vtype, vb);
        return NJ_ERR_NOMEM;
    }
    if (numjit_dict_insert(d, kb, vb, h, item_size(ktype), item_size(vtype), (void *)eq_of(ktype),
                           ktype == NJ_DICT_STR ? (void *)rel_str : NULL,
                           vtype == NJ_DICT_STR ? (void *)rel_str : NULL) < 0) {
        drop_item(ktype, kb);
        drop_item(vtype, vb);
        return NJ_ERR_NOMEM;
    }
    return NJ_OK;
}

const void *nj_dict_key(const NjDict *d, int64_t ix) { return entry_key(d, ix); }
const void *nj_dict_value(const NjDict *d, int64_t ix) { return entry_value(d, ix); }
void nj_dict_delete(NjDict *d, int64_t ix) { numjit_dict_delete(d, ix); }
int64_t nj_dict_next(const NjDict *d, int64_t ix) { return numjit_dict_next(d, ix); }
int64_t nj_dict_last(const NjDict *d) { return numjit_dict_last(d); }
void nj_dict_clear(NjDict *d) {
    if (d->tabsize)
        numjit_dict_clear(d);
}

bool rt_dict_define(CgJit *jit, char **err) {
    static const char *const names[] = {
        "numjit_dict_new", "numjit_dict_len", "numjit_dict_find", "numjit_dict_insert",
        "numjit_dict_key", "numjit_dict_value", "numjit_dict_delete", "numjit_dict_next",
        "numjit_dict_last", "numjit_dict_clear", "numjit_dict_hash_int", "numjit_dict_hash_uint",
        "numjit_dict_hash_float", "numjit_dict_hash_tuple",
    };
    const uintptr_t addrs[] = {
        (uintptr_t)numjit_dict_new, (uintptr_t)numjit_dict_len, (uintptr_t)numjit_dict_find,
        (uintptr_t)numjit_dict_insert, (uintptr_t)numjit_dict_key, (uintptr_t)numjit_dict_value,
        (uintptr_t)numjit_dict_delete, (uintptr_t)numjit_dict_next, (uintptr_t)numjit_dict_last,
        (uintptr_t)numjit_dict_clear, (uintptr_t)numjit_dict_hash_int,
        (uintptr_t)numjit_dict_hash_uint, (uintptr_t)numjit_dict_hash_float,
        (uintptr_t)numjit_dict_hash_tuple,
    };
    _Static_assert(sizeof names / sizeof *names == sizeof addrs / sizeof *addrs, "dict symbols");
    return cg_jit_define(jit, names, addrs, (int)(sizeof addrs / sizeof *addrs), err);
}
