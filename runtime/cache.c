/* cache.c — the on-disk cache of compiled code: keys, entry files, and `numjit cache`.
 *
 * What is cached: for one compilation (an @njit specialization, or one ufunc/gufunc inner
 * loop), the object file codegen/ emitted plus what the caller would otherwise learn from the
 * typer (return type, rendered raise messages, a gufunc's parameter ranks).  A hit links the
 * object into the JIT: no typing, no LLVM optimizer, no code generation.  A GPU compilation
 * (an explicit kernel; kernel.c) stores the cubin the driver linked from our PTX, with the
 * entry name and parameter types (rt_cubin_put): a hit loads it with no typing, no LLVM and no
 * PTX JIT.  Its key (rt_cubin_key) swaps the host CPU for the GPU target.
 *
 * The key is text, built without typing (rt_cache_key), then hashed with SHA-256:
 *   format and numjit versions, LLVM version, target, host CPU name and features;
 *   the file name, the function, what is compiled (njit / ufunc / gufunc), its options;
 *   the argument types and the caller's extra text (a loop's dtypes and layout);
 *   the module's constants (their expressions as parsed) and import bindings;
 *   the source text and first line of the function and of every module function it may call:
 *   the def's AST is walked for names that are module functions, transitively.  That
 *   over-approximates (a local variable named like a function pulls it in) and never misses a
 *   callee, so editing a callee changes its callers' keys.  Line numbers are in the key
 *   because raise messages render file:line:col and the source line.
 * The entry symbol of the object is "nj_cache.<hash>": one key, one name.
 *
 * An entry file, <dir>/<40 hex digits of the hash>.nje, little-endian:
 *    0  magic "NUMJITC\x1a"          8  u32 format version      12  u32 header size (96)
 *   16  key hash (32 bytes)         48  u64 body size           56  u32 description size
 *   60  u32 reserved (0)            64  SHA-256 of the body (32 bytes)
 *   96  body: the description (for `numjit cache list`), then the payload (an RtBlob).
 * The file must be exactly 96 + body bytes, carry the expected key hash and the body's
 * checksum, or it is ignored (and the compile that follows rewrites it).  Writes go to a
 * temporary file in the same directory, are fsync'ed and renamed over the entry: a reader sees
 * the old file or the new one, never part of one, and two processes writing the same entry
 * both succeed (the last rename wins; both wrote the same code).
 *
 * The directory: $NUMJIT_CACHE_DIR, else $XDG_CACHE_HOME/numjit, else ~/.cache/numjit.  One
 * that cannot be created or written means no caching, not an error; NUMJIT_CACHE_DEBUG=1
 * prints what the cache does (hits, misses, stores, damaged entries) on stderr.
 *
 * Trust: an entry is machine code this process will run, so the directory and its files are
 * input another user may have planted.  Directories the cache creates are mode 0700 and its
 * files 0600.  The directory is used only when it is ours (owned by the effective user) and
 * writable by no group or other user; an entry only when it is a regular file, not a symbolic
 * link (opened with O_NOFOLLOW), ours and not group/world writable.  A refusal is a miss (the
 * function compiles, nothing is stored in a refused directory) and is recorded as a warning
 * that nj_cache_warnings returns: the library never prints it.  The checksum does not replace
 * these checks (anyone can compute one); it detects damage, not malice.
 */
#include "runtime.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_FORMAT 2 /* 2: a gufunc loop reads no core step for a "()" argument (codegen/loops.c) */
#define CACHE_HEADER 96
#define CACHE_MAX_FILE ((size_t)1 << 30)
static const uint8_t cache_magic[8] = {'N', 'U', 'M', 'J', 'I', 'T', 'C', 0x1a};

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------------------------ */
typedef struct Sha256 {
    uint32_t h[8];
    uint8_t buf[64];
    size_t nbuf;
    uint64_t total;
} Sha256;

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static uint32_t ror32(uint32_t x, int n) { return x >> n | x << (32 - n); }

static void sha_block(Sha256 *s, const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ w[i - 15] >> 3;
        uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ w[i - 2] >> 10;
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5],
             g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) +
                      sha_k[i] + w[i];
        uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
    s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void sha_init(Sha256 *s) {
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, iv, sizeof iv);
    s->nbuf = 0;
    s->total = 0;
}

