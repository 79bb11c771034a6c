/* hash.c — a 64-bit FNV-1a hash (cache keys, interning) and a growable pointer vector. */
#include "base.h"

uint64_t nj_hash_bytes(const void *p, size_t n, uint64_t seed) {
    const unsigned char *s = p;
    uint64_t h = 0xcbf29ce484222325ull ^ (seed * 0x9e3779b97f4a7c15ull);
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

void pv_push(PtrVec *v, void *p) {
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 8;
        void **items = nj_realloc(v->items, (size_t)cap * sizeof *items);
        if (!items)
            return;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = p;
}

void pv_free(PtrVec *v) {
    nj_free(v->items);
    v->items = NULL;
    v->n = v->cap = 0;
}
