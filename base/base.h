/* base.h — the bottom layer every folder may include: arenas, growable strings, source
 * locations and diagnostics.
 *
 * Nothing here knows about Python, types or LLVM.  Memory follows the house rule: everything a
 * compilation allocates comes from one Arena and dies with it; a DiagList collects errors
 * (never prints, never exits) and renders them as
 *
 *     file.py:12:9: error: cannot add 'float64[:]' and 'bool'
 *        12 |     y = x + flag
 *           |         ^~~~~~~~
 */
#ifndef NUMJIT_BASE_H
#define NUMJIT_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define NJ_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define NJ_HIDDEN __attribute__((visibility("hidden")))
#else
#define NJ_PRINTF(a, b)
#define NJ_HIDDEN
#endif

/* ---- arena.c ---------------------------------------------------------------------------- */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n); /* zeroed, 16-byte aligned; never NULL (aborts on OOM
                                          only through the injectable allocator's failure
                                          hook returning NULL: callers check arena_failed) */
bool arena_failed(const Arena *a);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) NJ_PRINTF(2, 3);

/* Injectable allocator (tests fail the N-th allocation, as Lua's MEMLIMIT does).  0 = off. */
void nj_alloc_fail_after(long n);
void *nj_malloc(size_t n);
void *nj_calloc(size_t n, size_t m);
void *nj_realloc(void *p, size_t n);
void nj_free(void *p);

/* ---- strbuf.c: a growable string ----------------------------------------------------------- */
typedef struct StrBuf {
    char *data; /* always NUL-terminated when len > 0 or after sb_init */
    size_t len, cap;
} StrBuf;
void sb_init(StrBuf *sb);
void sb_free(StrBuf *sb);
void sb_putc(StrBuf *sb, char c);
void sb_puts(StrBuf *sb, const char *s);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_printf(StrBuf *sb, const char *fmt, ...) NJ_PRINTF(2, 3);
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
char *sb_take(StrBuf *sb); /* hands the buffer (malloc'ed, owned by the caller) over */
/* Appends a symbol name with every byte outside ASCII (the UTF-8 of a non-ASCII Python name)
 * written as $xx in hex: the form PTX accepts (café -> caf$c3$a9).  Used where a name becomes
 * a PTX symbol and where the driver looks one up, so both agree. */
void sb_put_symbol(StrBuf *sb, const char *name);

/* ---- diag.c: locations and diagnostics ---------------------------------------------------- */
typedef struct Source {
    const char *name; /* file name as the user gave it */
    const char *text; /* whole text, NUL-terminated; may be NULL (e.g. IR parsed from text) */
    size_t len;
    int line0;        /* lines before text's first line (a REPL chunk numbered within its
                         session); Locs count from line0 + 1 */
} Source;

typedef struct Loc {
    const Source *src; /* NULL for "no location" */
    int line, col;     /* 1-based */
    int len;           /* characters to underline (>= 1 when known, 0 = caret only) */
} Loc;

typedef enum { DG_ERROR, DG_WARNING, DG_NOTE } DiagLevel;

typedef struct Diag {
    DiagLevel level;
    Loc loc;
    char *msg; /* malloc'ed */
} Diag;

typedef struct DiagList {
    Diag *items;
    int n, cap;
    int nerrors;
} DiagList;

void diag_init(DiagList *d);
void diag_free(DiagList *d);
void diag_add(DiagList *d, DiagLevel lvl, Loc loc, const char *fmt, ...) NJ_PRINTF(4, 5);
void diag_vadd(DiagList *d, DiagLevel lvl, Loc loc, const char *fmt, va_list ap);
void diag_error(DiagList *d, Loc loc, const char *fmt, ...) NJ_PRINTF(3, 4);
/* Renders every diagnostic: "file:line:col: error: msg", the source line and a caret line. */
void diag_render(const DiagList *d, StrBuf *out);
void diag_render_one(const Diag *g, StrBuf *out);
/* A location spanning from a to the end of b (same line) or just a. */
Loc loc_span(Loc a, Loc b);
/* Source text is read as bytes with a length, but every layer above takes C strings: a NUL byte
 * would silently end the text there.  Adds a located error at the first NUL of
 * src->text[0..src->len) and returns true, or returns false when there is none. */
bool diag_nul_in_source(DiagList *d, const Source *src);

/* ---- checked.c: size and index arithmetic that cannot overflow -------------------------- */
typedef enum { NJ_SIZE_OK, NJ_SIZE_NEGATIVE, NJ_SIZE_OVERFLOW } NjSizeStatus;
/* a * b for a, b >= 0 into *out; false when either is negative or the product exceeds
 * INT64_MAX (then *out is untouched). */
bool nj_mul_size(int64_t a, int64_t b, int64_t *out);
/* The element count of a shape: NEGATIVE for an extent < 0, OVERFLOW when the product exceeds
 * INT64_MAX (a zero extent anywhere makes it 0, as NumPy allows). */
NjSizeStatus nj_shape_size(int ndim, const int64_t *shape, int64_t *count);
/* The same times itemsize: the bytes an array of that shape needs. */
NjSizeStatus nj_byte_size(int ndim, const int64_t *shape, int64_t itemsize, int64_t *nbytes);
/* Numba's ValueError message for a status ("negative dimensions not allowed", "array is too
 * big; ..."); "" for NJ_SIZE_OK. */
const char *nj_size_message(NjSizeStatus st);
/* len(range(start, stop, step)) for step != 0 (0 for step == 0), exact for every int64 (or
 * uint64) bound: at most 2**64 - 1. */
uint64_t nj_range_len(int64_t start, int64_t stop, int64_t step);
uint64_t nj_range_len_u64(uint64_t start, uint64_t stop, int64_t step);
/* The k-th value of range(start, ..., step), k < its length (wrapping arithmetic, exact there). */
int64_t nj_range_at(int64_t start, int64_t step, uint64_t k);
/* Python's index rule for a sequence of n items: i in [-n, n) gives i (negative i wraps) in
 * *out; anything else is false (IndexError).  An unsigned index never wraps. */
bool nj_index_norm(int64_t i, int64_t n, int64_t *out);
bool nj_index_norm_u64(uint64_t i, int64_t n, int64_t *out);

/* ---- hash.c ------------------------------------------------------------------------------- */
uint64_t nj_hash_bytes(const void *p, size_t n, uint64_t seed); /* FNV-1a 64 folded with seed */

/* Generic growable array of pointers. */
typedef struct PtrVec {
    void **items;
    int n, cap;
} PtrVec;
void pv_push(PtrVec *v, void *p);
void pv_free(PtrVec *v);

#endif