static void sha_update(Sha256 *s, const void *data, size_t n) {
    const uint8_t *p = data;
    s->total += n;
    if (s->nbuf) {
        size_t k = 64 - s->nbuf < n ? 64 - s->nbuf : n;
        memcpy(s->buf + s->nbuf, p, k);
        s->nbuf += k, p += k, n -= k;
        if (s->nbuf == 64) {
            sha_block(s, s->buf);
            s->nbuf = 0;
        }
    }
    for (; n >= 64; p += 64, n -= 64)
        sha_block(s, p);
    memcpy(s->buf, p, n);
    s->nbuf += n;
}

static void sha_final(Sha256 *s, uint8_t out[32]) {
    uint64_t bits = s->total * 8;
    uint8_t pad[72] = {0x80};
    size_t padn = (s->nbuf < 56 ? 56 : 120) - s->nbuf;
    for (int i = 0; i < 8; i++)
        pad[padn + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
    sha_update(s, pad, padn + 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(s->h[i] >> (24 - 8 * j));
}

static void sha256(const void *p, size_t n, uint8_t out[32]) {
    Sha256 s;
    sha_init(&s);
    sha_update(&s, p, n);
    sha_final(&s, out);
}

/* ---- debug notes and the directory ----------------------------------------------------------- */
void rt_cache_debug(const char *fmt, ...) {
    const char *e = getenv("NUMJIT_CACHE_DEBUG");
    if (!e || !*e || *e == '0')
        return;
    va_list ap;
    va_start(ap, fmt);
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "numjit cache: %s\n", line);
}

bool rt_cache_wanted(const FuncInfo *fi) {
    const char *e = getenv("NUMJIT_CACHE");
    return (fi && fi->cache) || (e && *e && *e != '0');
}

/* The cache directory into buf; false when there is none (no variable names one). */
static bool cache_dir(char *buf, size_t n) {
    const char *d = getenv("NUMJIT_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"),
               *h = getenv("HOME");
    int k;
    if (d && *d)
        k = snprintf(buf, n, "%s", d);
    else if (x && x[0] == '/') /* the XDG spec ignores relative paths */
        k = snprintf(buf, n, "%s/numjit", x);
    else if (h && *h)
        k = snprintf(buf, n, "%s/.cache/numjit", h);
    else
        return false;
    return k > 0 && (size_t)k < n;
}

/* ---- trust: recorded warnings, owner and mode checks ----------------------------------------- */
#define CACHE_MAX_WARNINGS 32
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static char *warn_text[CACHE_MAX_WARNINGS];
static int warn_count;

/* Records a warning once (the same text again is not repeated); also a debug note. */
static void cache_warn(const char *fmt, ...) {
    char line[4400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    rt_cache_debug("warning: %s", line);
    pthread_mutex_lock(&warn_lock);
    bool seen = false;
    for (int i = 0; i < warn_count && !seen; i++)
        seen = !strcmp(warn_text[i], line);
    if (!seen && warn_count < CACHE_MAX_WARNINGS) {
        size_t n = strlen(line) + 1;
        char *c = nj_malloc(n);
        if (c) {
            memcpy(c, line, n);
            warn_text[warn_count++] = c;
        }
    }
    pthread_mutex_unlock(&warn_lock);
}

int nj_cache_warnings(char *buf, size_t n, bool clear) {
    pthread_mutex_lock(&warn_lock);
    size_t at = 0;
    if (buf && n)
        buf[0] = 0;
    for (int i = 0; i < warn_count; i++) {
        if (buf && n) {
            int k = snprintf(buf + at, n - at, "%s\n", warn_text[i]);
            at = k < 0 || (size_t)k >= n - at ? n - 1 : at + (size_t)k;
        }
    }
    int count = warn_count;
    if (clear) {
        for (int i = 0; i < warn_count; i++)
            nj_free(warn_text[i]);
        warn_count = 0;
    }
    pthread_mutex_unlock(&warn_lock);
    return count;
}

/* Why a file or directory of the cache must not be trusted, or NULL. */
static const char *untrusted(const struct stat *st, bool dir) {
    if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))
        return dir ? "not a directory" : "not a regular file";
    if (st->st_uid != geteuid())
        return "owned by another user";
    if (st->st_mode & (S_IWGRP | S_IWOTH))
        return "writable by its group or by others";
    return NULL;
}

/* Whether the cache directory (which exists) may be used; records why not. */
static bool dir_trusted(const char *dir) {
    struct stat st;
    if (stat(dir, &st))
        return false;
    const char *why = untrusted(&st, true);
    if (why)
        cache_warn("cache directory %s not used: %s", dir, why);
    return !why;
}

