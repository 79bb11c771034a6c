/* arena.c — bump allocation in chunks, and the injectable allocator under everything.
 *
 * An Arena hands out zeroed, 16-byte aligned blocks from a list of chunks; arena_free releases
 * them all at once.  Every allocation of the library goes through nj_malloc & co, which can be
 * told to fail the N-th call (nj_alloc_fail_after) so tests can check that running out of memory
 * gives NJ_ERR_NOMEM and not a crash.  When a chunk cannot be had the arena records the failure,
 * returns a pointer into a static scratch block (never NULL, so callers may keep going to the
 * next phase boundary) and arena_failed() tells the caller to stop there.
 */
#include "base.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_long fail_countdown; /* 0 = off; otherwise the call that fails counts down to 1 */

void nj_alloc_fail_after(long n) { atomic_store(&fail_countdown, n); }

static bool should_fail(void) {
    long n = atomic_load(&fail_countdown);
    while (n > 0) {
        if (atomic_compare_exchange_weak(&fail_countdown, &n, n - 1))
            return n == 1;
    }
    return false;
}

void *nj_malloc(size_t n) { return should_fail() ? NULL : malloc(n ? n : 1); }
void *nj_calloc(size_t n, size_t m) { return should_fail() ? NULL : calloc(n ? n : 1, m ? m : 1); }
void *nj_realloc(void *p, size_t n) { return should_fail() ? NULL : realloc(p, n ? n : 1); }
void nj_free(void *p) { free(p); }

typedef struct Chunk {
    struct Chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} Chunk;

struct Arena {
    Chunk *head;
    bool failed;
};

enum { CHUNK_MIN = 64 * 1024 };
static _Alignas(16) unsigned char scratch[4096];

Arena *arena_new(void) { return nj_calloc(1, sizeof(Arena)); }

void arena_free(Arena *a) {
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        nj_free(c);
    }
    nj_free(a);
}

bool arena_failed(const Arena *a) { return a->failed; }

void *arena_alloc(Arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;
        Chunk *fresh = nj_malloc(sizeof(Chunk) + size);
        if (!fresh) {
            a->failed = true;
            if (n > sizeof scratch)
                return NULL;
            memset(scratch, 0, n);
            return scratch;
        }
        fresh->size = size;
        fresh->used = 0;
        fresh->next = c;
        a->head = c = fresh;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
    StrBuf sb;
    sb_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    char *p = arena_strndup(a, sb.data ? sb.data : "", sb.len);
    sb_free(&sb);
    return p;
}