/* mkdir -p; what it creates is private to the user (0700) */
static bool make_dirs(const char *path) {
    char tmp[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, path, n + 1);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0700) && errno != EEXIST)
                return false;
            *p = '/';
        }
    return !mkdir(tmp, 0700) || errno == EEXIST;
}

/* ---- keys --------------------------------------------------------------------------------- */
/* Marks every module function named in n (any ND_NAME: callees, and more) and walks it. */
static void walk_names(const Node *n, const ModuleInfo *mi, bool *seen, int *order, int *count) {
    if (!n)
        return;
    if (n->kind == ND_NAME && n->name) {
        const FuncInfo *g = fe_find_func(mi, n->name);
        int i = g ? (int)(g - mi->funcs) : -1;
        if (i >= 0 && i < mi->nfuncs && !seen[i]) {
            seen[i] = true;
            order[(*count)++] = i;
            walk_names(g->def, mi, seen, order, count);
        }
    }
    walk_names(n->a, mi, seen, order, count);
    walk_names(n->b, mi, seen, order, count);
    walk_names(n->c, mi, seen, order, count);
    for (int i = 0; i < n->list.n; i++)
        walk_names(n->list.items[i], mi, seen, order, count);
    for (int i = 0; i < n->list2.n; i++)
        walk_names(n->list2.items[i], mi, seen, order, count);
    for (int i = 0; i < n->params.n; i++)
        walk_names(n->params.items[i], mi, seen, order, count);
}

static void put_func(StrBuf *sb, const FuncInfo *g) {
    const char *t = g->source_text ? g->source_text : "";
    sb_printf(sb, "def %s line %d length %zu\n", g->name, g->first_line, strlen(t));
    sb_puts(sb, t);
    sb_putc(sb, '\n');
}

static void hex_of(const uint8_t *h, int n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < n; i++) {
        out[2 * i] = digits[h[i] >> 4];
        out[2 * i + 1] = digits[h[i] & 15];
    }
    out[2 * n] = 0;
}

/* The key of either target.  target: the text of the target lines ("target cpu\nhost ...");
 * tag: what the description ends with ("njit", "kernel sm_90"). */
static bool key_build(RtCacheKey *k, const NjModule *m, const FuncInfo *fi, const char *what,
                      const char *target, const char *tag, const Type *const *args, int nargs,
                      const char *extra) {
    memset(k, 0, sizeof *k);
    const ModuleInfo *mi = m->info;
    StrBuf sb, desc;
    sb_init(&sb);
    sb_init(&desc);
    sb_printf(&sb, "numjit-cache %d\nnumjit %s\nllvm %s\n%s", CACHE_FORMAT, NJ_VERSION_STRING,
              cg_llvm_version(), target);
    sb_printf(&sb, "file %s\nfunc %s\nwhat %s\n", m->src.name ? m->src.name : "",
              fi->name, what);
    sb_printf(&sb, "options fastmath=%d error_model=%d boundscheck=%d opt=3\n", fi->fastmath,
              (int)fi->error_model, fe_boundscheck(fi));
    if (fi->fastmath_flags)
        sb_printf(&sb, "fastmath flags %u\n", fi->fastmath_flags);
    sb_printf(&sb, "args %d:", nargs);
    sb_printf(&desc, "%s: %s(", m->src.name ? m->src.name : "", fi->name);
    for (int i = 0; i < nargs; i++) {
        const Type *t = args[i];
        sb_printf(&sb, " %s%s", t ? t->name : "?", t && t->readonly ? " readonly" : "");
        sb_printf(&desc, "%s%s", i ? ", " : "", t ? t->name : "?");
    }
    sb_printf(&desc, ") [%s]", tag);
    sb_printf(&sb, "\nextra %s\n", extra ? extra : "");
    for (int i = 0; i < mi->nconsts; i++) {
        sb_printf(&sb, "const %s = ", mi->consts[i].name);
        ast_print(mi->consts[i].value, &sb);
        sb_putc(&sb, '\n');
    }
    for (int i = 0; i < mi->nbinds; i++)
        sb_printf(&sb, "import %s -> %s\n", mi->bind_names[i], mi->bind_targets[i]);
    /* the function, then every module function it may call, in the order the walk finds them */
    bool *seen = nj_calloc((size_t)mi->nfuncs + 1, sizeof *seen);
    int *order = nj_calloc((size_t)mi->nfuncs + 1, sizeof *order);
    bool ok = seen && order;
    if (ok) {
        int count = 0, self = (int)(fi - mi->funcs);
        if (self >= 0 && self < mi->nfuncs) {
            seen[self] = true;
            order[count++] = self;
        }
        put_func(&sb, fi);
        walk_names(fi->def, mi, seen, order, &count);
        for (int i = 1; i < count; i++)
            put_func(&sb, &mi->funcs[order[i]]);
    }
    nj_free(seen);
    nj_free(order);
    ok = ok && sb.data && desc.data;
    if (ok) {
        sha256(sb.data, sb.len, k->hash);
        hex_of(k->hash, 32, k->hex);
        snprintf(k->sym, sizeof k->sym, "nj_cache.%.32s", k->hex);
        k->desc = sb_take(&desc);
    }
    sb_free(&sb);
    sb_free(&desc);
    return ok;
}

bool rt_cache_key(RtCacheKey *k, const NjModule *m, const FuncInfo *fi, const char *what,
                  const Type *const *args, int nargs, const char *extra) {
    char target[300];
    snprintf(target, sizeof target, "target cpu\nhost %s\n", cg_host_cpu());
    return key_build(k, m, fi, what, target, what, args, nargs, extra);
}

/* The GPU's part of a cubin's key.  The host CPU is not in it (the cubin does not depend on
 * it); what the PTX and the cubin depend on is: the device's arch (a cubin runs on its SM
 * only), the arch and PTX ISA the PTX was generated for, the driver (its JIT made the cubin;
 * its version and PTX cap), the PTX backend ($NUMJIT_PTX_BACKEND included) and, when that is
 * libNVVM, its version.  libdevice is not: reading it costs more than a whole hit, and it
 * changes only with the CUDA toolkit (docs/cuda.md: clear the cache after upgrading one). */
bool rt_cubin_key(RtCacheKey *k, const NjModule *m, const FuncInfo *fi, const char *what,
                  const Type *const *args, int nargs, const RtGpuTarget *t, const char *extra) {
    CgPtxBackend be = cg_ptx_backend_for(t->gen_arch, CG_PTX_AUTO);
    int nv_major = 0, nv_minor = 0;
    if (be == CG_PTX_NVVM && !cg_nvvm_version(&nv_major, &nv_minor))
        nv_major = nv_minor = -1;
    char target[400], tag[96];
    snprintf(target, sizeof target,
             "target cuda\ndevice %s\nptx-arch %s ptx %d\ndriver %d cap %d\nbackend %s nvvm "
             "%d.%d\n",
             t->dev_arch, t->gen_arch,
             be == CG_PTX_NVVM ? cg_nvvm_ptx_isa() : cg_ptx_version(t->gen_arch, t->max_ptx),
             t->driver, t->max_ptx, cg_ptx_backend_name(be), nv_major, nv_minor);
    snprintf(tag, sizeof tag, "%s %s", what, t->dev_arch);
    return key_build(k, m, fi, what, target, tag, args, nargs, extra);
}

void rt_cache_key_free(RtCacheKey *k) {
    nj_free(k->desc);
    k->desc = NULL;
}

/* ---- blobs ------------------------------------------------------------------------------- */
static void blob_put(RtBlob *b, const void *p, size_t n) {
    if (b->bad)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *d = nj_realloc(b->data, cap);
        if (!d) {
            b->bad = true;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

void rt_blob_u32(RtBlob *b, uint32_t v) {
    uint8_t e[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    blob_put(b, e, 4);
}

void rt_blob_bytes(RtBlob *b, const void *p, size_t n) {
    if (n > UINT32_MAX - 1) {
        b->bad = true;
        return;
    }
    rt_blob_u32(b, (uint32_t)n);
    blob_put(b, p, n);
    blob_put(b, "", 1); /* a NUL after every string, so a reader can use it in place */
}

void rt_blob_str(RtBlob *b, const char *s) { rt_blob_bytes(b, s ? s : "", s ? strlen(s) : 0); }

/* kind; arrays: dtype kind (a record's: then its spelling), ndim, layout, address space,
 * readonly; tuples: n, elements (a named tuple's role is ROLE_NAMED, then its class's key);
 * lists: reflected, the item type. */
enum { ROLE_NAMED = 7 };

void rt_blob_type(RtBlob *b, const Type *t) {
    if (!t) {
        rt_blob_u32(b, 0xffffffffu);
        return;
    }
    /* a tuple's role (None, Optional) rides above the kind's byte: older entries read 0 */
    bool named = t->kind == TY_TUPLE && t->role == TR_TUPLE && t->func;
    rt_blob_u32(b, (uint32_t)t->kind |
                       (named ? (uint32_t)ROLE_NAMED << 8
                              : t->kind == TY_TUPLE ? (uint32_t)t->role << 8 : 0));
    if (t->kind == TY_ARRAY) {
        rt_blob_u32(b, (uint32_t)t->dtype->kind);
        if (t->dtype->kind == TY_RECORD) /* Numba's spelling says all (ir/record.c) */
            rt_blob_str(b, t->dtype->name);
        rt_blob_u32(b, (uint32_t)t->ndim);
        rt_blob_u32(b, (uint32_t)t->layout);
        rt_blob_u32(b, (uint32_t)t->addrspace);
        rt_blob_u32(b, t->readonly);
    } else if (t->kind == TY_TUPLE) {
        rt_blob_u32(b, (uint32_t)t->nelems);
        for (int i = 0; i < t->nelems; i++)
            rt_blob_type(b, t->elems[i]);
        if (named) /* its class's key, "cls:field,field" */
            rt_blob_str(b, t->func);
    } else if (t->kind == TY_LIST) {
        rt_blob_u32(b, t->reflected);
        rt_blob_type(b, t->dtype); /* NULL: list(undefined) */
    }
}

uint32_t rt_blob_get_u32(RtBlob *b) {
    if (b->bad || b->len - b->pos < 4 || b->pos > b->len) {
        b->bad = true;
        return 0;
    }
    const uint8_t *p = b->data + b->pos;
    b->pos += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

const void *rt_blob_get_bytes(RtBlob *b, size_t *n) {
    size_t len = rt_blob_get_u32(b);
    if (b->bad || b->len - b->pos < len + 1 || b->data[b->pos + len] != 0) {
        b->bad = true;
        *n = 0;
        return NULL;
    }
    const void *p = b->data + b->pos;
    b->pos += len + 1;
    *n = len;
    return p;
}

const char *rt_blob_get_str(RtBlob *b) {
    size_t n;
    const char *s = rt_blob_get_bytes(b, &n);
    if (s && strlen(s) != n) {
        b->bad = true;
        return NULL;
    }
    return s;
}

static bool is_scalar_kind(uint32_t k) { return k >= TY_BOOL && k <= TY_C128; }

/* A named tuple of elements el: its class's key "cls:field,field" follows them. */
static const Type *get_named(RtBlob *b, const Type **el, int n) {
    const char *key = rt_blob_get_str(b), *fields[64];
    char buf[2048];
    const char *colon = key ? strchr(key, ':') : NULL;
    if (!colon || strlen(key) >= sizeof buf) {
        b->bad = true;
        return NULL;
    }
    strcpy(buf, key);
    buf[colon - key] = 0;
    int k = 0;
    for (char *p = buf + (colon - key) + 1; k < n && p; k++) {
        fields[k] = p;
        p = strchr(p, ',');
        if (p)
            *p++ = 0;
    }
    const Type *t = k == n ? ty_named_tuple(buf, fields, el, n) : NULL;
    if (!t)
        b->bad = true;
    return t;
}

/* NULL for "no type"; a malformed type sets b->bad. */
static const Type *get_type(RtBlob *b, int depth) {
    uint32_t k = rt_blob_get_u32(b);
    if (b->bad || k == 0xffffffffu)
        return NULL;
    uint32_t role = k >> 8;
    k &= 0xff;
    if (role && (k != TY_TUPLE || (role > TR_OPTIONAL && role != ROLE_NAMED))) {
        b->bad = true;
        return NULL;
    }
    if (k == TY_VOID)
        return ty_void;
    if (is_scalar_kind(k))
        return ty_scalar((TypeKind)k);
    if (k == TY_ARRAY) {
        uint32_t dk = rt_blob_get_u32(b);
        const char *rec = dk == TY_RECORD ? rt_blob_get_str(b) : NULL;
        const Type *dt = rec ? ty_from_name(rec) : is_scalar_kind(dk) ? ty_scalar((TypeKind)dk)
                                                                      : NULL;
        uint32_t nd = rt_blob_get_u32(b), lay = rt_blob_get_u32(b), as = rt_blob_get_u32(b),
                 ro = rt_blob_get_u32(b);
        if (!b->bad && dt && (dt->kind != TY_RECORD || dk == TY_RECORD) && nd <= NJ_MAX_NDIM &&
            (lay == LAYOUT_C || lay == LAYOUT_F || lay == LAYOUT_A) && as <= AS_LOCAL && ro <= 1)
            return ty_array_ex(dt, (int)nd, (ArrayLayout)lay, (AddrSpace)as, ro != 0);
    } else if (k == TY_TUPLE && depth < 8) {
        uint32_t n = rt_blob_get_u32(b);
        const Type *el[64];
        if (b->bad || n > 64) {
            b->bad = true;
            return NULL;
        }
        for (uint32_t i = 0; i < n; i++)
            if (!(el[i] = get_type(b, depth + 1))) {
                b->bad = true;
                return NULL;
            }
        if (role == TR_NONE && n == 0)
            return ty_none();
        if (role == TR_OPTIONAL && n == 2 && el[0] == ty_bool && !ty_is_optional(el[1]) &&
            !ty_is_none(el[1]))
            return ty_optional(el[1]);
        if (role == ROLE_NAMED)
            return get_named(b, el, (int)n);
        if (role != TR_TUPLE) {
            b->bad = true;
            return NULL;
        }
        return ty_tuple(el, (int)n);
    } else if (k == TY_LIST && depth < 8) {
        uint32_t refl = rt_blob_get_u32(b);
        size_t at = b->pos;
        const Type *item = get_type(b, depth + 1);
        bool undefined = !b->bad && !item && b->pos == at + 4; /* the 0xffffffff of NULL */
        const Type *t = !b->bad && refl <= 1 && (item || undefined) ? ty_list(item, refl != 0)
                                                                    : NULL;
        if (t)
            return t;
    }
    b->bad = true;
    return NULL;
}

const Type *rt_blob_get_type(RtBlob *b) { return get_type(b, 0); }

void rt_blob_free(RtBlob *b) {
    nj_free(b->data);
    memset(b, 0, sizeof *b);
}

/* ---- cubin payloads --------------------------------------------------------------------- */
/* The payload of a GPU entry, in order: "cubin", the device arch, the entry name, the number
 * of parameters and their types, the caller's own bytes (meta), the cubin.  Everything the
 * launch needs besides the code, so that a hit never types the function. */
void rt_cubin_put(RtBlob *b, const RtCubinEntry *e) {
    rt_blob_str(b, "cubin");
    rt_blob_str(b, e->dev_arch);
    rt_blob_str(b, e->entry);
    if (e->nparams < 0 || e->nparams > RT_CUBIN_MAXPARAMS) {
        b->bad = true;
        return;
    }
    rt_blob_u32(b, (uint32_t)e->nparams);
    for (int i = 0; i < e->nparams; i++)
        rt_blob_type(b, e->params[i]);
    rt_blob_bytes(b, e->meta, e->meta ? e->meta_len : 0);
    rt_blob_bytes(b, e->cubin, e->cubin ? e->cubin_len : 0);
}

const char *rt_cubin_get(RtBlob *b, RtCubinEntry *e) {
    memset(e, 0, sizeof *e);
    const char *tag = rt_blob_get_str(b);
    if (!tag || strcmp(tag, "cubin"))
        return "not a cubin entry";
    e->dev_arch = rt_blob_get_str(b);
    e->entry = rt_blob_get_str(b);
    uint32_t n = rt_blob_get_u32(b);
    if (b->bad || !e->dev_arch || !e->entry || !*e->entry || n > RT_CUBIN_MAXPARAMS)
        return "bad header fields";
    e->nparams = (int)n;
    for (uint32_t i = 0; i < n; i++)
        if (!(e->params[i] = rt_blob_get_type(b)))
            return "bad parameter type";
    e->meta = rt_blob_get_bytes(b, &e->meta_len);
    e->cubin = rt_blob_get_bytes(b, &e->cubin_len);
    if (b->bad || !e->cubin)
        return "truncated payload";
    if (b->pos != b->len)
        return "bytes after the cubin";
    if (e->cubin_len < 4 || memcmp(e->cubin, "\177ELF", 4))
        return "the image is not a cubin (no ELF header)";
    return NULL;
}

/* ---- entry files ------------------------------------------------------------------------ */
static void put_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Reads a whole entry (at most CACHE_MAX_FILE bytes); nj_malloc'ed.  A symbolic link is not
 * followed and a file that is not ours, or that others may write, is not read: *why says so. */
static uint8_t *read_file(const char *path, size_t *len, bool *absent, const char **why) {
    *absent = false;
    *why = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        *absent = errno == ENOENT;
        if (errno == ELOOP)
            *why = "a symbolic link (not followed)";
        return NULL;
    }
    struct stat st;
    uint8_t *d = NULL;
    if (fstat(fd, &st))
        st.st_mode = 0;
    *why = untrusted(&st, false);
    if (!*why && st.st_size >= 0 && (size_t)st.st_size <= CACHE_MAX_FILE) {
        size_t n = (size_t)st.st_size, got = 0;
        d = nj_malloc(n ? n : 1);
        while (d && got < n) {
            ssize_t r = read(fd, d + got, n - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (d && got != n) {
            nj_free(d);
            d = NULL;
        }
        *len = n;
    }
    close(fd);
    return d;
}

/* Checks a file's header and checksum.  hash: the expected key hash, or NULL for any.  On
 * success *desc / *payload point into d. */
static const char *check_entry(const uint8_t *d, size_t n, const uint8_t *hash, size_t *desc_off,
                               size_t *desc_len, size_t *payload_off) {
    if (n < CACHE_HEADER)
        return "shorter than its header";
    if (memcmp(d, cache_magic, 8))
        return "not an entry (bad magic)";
    if (get_le(d + 8, 4) != CACHE_FORMAT || get_le(d + 12, 4) != CACHE_HEADER)
        return "another format version";
    if (hash && memcmp(d + 16, hash, 32))
        return "written for another key";
    uint64_t body = get_le(d + 48, 8), dl = get_le(d + 56, 4);
    if (body != n - CACHE_HEADER)
        return "truncated or too long";
    if (dl > body)
        return "bad description size";
    uint8_t sum[32];
    sha256(d + CACHE_HEADER, (size_t)body, sum);
    if (memcmp(sum, d + 64, 32))
        return "checksum mismatch";
    *desc_off = CACHE_HEADER;
    *desc_len = (size_t)dl;
    *payload_off = CACHE_HEADER + (size_t)dl;
    return NULL;
}

static bool entry_path(char *buf, size_t n, const char *dir, const char *hex) {
    int k = snprintf(buf, n, "%s/%.40s.nje", dir, hex);
    return k > 0 && (size_t)k < n;
}

static bool load_entry(const RtCacheKey *k, RtBlob *b);

/* What this process's cache did (nj_cache_stats): a hit is an entry found and checked. */
static atomic_ullong stat_hits, stat_misses, stat_stores;

void nj_cache_stats(NjCacheStats *out) {
    out->hits = atomic_load(&stat_hits);
    out->misses = atomic_load(&stat_misses);
    out->stores = atomic_load(&stat_stores);
}

bool rt_cache_load(const RtCacheKey *k, RtBlob *b) {
    bool ok = load_entry(k, b);
    atomic_fetch_add(ok ? &stat_hits : &stat_misses, 1);
    return ok;
}

static bool load_entry(const RtCacheKey *k, RtBlob *b) {
    memset(b, 0, sizeof *b);
    char dir[4096], path[4200];
    if (!cache_dir(dir, sizeof dir) || !entry_path(path, sizeof path, dir, k->hex))
        return false;
    size_t n = 0, doff, dlen, poff;
    bool absent;
    const char *refused;
    if (!dir_trusted(dir)) {
        rt_cache_debug("miss %s (directory not trusted)", k->desc);
        return false;
    }
    uint8_t *d = read_file(path, &n, &absent, &refused);
    if (refused)
        cache_warn("cache entry %s not used: %s", path, refused);
    if (!d) {
        rt_cache_debug("miss %s (%s)", k->desc, absent ? "no entry" : "cannot read the entry");
        return false;
    }
    const char *why = check_entry(d, n, k->hash, &doff, &dlen, &poff);
    if (why) {
        rt_cache_debug("damaged entry %s ignored: %s", path, why);
        nj_free(d);
        return false;
    }
    b->data = d;
    b->len = n;
    b->cap = n;
    b->pos = poff;
    return true;
}

static bool write_all(int fd, const void *p, size_t n) {
    const uint8_t *q = p;
    while (n) {
        ssize_t w = write(fd, q, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        q += w;
        n -= (size_t)w;
    }
    return true;
}

void rt_cache_store(const RtCacheKey *k, const RtBlob *b) {
    static atomic_uint serial;
    char dir[4096], path[4200], tmp[4300];
    if (b->bad) {
        rt_cache_debug("not stored %s: out of memory", k->desc);
        return;
    }
    if (!cache_dir(dir, sizeof dir)) {
        rt_cache_debug("no cache directory (set NUMJIT_CACHE_DIR or HOME)");
        return;
    }
    if (!entry_path(path, sizeof path, dir, k->hex))
        return;
    if (!make_dirs(dir)) {
        rt_cache_debug("cannot create %s: %s; not caching", dir, strerror(errno));
        return;
    }
    if (!dir_trusted(dir))
        return;
    snprintf(tmp, sizeof tmp, "%s/.%.40s.%ld.%u.tmp", dir, k->hex, (long)getpid(),
             atomic_fetch_add(&serial, 1));
    const char *desc = k->desc ? k->desc : "";
    size_t dlen = strlen(desc), body = dlen + b->len;
    uint8_t head[CACHE_HEADER] = {0};
    memcpy(head, cache_magic, 8);
    put_le(head + 8, CACHE_FORMAT, 4);
    put_le(head + 12, CACHE_HEADER, 4);
    memcpy(head + 16, k->hash, 32);
    put_le(head + 48, body, 8);
    put_le(head + 56, dlen, 4);
    Sha256 s;
    sha_init(&s);
    sha_update(&s, desc, dlen);
    sha_update(&s, b->data, b->len);
    sha_final(&s, head + 64);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        rt_cache_debug("cannot write in %s: %s; not caching", dir, strerror(errno));
        return;
    }
    bool ok = write_all(fd, head, sizeof head) && write_all(fd, desc, dlen) &&
              write_all(fd, b->data, b->len) && !fsync(fd);
    ok = !close(fd) && ok;
    /* the rename is the commit point: readers see the old entry or the whole new one */
    if (!ok || rename(tmp, path)) {
        rt_cache_debug("cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return;
    }
    rt_cache_debug("stored %s (%zu bytes) as %s", k->desc, body + CACHE_HEADER, path);
    atomic_fetch_add(&stat_stores, 1);
}

/* ---- the public API: nj_cache_dir, nj_cache_list, nj_cache_clear ------------------------- */
const char *nj_cache_dir(void) {
    static _Thread_local char buf[4096];
    return cache_dir(buf, sizeof buf) ? buf : NULL;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

NjStatus nj_cache_list(NjCacheVisit visit, void *user) {
    char dir[4096], path[4400];
    if (!cache_dir(dir, sizeof dir))
        return NJ_ERR_IO;
    DIR *dp = opendir(dir);
    if (!dp)
        return errno == ENOENT ? NJ_OK : NJ_ERR_IO; /* no directory yet: an empty cache */
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.' || !ends_with(de->d_name, ".nje"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t n = 0, doff = 0, dlen = 0, poff = 0;
        bool absent;
        const char *refused;
        uint8_t *d = read_file(path, &n, &absent, &refused);
        const char *why = d ? check_entry(d, n, NULL, &doff, &dlen, &poff)
                            : refused ? refused : "cannot read it";
        char hex[65];
        if (!why) { /* the name is the key hash: a header for another key is damage too */
            hex_of(d + 16, 32, hex);
            if (strncmp(de->d_name, hex, 40) || strlen(de->d_name) != 44)
                why = "written for another key";
        }
        char *desc = NULL;
        if (!why && (desc = nj_malloc(dlen + 1))) {
            memcpy(desc, d + doff, dlen);
            desc[dlen] = 0;
        }
        NjCacheEntry e = {.path = path, .desc = desc ? desc : "", .size = (int64_t)n,
                          .valid = !why, .problem = why};
        if (visit)
            visit(&e, user);
        nj_free(desc);
        nj_free(d);
    }
    closedir(dp);
    return NJ_OK;
}

NjStatus nj_cache_clear(int *removed) {
    char dir[4096], path[4400];
    if (removed)
        *removed = 0;
    if (!cache_dir(dir, sizeof dir))
        return NJ_ERR_IO;
    DIR *dp = opendir(dir);
    if (!dp)
        return errno == ENOENT ? NJ_OK : NJ_ERR_IO;
    NjStatus st = NJ_OK;
    struct dirent *de;
    while ((de = readdir(dp))) {
        bool entry = de->d_name[0] != '.' && ends_with(de->d_name, ".nje");
        bool temp = de->d_name[0] == '.' && ends_with(de->d_name, ".tmp");
        if (!entry && !temp)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (unlink(path) && errno != ENOENT)
            st = NJ_ERR_IO;
        else if (removed && entry)
            (*removed)++;
    }
    closedir(dp);
    return st;
}
